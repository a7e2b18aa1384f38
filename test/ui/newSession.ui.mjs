// @ts-check
// A person's path: command palette → "ACP: New Session…" → pick "Demo agent" → type a prompt → the answer
// streams into the chat panel. Then the guided tour: a plan, a tool call and a permission dialog answered
// from the keyboard. Screenshots: test-results/screenshots/<version>/new-session-*.png
export const name = 'new-session';

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.newSession'));

  // the agent picker (a QuickPick): choose the Demo agent
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo agent' });
  await row.first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the agent picker lists the Demo agent');
  await page.keyboard.type('Demo');
  await page.keyboard.press('Enter');

  // the chat panel opens
  const chat = await t.webview({ timeoutMs: 30_000 });
  const input = chat.locator('[data-testid="composer-input"]');
  await input.waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  t.expect(true, 'the chat panel shows the session, ready');

  // type a prompt like a person and press Enter
  await input.click();
  await page.keyboard.type('Hello! What can you do?');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="user-message"]', { hasText: 'What can you do?' }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the prompt shows in the transcript at once');
  const answer = chat.locator('[data-testid="agent-message"]').first();
  await answer.filter({ hasText: 'Switchboard demo agent' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the streamed answer appears in the panel');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  const text = await chat.locator('[data-testid="agent-message"]').allTextContents();
  t.expect(text.join('\n').length > 200, `the whole answer streamed in (${text.join('').length} characters)`);
  await t.screenshot('new-session-answer');

  // the tour: a plan, tool calls and a permission request answered with the keyboard
  await input.click();
  await page.keyboard.type('/tour');
  await page.keyboard.press('Enter');
  const dialog = chat.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 30_000 });
  t.expect(await chat.locator('[data-testid="plan"]').count() === 1, 'the plan is shown');
  const focusedKind = await chat.locator(':focus').getAttribute('data-kind');
  t.expect(focusedKind !== null, `the permission dialog took the focus (${focusedKind})`);
  await t.screenshot('new-session-permission');
  await chat.locator('[data-testid="permission-option"][data-kind="allow_once"]').first().click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(true, 'answering the dialog closes it');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  t.expect(await chat.locator('[data-testid="tool-call"]').count() >= 2, 'tool-call cards are shown');
  await t.screenshot('new-session-tour');
}
