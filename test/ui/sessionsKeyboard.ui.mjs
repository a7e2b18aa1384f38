// @ts-check
// The Sessions view by keyboard (issue 26): the arrow keys move the focus, not the selection; F2 renames the
// focused row, Delete archives it, Space opens its session and leaves the keyboard in the view (the Enter key
// and a click move it into the chat). The workbench's list commands find the focused row
// (src/workbench/sessions/sessionsTreeFocus.ts).
// Screenshots: test-results/screenshots/<version>/sessionsKeyboard-*.png
import { openSession, scriptedAgent } from './scriptedSession.mjs';
import { answerRename, row, sessionsView } from './organizeSteps.mjs';

export const name = 'sessionsKeyboard';
export const sharedWindow = true;
export const timeout = 120_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-edges', 'Scripted edges', 'sessionEdges')],
};

/**
 * Gives the Sessions view's list the keyboard (again, if a chat took it back) until it keeps it.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {import('playwright-core').Locator} list
 */
async function keyboardInList(t, list) {
  for (let steady = 0, i = 0; steady < 2 && i < 25; i++) {
    if (await list.evaluate((l) => l.contains(document.activeElement))) steady++; else { steady = 0; await list.focus(); }
    await t.page.waitForTimeout(300);
  }
}

/**
 * Moves the list's focus with the arrow keys (from the first row) to the row of `title`; checks it is not selected.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {import('playwright-core').Locator} view @param {string} title
 */
async function arrowTo(t, view, title) {
  const list = view.locator('.monaco-list').first();
  await keyboardInList(t, list);
  await t.page.keyboard.press('Home');
  for (let i = 0; i < 12; i++) {
    const focused = await view.locator('.monaco-list-row.focused').first().innerText({ timeout: 2000 }).catch(() => '');
    if (focused.includes(title)) {
      t.expect(await view.locator('.monaco-list-row.selected', { hasText: title }).count() === 0, `the arrow keys focused "${title}" without selecting it`);
      return;
    }
    await t.page.keyboard.press('ArrowDown');
  }
  throw new Error(`the arrow keys never reached the row "${title}"`);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  // an open session (the agent then lists its three stored sessions)
  await openSession(t, 'Scripted edges');
  const view = await sessionsView(t);
  for (const title of ['Review the release plan', 'Tidy the changelog', 'Sketch the API']) await row(view, title).waitFor({ timeout: 20_000 });
  await arrowTo(t, view, 'Tidy the changelog');
  await page.keyboard.press('F2');
  await answerRename(t, 'Tidy the changelog', 'Changelog tidied');
  await row(view, 'Changelog tidied').waitFor({ timeout: 15_000 });
  t.expect(true, 'F2 renamed the focused row');

  await arrowTo(t, view, 'Sketch the API');
  await page.keyboard.press('Delete');
  await row(view, 'Sketch the API').waitFor({ state: 'detached', timeout: 15_000 });
  t.expect(await row(view, 'Changelog tidied').count() === 1 && await row(view, 'Review the release plan').count() === 1, 'Delete archived the focused row, and only it');
  await t.screenshot('sessionsKeyboard-archive');

  await arrowTo(t, view, 'Review the release plan');
  await page.keyboard.press('Space');
  const opened = await t.webviewByTitle('Review the release plan · Scripted edges', { timeoutMs: 30_000 });
  await opened.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  const list = view.locator('.monaco-list').first();
  // the new chat settles for a moment (it would take the keyboard if it had been given it)
  let stayed = true;
  for (const start = Date.now(); stayed && Date.now() - start < 3000; await page.waitForTimeout(200)) {
    stayed = await list.evaluate((l) => l.contains(document.activeElement));
  }
  t.expect(stayed, 'Space opened the session and the keyboard stayed in the Sessions view');
  await page.locator('.tabs-container .tab', { hasText: 'Review the release plan' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('ArrowUp');
  await view.locator('.monaco-list-row.focused').filter({ hasNotText: 'Review the release plan' }).first().waitFor({ timeout: 5000 });
  t.expect(true, 'the arrow keys go on moving in the view');
  await t.screenshot('sessionsKeyboard-space');
}
