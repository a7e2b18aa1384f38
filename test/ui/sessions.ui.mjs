// @ts-check
// A person's path through sessions: New Session with a scripted agent and a first answer; ACP: Switch
// Session… opens a session from the agent's history (session/list, three pages) and then focuses the first
// chat again; Developer: Reload Window brings the chat panel back with its transcript, the session
// resumes, and a new prompt works. Screenshots: test-results/screenshots/<version>/sessions-*.png
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';

export const name = 'sessions';
export const timeout = 180_000;
export const settings = {
  'switchboard.agents': [{
    id: 'scripted-history',
    name: 'Scripted history',
    command: process.execPath,
    args: [
      path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'),
      path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'historyPaging.json'),
    ],
    env: { SCRIPTED_AGENT_DELAY_SCALE: '0' },
  }],
};

/**
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} text what to type in the picker
 */
async function switchTo(t, text) {
  // the session status bar item opens Switch Session (and works while the chat's webview has the focus)
  await t.page.locator('.statusbar-item', { hasText: 'Scripted history' }).first().click();
  await t.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor({ timeout: 15_000 });
  await t.page.keyboard.type(text);
  await t.page.keyboard.press('Enter');
}

/**
 * @param {import('playwright-core').FrameLocator} chat
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} text
 */
async function send(t, chat, text) {
  const input = chat.locator('[data-testid="composer-input"]');
  await input.click();
  await t.page.keyboard.type(text);
  await t.page.keyboard.press('Enter');
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Scripted history' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.type('Scripted history');
  await page.keyboard.press('Enter');
  const first = await t.webview({ timeoutMs: 30_000 });
  await first.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await send(t, first, 'Summarise the paging test');
  await first.locator('[data-testid="agent-message"]', { hasText: 'end-of-paged-1' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the first session answered');
  await page.locator('.statusbar-item', { hasText: 'Scripted history: idle' }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the status bar shows the agent and "idle"');

  // Switch Session lists the agent's history (three session/list pages) with the open session
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: page.locator('.quick-input-list .monaco-list-row', { hasText: 'History six' }) });
  t.expect(await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Scripted history' }).count() >= 2, 'rows name the agent');
  await t.screenshot('sessions-switch');
  await page.keyboard.type('History one');
  await page.keyboard.press('Enter');
  const resumed = await t.webviewByTitle('History one · Scripted history', { timeoutMs: 30_000 });
  await resumed.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await send(t, resumed, 'hello');
  await resumed.locator('[data-testid="agent-message"]', { hasText: 'end-of-h-1' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'a session opened from history takes prompts');

  // back to the first chat: it is focused (the active tab)
  // an untitled session is named by its first prompt, in the picker as in its tab
  await switchTo(t, 'Summarise the paging test');
  await page.locator('.tabs-container .tab.active', { hasText: 'Summarise the paging test' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'Switch Session focused the chosen chat');

  // focus the resumed session, then reload the window
  await switchTo(t, 'History one');
  await page.locator('.tabs-container .tab.active', { hasText: 'History one' }).first().waitFor({ timeout: 15_000 });
  await t.reloadWindow();
  // both panels come back; the one VS Code shows first may be either: pick the resumed one's tab
  const tab = page.locator('.tabs-container .tab', { hasText: 'History one' }).first();
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  const back = await t.webviewByTitle('History one · Scripted history', { timeoutMs: 60_000 });
  await back.locator('[data-testid="agent-message"]', { hasText: 'end-of-h-1' }).waitFor({ timeout: 60_000 });
  t.expect(true, 'after the reload the panel is back with its transcript');
  await back.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await send(t, back, 'again');
  await back.locator('[data-testid="user-message"]', { hasText: 'again' }).waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => true);
  t.expect(await back.locator('[data-testid="agent-message"]', { hasText: 'end-of-h-1' }).count() >= 1, 'the resumed session answers a new prompt');
  await back.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await t.screenshot('sessions-after-reload');
}
