// @ts-check
// UI smoke test: the workbench opens the workspace, the extension's "New Session" command shows up in the
// command palette and runs without an error notification.
export const name = 'smoke';
export const sharedWindow = true;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).waitFor({ timeout: 30_000 });
  t.expect(true, 'the explorer shows the workspace');

  const title = t.commandTitle('switchboard.newSession');
  await t.runCommand(title);
  t.expect(true, `"${title}" is in the command palette and runs`);

  // running it must not end in "command not found" or an activation error
  await page.waitForTimeout(1500);
  const errors = await page.locator('.notifications-toasts .notification-toast')
    .filter({ hasText: /not found|failed|error/i }).allTextContents();
  t.expect(errors.length === 0, `no error notification after running it (${JSON.stringify(errors)})`);
  // it opens the agent picker (on a loaded machine a moment later), which is closed again
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo agent' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'it opens the agent picker');
  await t.screenshot('smoke');
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').filter({ visible: true }).waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
}
