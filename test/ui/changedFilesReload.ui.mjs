// @ts-check
// The changed-files bar survives Reload Window: the Demo agent's tour writes a file (after the permission),
// the bar lists it; after a reload the chat comes back (resumed) and the bar still lists the file, still
// pending review, with Keep and Undo (its turn's checkpoints are read again). Screenshots:
// changedFilesReload-before.png, changedFilesReload-after.png
import { openDemoSession, sendSlashCommand } from './scriptedSession.mjs';

export const name = 'changedFilesReload';
export const sharedWindow = true;
export const timeout = 240_000;

/** @param {import('playwright-core').FrameLocator} chat */
const barSummary = async (chat) => {
  const summary = chat.locator('[data-testid="changed-files-summary"]');
  await summary.waitFor({ timeout: 30_000 });
  return (await summary.innerText()).replace(/\s+/g, ' ');
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const { chat, input } = await openDemoSession(t);
  await sendSlashCommand(t, input, '/tour');
  await chat.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="permission-option"][data-kind="allow_once"]').first().click();
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  const before = await barSummary(chat);
  t.expect(/1 file changed/.test(before), `the bar lists the tour's file (${before})`);
  await t.screenshot('changedFilesReload-before');

  // a browser reload (F5), as a person does in code-server: unlike Developer: Reload Window (t.reloadWindow,
  // which the other reload tests use) it does not wait for the web workbench to save its open editors, which
  // it does every 5 s: a person who reloads at once may lose the tab, as in VS Code itself
  await page.waitForTimeout(5000);
  await page.reload();
  const back = await t.webviewByTitle(/Switchboard tour/, { timeoutMs: 60_000 });
  await back.locator('[data-testid="changes-entry"][data-role="turn"]').first().waitFor({ timeout: 60_000 });
  const after = await barSummary(back);
  t.expect(after === before, `after Reload Window the bar lists the same pending file (${after})`);
  await back.locator('[data-testid="changed-files-toggle"]').click();
  const row = back.locator('[data-testid="changed-file"]', { hasText: 'switchboard-demo.md' }).first();
  await row.waitFor({ timeout: 10_000 });
  t.expect(true, 'the file is listed, to keep or undo');
  await t.screenshot('changedFilesReload-after');
}
