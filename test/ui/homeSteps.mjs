// @ts-check
// Shared by the UI modules about the sessions' home (sessionHome, sessionPresets): notifications with a button,
// the Sessions view's badge, a row's inline action, the active tab.

/**
 * Clicks `button` of the notification that says `text`: its toast, or else its entry in the notification center.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string | RegExp} text
 * @param {string} button
 */
export async function clickNotificationButton(t, text, button) {
  await t.notification(text, { timeoutMs: 30_000 });
  const { page } = t;
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  if (await toast.isVisible().catch(() => false)) {
    await toast.locator('.monaco-button', { hasText: button }).first().click();
    return;
  }
  const center = page.locator('.notifications-center');
  if (!(await center.isVisible())) await page.locator('[id="status.notifications"]').click();
  const item = center.locator('.notification-list-item', { hasText: text }).first();
  await item.waitFor({ timeout: 10_000 });
  await item.hover();
  await item.locator('.monaco-button', { hasText: button }).first().click();
  if (await center.isVisible()) await page.locator('[id="status.notifications"]').click().catch(() => {});
}

/**
 * The number on the Switchboard activity bar item's badge ('' when it has none).
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function switchboardBadge(t) {
  const item = t.page.locator('.part.activitybar .action-item', { has: t.page.locator('.action-label[aria-label^="Switchboard"]') }).first();
  const badge = item.locator('.badge .badge-content');
  if (!(await badge.count()) || !(await badge.first().isVisible())) return '';
  return ((await badge.first().textContent()) ?? '').trim();
}

/**
 * Clicks the inline action `label` of a tree row (it shows on hover).
 * @param {import('playwright-core').Locator} row
 * @param {string} label
 */
export async function rowAction(row, label) {
  await row.hover();
  const action = row.locator(`.actions .action-label[aria-label^="${label}"]`).first();
  await action.waitFor({ timeout: 10_000 });
  await action.click();
}

/**
 * Clicks a tree row and waits until its session's chat is the active tab. A row the list re-renders under the
 * pointer (a sibling's changed files arriving) can take the click: it is clicked again (3 tries).
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').Locator} rowLocator
 * @param {string} title
 */
export async function openRow(t, rowLocator, title) {
  for (let attempt = 1; ; attempt++) {
    await rowLocator.click();
    const opened = await t.page.locator('.tabs-container .tab.active', { hasText: title }).first().waitFor({ timeout: 7_000 }).then(() => true, () => false);
    if (opened) return;
    if (attempt === 3) throw new Error(`clicking the row "${title}" did not open its chat in 3 tries`);
  }
}

/**
 * Waits until the active tab's label contains `title`.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string | RegExp} title
 */
export function activeTabWith(t, title) {
  return t.page.locator('.tabs-container .tab.active', { hasText: title }).first().waitFor({ timeout: 20_000 });
}

/**
 * Shows the Switchboard container by its activity bar item (not through the palette: the focus leaves the chat,
 * whose running turn an Escape could stop) and resolves with its Sessions view.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function showSessionsView(t) {
  const { page } = t;
  const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Sessions/i }) }).first();
  // the item, not its label: the badge (sessions waiting) sits over the label and takes the click
  const item = page.locator('.part.activitybar .action-item', { has: page.locator('.action-label[aria-label^="Switchboard"]') }).first();
  if (!(await view.isVisible().catch(() => false))) await item.click();
  await view.waitFor({ timeout: 15_000 });
  return view;
}

/**
 * Takes the keyboard away from the chat on screen, so that the Escape the command palette begins with reaches
 * the workbench and not the composer, where it would stop the running turn.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function leaveChat(t) {
  await t.page.evaluate(() => { if (document.activeElement instanceof HTMLElement) document.activeElement.blur(); });
}
