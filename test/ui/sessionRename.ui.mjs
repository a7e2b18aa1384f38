// @ts-check
// Rename Session, with an agent that advertises session/set_title: from the chat header (a click on the title)
// and from the Sessions view (its context menu, then F2). Each title shows in the tab, the header, Switch
// Session and the Sessions view, and the agent has it (the '/title' prompt answers with the title it keeps).
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { activeTab, answerRename, contextMenu, row, sessionsView } from './organizeSteps.mjs';

export const name = 'sessionRename';
export const sharedWindow = true;
export const timeout = 180_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-organize', 'Scripted organize', 'organize')],
};

/**
 * The title shows in the header, the tab, Switch Session and the Sessions view, and the agent keeps it.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} title
 * @param {string} shot
 */
async function shownEverywhere(t, chat, title, shot) {
  await chat.locator('[data-testid="session-title"]', { hasText: title }).waitFor({ timeout: 15_000 });
  t.expect(true, `the header shows "${title}"`);
  await t.page.locator('.tabs-container .tab', { hasText: `${title} · Scripted organize` }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'so does the tab');
  const view = await sessionsView(t);
  await row(view, title).waitFor({ timeout: 15_000 });
  t.expect(true, 'and the Sessions view');
  // the chat may take the keyboard back a moment after the rename and close the picker: runCommand opens it again
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: t.page.locator('.quick-input-list .monaco-list-row', { hasText: title }) });
  t.expect(true, 'and Switch Session');
  await t.screenshot(shot);
  await t.page.keyboard.press('Escape');
  await chat.locator('[data-testid="composer-input"]').click();
  await sendPrompt(t, chat, '/title');
  await chat.locator('[data-testid="agent-message"]', { hasText: `The agent's title: ${title}` }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the agent received the title (session/set_title)');
  await idle(chat);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const chat = await openSession(t, 'Scripted organize');
  await sendPrompt(t, chat, 'Draft the release notes');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Answer 1' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  const title = chat.locator('[data-testid="session-title"]');
  t.expect((await title.getAttribute('title'))?.includes('F2'), 'the title\'s tooltip says it renames (F2)');

  // from the header: a click on the title
  await title.click();
  await answerRename(t, 'Draft the release notes', 'Release notes, header');
  await shownEverywhere(t, chat, 'Release notes, header', 'sessionRename-header');

  // from the Sessions view: its context menu
  const view = await sessionsView(t);
  await contextMenu(t, row(view, 'Release notes, header'), 'Rename Session…');
  await answerRename(t, 'Release notes, header', 'Release notes, view');
  await shownEverywhere(t, chat, 'Release notes, view', 'sessionRename-view');

  // and F2 on the selected row. A click selects the row and opens its session, whose chat takes the keyboard a
  // moment later; the user then goes back to the list. (Arrow keys move the list's focus but not its selection,
  // and the extension API sees only the selection.)
  await sessionsView(t);
  await row(view, 'Release notes, view').click();
  await activeTab(t, 'Release notes, view');
  const list = view.locator('.monaco-list').first();
  const listHasKeyboard = () => list.evaluate((l) => l.contains(document.activeElement));
  for (let steady = 0, i = 0; steady < 2 && i < 20; i++) {
    if (await listHasKeyboard()) steady++; else { steady = 0; await list.focus(); }
    await t.page.waitForTimeout(400);
  }
  await view.locator('.monaco-list-row.selected', { hasText: 'Release notes, view' }).waitFor({ timeout: 10_000 });
  await t.page.keyboard.press('F2');
  await answerRename(t, 'Release notes, view', 'Release notes, F2');
  await row(view, 'Release notes, F2').waitFor({ timeout: 15_000 });
  await activeTab(t, 'Release notes, F2');
  await chat.locator('[data-testid="session-title"]', { hasText: 'Release notes, F2' }).waitFor({ timeout: 15_000 });
  t.expect(true, 'F2 in the Sessions view renames the selected session');
  await t.screenshot('sessionRename-f2');
}
