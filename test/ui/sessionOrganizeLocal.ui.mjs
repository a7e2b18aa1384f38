// @ts-check
// An agent without the unstable session methods: the header offers no Fork and ACP: Fork Session says why;
// Rename (header) and Archive (palette) still work, kept by Switchboard, and both survive a window reload.
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { answerRename, row, sessionsView, titleAction } from './organizeSteps.mjs';

export const name = 'sessionOrganizeLocal';
export const timeout = 180_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-plain', 'Scripted plain', 'organizeNoCap')],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted plain');
  await sendPrompt(t, chat, 'Only Switchboard knows');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Answer 1' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  t.expect(await chat.locator('[data-testid="fork-session"]').count() === 0, 'no Fork button for an agent without session/fork');
  await t.runCommand(t.commandTitle('switchboard.forkSession'));
  await t.notification(/Fork Session is unavailable for Scripted plain/);
  t.expect(true, 'ACP: Fork Session says it is unavailable for this agent');

  await chat.locator('[data-testid="session-title"]').click();
  await answerRename(t, 'Only Switchboard knows', 'Kept by Switchboard');
  await chat.locator('[data-testid="session-title"]', { hasText: 'Kept by Switchboard' }).waitFor({ timeout: 15_000 });
  await page.locator('.tabs-container .tab', { hasText: 'Kept by Switchboard' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'renamed without session/set_title');

  await t.runCommand(t.commandTitle('switchboard.archiveSession'));
  await page.locator('.tabs-container .tab', { hasText: 'Kept by Switchboard' }).waitFor({ state: 'detached', timeout: 15_000 });
  t.expect(true, 'ACP: Archive Session archives the active chat and closes it');

  await t.reloadWindow();
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  const view = await sessionsView(t);
  await titleAction(t, 'Show Archived Sessions');
  await row(view, 'Kept by Switchboard').waitFor({ timeout: 30_000 });
  t.expect((await row(view, 'Kept by Switchboard').innerText()).includes('archived'), 'after the reload the filter shows it with its new title, archived');
  await t.screenshot('sessionOrganizeLocal-after-reload');
  await titleAction(t, 'Hide Archived Sessions');
  await row(view, 'Kept by Switchboard').waitFor({ state: 'detached', timeout: 15_000 });
  t.expect(true, 'and without the filter it is hidden');
}
