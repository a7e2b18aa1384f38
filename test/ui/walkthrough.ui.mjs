// @ts-check
// The first-run walkthrough, completed like a new user would with the Demo agent: open it from the command
// palette, read the steps, start the Demo agent from the last step's button, send a first prompt, and see
// the step marked done. Screenshot: test-results/screenshots/<version>/walkthrough.png
export const name = 'walkthrough';

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand('Welcome: Open Walkthrough...');
  const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Switchboard' });
  await pick.first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the walkthrough is listed');
  await pick.first().click();

  const steps = page.locator('.getting-started-step');
  await steps.filter({ hasText: 'Pick or install an agent' }).first().waitFor({ timeout: 15_000 });
  t.expect(await steps.filter({ hasText: 'Sign in' }).count() === 1, 'it has a sign-in step');
  const last = steps.filter({ hasText: 'Send a first prompt' }).first();
  await last.click();
  await last.locator('a, .button-link, button', { hasText: 'Chat with the Demo agent' }).first().click();

  // the Demo agent's chat opens from the step's button
  const chat = await t.webview({ timeoutMs: 30_000 });
  const input = chat.locator('[data-testid="composer-input"]');
  await input.waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await input.click();
  await page.keyboard.type('Hi!');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Switchboard demo agent' }).first().waitFor({ timeout: 20_000 });
  t.expect(true, 'the Demo agent answers the first prompt');

  // back to the walkthrough: the step is done
  await page.locator('.tab', { hasText: /^(Welcome|Walkthrough)/ }).first().click();
  // the step's checkbox icon turns into the "checked" theme icon
  const done = steps.filter({ hasText: 'Send a first prompt' }).locator('.codicon-getting-started-step-checked');
  await done.first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the "Send a first prompt" step is marked done');
  await t.screenshot('walkthrough');
}
