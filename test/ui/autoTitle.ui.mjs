// @ts-check
// Untitled sessions can be told apart: an agent that never sends a title gets its session named by the
// first prompt, shortened, everywhere: the chat tab, the chat's header, Switch Session, the Sessions view
// and the status bar's tooltip. A second untitled session reads differently.
import { openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'autoTitle';
export const sharedWindow = true;
export const timeout = 150_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-minimal', 'Scripted minimal', 'minimalCapabilities')],
};

const long = 'Explain why the integration tests of the payment service time out on the second run';
const short = 'Explain why the integration tests of the payment service…';

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted minimal');
  const before = await chat.locator('[data-testid="session-title"]').innerText();
  t.expect(/^Scripted minimal · \d\d:\d\d:\d\d$/.test(before), `before any prompt the chat is named by its agent and time (${before})`);
  await sendPrompt(t, chat, long);
  await chat.locator('[data-testid="agent-message"]', { hasText: 'minimal' }).waitFor({ timeout: 20_000 });
  await chat.locator('[data-testid="session-title"]', { hasText: short }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the header shows the first prompt, shortened at a word');
  await page.locator('.tabs-container .tab.active', { hasText: short }).waitFor({ timeout: 10_000 });
  t.expect(true, 'so does the tab');

  const second = await openSession(t, 'Scripted minimal');
  await sendPrompt(t, second, 'Rename the config loader');
  await page.locator('.tabs-container .tab.active', { hasText: 'Rename the config loader' }).waitFor({ timeout: 20_000 });

  // Switch Session lists both, by their prompts, and none as "Untitled" or "New session"
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: rows.filter({ hasText: short }) });
  t.expect(await rows.filter({ hasText: 'Rename the config loader' }).count() === 1, 'Switch Session names the second session by its prompt');
  t.expect(await rows.filter({ hasText: /Untitled|New session/ }).count() === 0, 'no row says "Untitled" or "New session"');
  await t.screenshot('auto-title-switch');
  await page.keyboard.press('Escape');

  // the Sessions view
  await t.runCommand('View: Show Switchboard');
  const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Sessions/i }) }).first();
  await view.locator('.monaco-list-row', { hasText: short }).first().waitFor({ timeout: 15_000 });
  t.expect(await view.locator('.monaco-list-row', { hasText: 'Rename the config loader' }).count() === 1, 'the Sessions view names both by their prompts');
  t.expect(await view.locator('.monaco-list-row', { hasText: /Untitled/ }).count() === 0, 'no row says "Untitled"');
  await t.screenshot('auto-title-sessions-view');
}
