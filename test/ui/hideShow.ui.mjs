// @ts-check
// A chat panel survives being hidden and shown again (the webview is re-created, retainContextWhenHidden is
// false): the transcript comes back from the host's snapshot and the unsent draft is still in the box.
export const name = 'hide-show';
export const sharedWindow = true;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo agent' });
  await row.first().waitFor({ timeout: 15_000 });
  await row.first().click();
  let chat = await t.webview({ timeoutMs: 30_000 });
  const input = () => chat.locator('[data-testid="composer-input"]');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await input().click();
  await page.keyboard.type('hello');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Switchboard demo agent' }).first().waitFor({ timeout: 20_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await input().click();
  await page.keyboard.type('an unsent draft');
  await page.waitForTimeout(500);

  // hide the chat: open a file in the same editor group, then come back to the chat's tab
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).first().dblclick();
  await page.locator('.tab.active', { hasText: 'README.md' }).waitFor({ timeout: 15_000 });
  t.expect(true, 'the chat was hidden behind an editor');
  await page.locator('.tab', { hasText: 'Demo agent' }).first().click();
  chat = await t.webview({ timeoutMs: 30_000 });
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Switchboard demo agent' }).first().waitFor({ timeout: 20_000 });
  t.expect(await chat.locator('[data-testid="user-message"]', { hasText: 'hello' }).count() === 1, 'the transcript is back after hide/show');
  await input().waitFor({ timeout: 10_000 });
  t.expect((await input().inputValue()) === 'an unsent draft', 'the unsent draft survived');
  await t.screenshot('hide-show');
}
