// @ts-check
// Shared by the UI modules about organizing sessions (sessionFork, sessionRename, sessionArchive,
// sessionOrganizeLocal): the Sessions view, its rows and their context menu, the Rename input box.

/**
 * Shows the Switchboard container and resolves with its Sessions view.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function sessionsView(t) {
  await t.runCommand('View: Show Switchboard');
  const view = t.page.locator('.pane', { has: t.page.locator('.pane-header', { hasText: /Sessions/i }) }).first();
  await view.waitFor({ timeout: 15_000 });
  return view;
}

/**
 * The Sessions view's row of a session, by its title.
 * @param {import('playwright-core').Locator} view
 * @param {string | RegExp} title
 */
export function row(view, title) {
  return view.locator('.monaco-list-row', { hasText: title }).first();
}

/**
 * Right-clicks a row and runs an item of its context menu, from the keyboard (Down until the item has the focus,
 * then Enter): a mouse click right after the menu opened was sometimes not taken.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').Locator} target
 * @param {string} item the menu item's label
 */
export async function contextMenu(t, target, item) {
  await target.click({ button: 'right' });
  const menu = t.page.locator('.monaco-menu');
  await menu.locator('.action-item', { hasText: item }).first().waitFor({ timeout: 10_000 });
  for (let i = 0; i < 20; i++) {
    await t.page.keyboard.press('ArrowDown');
    const focused = (await menu.locator('.action-item.focused').first().innerText({ timeout: 2_000 }).catch(() => '')).trim();
    if (focused === item) {
      await t.page.keyboard.press('Enter');
      await menu.first().waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    }
  }
  throw new Error(`the context menu has no item "${item}" to reach from the keyboard`);
}

/**
 * Clicks an action of the view's title bar (or of the side bar's title, where VS Code puts a single view's), by its label.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} label
 */
export async function titleAction(t, label) {
  const action = t.page.locator(`.part.sidebar .action-label[aria-label="${label}"]`).first();
  await action.waitFor({ timeout: 10_000 });
  await action.click();
}

/**
 * Answers the Rename Session input box: checks it opened with `current` selected, types `title`, presses Enter.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} current
 * @param {string} title
 */
export async function answerRename(t, current, title) {
  const input = t.page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15_000 });
  await t.page.locator('.quick-input-widget', { hasText: 'Rename Session' }).first().waitFor({ timeout: 10_000 });
  t.expect(await input.inputValue() === current, `the input box offers the current title "${current}"`);
  await t.page.keyboard.type(title); // the current title is selected: typing replaces it
  await t.page.keyboard.press('Enter');
  await t.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  // the workbench gives the focus back to where it was (the chat's webview) a moment later; a command palette
  // opened before that would lose the focus and close
  await t.page.waitForTimeout(1000);
}

/**
 * The active tab's label is `title`.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} title
 */
export function activeTab(t, title) {
  return t.page.locator('.tabs-container .tab.active', { hasText: title }).first().waitFor({ timeout: 15_000 });
}
