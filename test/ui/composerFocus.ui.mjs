// @ts-check
// The keyboard lands in the composer: after New Session, after Switch Session, and after returning to a
// chat's tab from an editor, what the user types goes into the composer with no click and no Tab.
import { scriptedAgent, untitledTab } from './scriptedSession.mjs';

export const name = 'composerFocus';
export const sharedWindow = true;
export const timeout = 150_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-focus', 'Scripted focus', 'minimalCapabilities')],
};

/**
 * New Session from the keyboard; resolves with the new chat (the tab titled "Scripted focus · <time>") once it is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {number} tabs how many chat tabs there are after it
 */
async function newSession(t, tabs) {
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await t.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Scripted focus' }).first().waitFor({ timeout: 15_000 });
  await t.page.keyboard.type('Scripted focus');
  await t.page.keyboard.press('Enter');
  await t.page.waitForFunction((n) => document.querySelectorAll('.tabs-container .tab').length === n, tabs, { timeout: 30_000 });
  const chat = await t.webviewByTitle(untitledTab('Scripted focus'), { timeoutMs: 30_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  return chat;
}

/**
 * Types with the keyboard only, and checks that the text reached the chat's composer.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} text
 * @param {string} when
 */
async function typesIntoComposer(t, chat, text, when) {
  const input = chat.locator('[data-testid="composer-input"]');
  // VS Code gives a webview the keyboard a moment after it shows (later still on a busy machine): the
  // composer must have it then, with no click; a key typed before that goes to the workbench in any client
  const focused = () => input.evaluate((el) => el.ownerDocument.hasFocus() && el.ownerDocument.activeElement === el).catch(() => false);
  for (const start = Date.now(); Date.now() - start < 10_000 && !(await focused()); await t.page.waitForTimeout(100));
  t.expect(await focused(), `${when}: the composer has the keyboard`);
  await t.page.keyboard.type(text);
  let value = '';
  for (const start = Date.now(); Date.now() - start < 5000; await t.page.waitForTimeout(100)) {
    value = await input.inputValue();
    if (value.includes(text)) break;
  }
  t.expect(value.includes(text), `${when}: typed text goes into the composer (it holds ${JSON.stringify(value)})`);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const first = await newSession(t, 1);
  await typesIntoComposer(t, first, 'Check the focus rules', 'after New Session');
  await page.keyboard.press('Enter');
  await first.locator('[data-testid="agent-message"]', { hasText: 'minimal' }).waitFor({ timeout: 20_000 });
  const firstTitle = 'Check the focus rules · Scripted focus';

  const second = await newSession(t, 2);
  await typesIntoComposer(t, second, 'second draft', 'after a second New Session');

  // Switch Session back to the first chat, from the keyboard
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: page.locator('.quick-input-list .monaco-list-row', { hasText: 'Check the focus rules' }).first() });
  await page.keyboard.type('Check the focus rules');
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: 'Check the focus rules' }).waitFor({ timeout: 15_000 });
  const back = await t.webviewByTitle(firstTitle, { timeoutMs: 30_000 });
  await back.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await typesIntoComposer(t, back, 'switched', 'after Switch Session');

  // an editor takes the focus, then the chat's tab is clicked again
  await t.runCommand('View: Show Explorer');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).first().dblclick();
  await page.locator('.tabs-container .tab.active', { hasText: 'README.md' }).waitFor({ timeout: 15_000 });
  await page.locator('.tabs-container .tab', { hasText: 'Check the focus rules' }).first().click();
  const again = await t.webviewByTitle(firstTitle, { timeoutMs: 30_000 });
  await again.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await typesIntoComposer(t, again, ' returned', 'after returning to the chat tab');
  await t.screenshot('composer-focus');
}
