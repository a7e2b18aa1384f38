// @ts-check
// Reload Window while the agent waits for a permission (issue 26): after the reload the chat says that the turn
// was cancelled, the plan's unfinished steps show as cancelled (as after a Stop), and the tool call no longer
// waits. The Sessions view by keyboard is sessionsKeyboard.ui.mjs.
// Screenshots: test-results/screenshots/<version>/sessionEdges-*.png
import { openSession, reloadWindowAndReopen, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'sessionEdges';
export const sharedWindow = true;
export const timeout = 120_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-edges', 'Scripted edges', 'sessionEdges')],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  // a turn with a plan (1 of 5 steps done) waits for a permission; the window reloads
  const chat = await openSession(t, 'Scripted edges');
  await sendPrompt(t, chat, 'Refactor the parser');
  await chat.locator('[data-testid="permission"]').first().waitFor({ timeout: 20_000 });
  t.expect((await chat.locator('[data-testid="plan"] [data-testid="plan-summary"]').first().innerText()).includes('1/5'), 'the plan says 1/5 done');
  // the keyboard leaves the chat first: the Escape with which runCommand opens the palette would be a Stop in the composer
  await page.locator('.part.sidebar .monaco-list').first().focus();
  const back = await reloadWindowAndReopen(t, 'Scripted edges', 'Refactor the parser · Scripted edges');
  const notice = back.locator('[data-testid="notice"][data-level="warning"]', { hasText: 'while the agent was waiting for your permission; the turn was cancelled' });
  await notice.waitFor({ timeout: 60_000 });
  const summary = () => back.locator('[data-testid="plan"] [data-testid="plan-summary"]').first().innerText();
  t.expect(true, 'after the reload the chat says the window closed during the permission and the turn was cancelled');
  await back.locator('[data-testid="plan-entry"][data-status="cancelled"]').first().waitFor({ state: 'attached', timeout: 10_000 });
  t.expect(await back.locator('[data-testid="plan-entry"][data-status="cancelled"]').count() === 4, 'the plan\'s four unfinished steps show as cancelled');
  t.expect(await back.locator('[data-testid="plan-entry"][data-status="completed"]').count() === 1, 'the done step stays done');
  t.expect((await summary()).includes('cancelled'), `the plan's line says it was cancelled (${await summary()})`);
  t.expect(await back.locator('[data-testid="permission"]').count() === 0, 'no permission request is left');
  // the chat shows its transcript from the store at once, Starting… until the agent has resumed it
  await back.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  t.expect(true, 'the session is idle once its agent resumed it');
  await t.screenshot('sessionEdges-reload-permission');
}
