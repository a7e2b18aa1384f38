// @ts-check
// A person's path through Follow Agent: New Session with the Demo agent → click "Follow" in the chat header
// (a toggle button, aria-pressed) → send a prompt → the README the agent reads opens as a preview tab beside
// the chat, while the typing focus stays in the chat's input; the status bar shows "Following". Then the
// toggle is turned off from the keyboard. Screenshots: test-results/screenshots/<version>/follow-*.png
import { openDemoSession } from './scriptedSession.mjs';

export const name = 'follow';
export const sharedWindow = true;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const { chat, input } = await openDemoSession(t);

  // the toggle in the header
  const toggle = chat.locator('[data-testid="follow-toggle"]');
  await toggle.waitFor({ timeout: 10_000 });
  t.expect(await toggle.getAttribute('aria-pressed') === 'false', 'Follow starts off (aria-pressed="false")');
  await toggle.click();
  await chat.locator('[data-testid="follow-toggle"][aria-pressed="true"]').waitFor({ timeout: 10_000 });
  t.expect(true, 'clicking Follow turns it on (aria-pressed="true")');
  await page.locator('.statusbar-item', { hasText: 'Following' }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the status bar shows "Following"');

  // the agent reads README.md: it opens as a preview beside the chat, and the chat keeps the typing focus
  await input.click();
  await page.keyboard.type('hello');
  await page.keyboard.press('Enter');
  const tab = page.locator('.tabs-container .tab', { hasText: 'README.md' });
  await tab.first().waitFor({ timeout: 30_000 });
  t.expect(true, 'README.md opened in an editor tab');
  t.expect(await page.locator('.tabs-container .tab.preview', { hasText: 'README.md' }).count() >= 1 || await tab.first().locator('.italic').count() >= 1,
    'it opened as a preview (italic tab)');
  await page.locator('.monaco-editor .view-line', { hasText: 'Sample project' }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the README is shown in an editor');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  const chatTabs = page.locator('.tabs-container .tab.active', { hasText: /Hello · Demo agent|Demo agent · \d\d:/ });
  t.expect(await chatTabs.count() >= 1, 'the chat is still the active tab of its group (not replaced)');
  const focused = await chat.locator(':focus').getAttribute('data-testid').catch(() => null);
  t.expect(focused === 'composer-input', `the chat input kept the focus (focused: ${focused})`);
  await t.screenshot('follow-on');

  // off again, from the keyboard: the button keeps the focus and reports the new state
  await toggle.focus();
  await page.keyboard.press('Space');
  await chat.locator('[data-testid="follow-toggle"][aria-pressed="false"]').waitFor({ timeout: 10_000 });
  t.expect(await chat.locator(':focus').getAttribute('data-testid') === 'follow-toggle', 'the toggle keeps the keyboard focus after it re-rendered');
  await page.locator('.statusbar-item', { hasText: /Follow$/ }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the status bar shows Follow is off');
  await t.screenshot('follow-off');
}
