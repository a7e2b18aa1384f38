// @ts-check
// A home for all sessions, with three scripted agents running at once in a git folder: one waits for a
// permission (homeWaiting), one fails (homeFail), one finishes with two file changes while its chat is hidden
// (homeDone). The Sessions view, its badge, the status bar, the tab titles and Switch Session show each one's
// state; Go to Next Session Waiting for You (its key) jumps to the permission; the notification about the hidden
// finished session goes to it; its changed files under it in the view open their diffs, and are kept or undone; a
// search finds a word of the failed session's answer (the view's Search Sessions and Switch Session's "Matches in
// transcript"); group by folder shows the branch; rename, archive (Delete), unarchive; the keyboard opens a row.
// Screenshots: sessionHome-{dark,light}.png (the Sessions view), sessionHome-switch.png, sessionHome-folder.png.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { answerRename, contextMenu, row, titleAction } from './organizeSteps.mjs';
import { colorThemes, resetTheme, switchTheme } from './colorThemes.mjs';
import { activeTabWith, clickNotificationButton, leaveChat, openRow, rowAction, showSessionsView, switchboardBadge } from './homeSteps.mjs';
import { rowTexts } from '../harness/uiTest.mjs';

/** The file that lets the Home done agent finish its turn: outside the workspace (it is no change of the turn). */
const goFile = path.join(os.tmpdir(), `sb-home-go-${process.pid}-${Date.now()}`);

export const name = 'sessionHome';
export const timeout = 420_000;
export const settings = {
  'switchboard.agents': [
    { ...scriptedAgent('home-done', 'Home done', 'homeDone'), env: { SCRIPTED_AGENT_DELAY_SCALE: '0', HOME_GO_FILE: goFile } },
    scriptedAgent('home-fail', 'Home failing', 'homeFail'),
    scriptedAgent('home-wait', 'Home waiting', 'homeWaiting'),
  ],
};
const appBefore = "export const version = '1.0.0';\n";
export const files = { 'src/app.ts': appBefore };

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  fs.rmSync(goFile, { force: true }); // the module runs once per VS Code version
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: t.workspace });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  const statusItem = (/** @type {string | RegExp} */ text) => page.locator('.statusbar-item', { hasText: text }).first();

  // three sessions, each started from New Session and given a prompt; each new chat hides the one before
  const done = await openSession(t, 'Home done');
  await sendPrompt(t, done, 'Write the release notes');
  await done.locator('[data-testid="agent-message"]', { hasText: 'Working on the release.' }).waitFor({ timeout: 20_000 });
  await activeTabWith(t, /\u27F3 Write the release notes/);
  t.expect(true, 'a streaming chat\'s tab is marked ⟳');
  await leaveChat(t);
  const failing = await openSession(t, 'Home failing');
  await sendPrompt(t, failing, 'Check the deployment');
  await failing.locator('[data-testid="notice"]', { hasText: 'model backend is unavailable' }).first().waitFor({ timeout: 20_000 });
  await leaveChat(t);
  const waiting = await openSession(t, 'Home waiting');
  await sendPrompt(t, waiting, 'Migrate the database');
  await waiting.locator('[data-testid="permission"]').waitFor({ timeout: 20_000 });

  const view = await showSessionsView(t);
  await row(view, 'Write the release notes').filter({ hasText: 'streaming' }).waitFor({ timeout: 15_000 });
  t.expect((await row(view, 'Write the release notes').innerText()).includes('step: Write the release notes'), 'the view shows the streaming session\'s plan step');

  // the first one finishes now, behind the others
  fs.writeFileSync(goFile, '');
  await row(view, 'Write the release notes').filter({ hasText: 'finished, unread' }).waitFor({ timeout: 30_000 });
  await row(view, 'Check the deployment').filter({ hasText: 'failed' }).waitFor({ timeout: 15_000 });
  await row(view, 'Migrate the database').filter({ hasText: 'waiting for you (permission)' }).waitFor({ timeout: 15_000 });
  t.expect(true, 'the view shows each state: finished and unread, failed, waiting for you (permission)');
  const rowsText = await rowTexts(view.locator('.monaco-list-row'));
  const at = (/** @type {string} */ s) => rowsText.findIndex((r) => r.includes(s));
  t.expect(at('Migrate the database') < at('Check the deployment') && at('Check the deployment') < at('Write the release notes'), `waiting first, then failed, then unread (${JSON.stringify(rowsText)})`);
  for (let i = 0; i < 40 && await switchboardBadge(t) !== '1'; i++) await page.waitForTimeout(250);
  t.expect(await switchboardBadge(t) === '1', `the activity bar's badge counts the session waiting (got "${await switchboardBadge(t)}")`);
  await statusItem('Home waiting: waiting for you (permission)').waitFor({ timeout: 10_000 });
  await statusItem(/1 waiting/).waitFor({ timeout: 10_000 });
  t.expect(true, 'the status bar shows the active session waiting, and "1 waiting"');
  await page.locator('.tabs-container .tab', { hasText: '\u2016 Migrate the database' }).first().waitFor({ timeout: 10_000 });
  await page.locator('.tabs-container .tab', { hasText: '\u2716 Check the deployment' }).first().waitFor({ timeout: 10_000 });
  await page.locator('.tabs-container .tab', { hasText: '\u25CF Write the release notes' }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the tab titles are marked ‖ waiting, ✖ failed, ● unread');
  for (const theme of colorThemes.filter((c) => c.id !== 'high-contrast')) {
    await switchTheme(t, theme);
    await t.screenshot(`sessionHome-${theme.id}`);
  }
  resetTheme(t);

  // Switch Session: the same states, waiting first
  const pickRows = page.locator('.quick-input-list .monaco-list-row');
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: pickRows.filter({ hasText: 'Write the release notes' }) });
  const picked = await rowTexts(pickRows);
  const p = (/** @type {string} */ s) => picked.findIndex((r) => r.includes(s));
  t.expect(picked[0]?.includes('Waiting for you') && picked[0].includes('Migrate the database'), `the first section is "Waiting for you" (${JSON.stringify(picked.slice(0, 2))})`);
  t.expect(p('Migrate the database') < p('Check the deployment') && p('Check the deployment') < p('Write the release notes'), 'then failed, then unread');
  t.expect(picked[p('Check the deployment')]?.includes('failed for') && picked[p('Write the release notes')]?.includes('finished, unread for'), 'each row says its state and for how long');
  t.expect(await pickRows.filter({ hasText: 'Migrate the database' }).first().locator('.codicon-bell-dot').count() === 1
    && await pickRows.filter({ hasText: 'Check the deployment' }).first().locator('.codicon-error').count() === 1
    && await pickRows.filter({ hasText: 'Write the release notes' }).first().locator('.codicon-circle-filled').count() === 1, 'with the same icons as the view');
  // a word only in the failed session's answer: the second section, filled in after a moment
  await page.keyboard.type('zeppelin');
  // (while the palette filters, VS Code shows no separator labels: the match row is known by its search icon)
  const match = pickRows.filter({ hasText: 'flaky zeppelin pipeline' }).first();
  await match.waitFor({ timeout: 20_000 });
  t.expect((await match.innerText()).includes('Check the deployment') && await match.locator('.codicon-search').count() === 1, 'Switch Session finds the word in the failed session\'s transcript, with a snippet');
  await t.screenshot('sessionHome-switch');
  await page.keyboard.press('Enter');
  await activeTabWith(t, 'Check the deployment');
  await statusItem('Home failing: failed').waitFor({ timeout: 10_000 });
  t.expect(true, 'Enter on the match opened the failed session; the status bar says it failed');

  // Go to Next Session Waiting for You, by its key: the permission, with the focus on its first option
  await page.waitForTimeout(500);
  await page.keyboard.press('Control+Alt+Shift+W');
  await activeTabWith(t, 'Migrate the database');
  const chatWaiting = await t.webviewByTitle(/Migrate the database · Home waiting/);
  await chatWaiting.locator('[data-testid="permission-option"]:focus').waitFor({ timeout: 10_000 });
  // and the keyboard is really there: its document has the focus too (a webview keeps its activeElement when the
  // workbench takes the focus)
  const option = chatWaiting.locator('[data-testid="permission-option"]').first();
  let keyboardThere = false;
  for (let i = 0; i < 40 && !keyboardThere; i++) {
    keyboardThere = await option.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus()).catch(() => false);
    if (!keyboardThere) await page.waitForTimeout(250);
  }
  t.expect(keyboardThere, 'the key jumped to the waiting session, its permission request has the focus');
  // its buttons take a key once the request was on screen for a moment (permissionGuard.ts)
  await chatWaiting.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter'); // the first option: Allow
  await chatWaiting.locator('[data-testid="agent-message"]', { hasText: 'Migration done.' }).waitFor({ timeout: 20_000 });
  await idle(chatWaiting);
  for (let i = 0; i < 40 && await switchboardBadge(t) !== ''; i++) await page.waitForTimeout(250);
  t.expect(await switchboardBadge(t) === '', 'answered: the badge is gone');

  // the notification about the hidden finished session goes to it, which is then read
  await clickNotificationButton(t, /"Write the release notes" \(Home done\) finished/, 'Go To');
  await activeTabWith(t, 'Write the release notes');
  await row(view, 'Write the release notes').filter({ hasText: 'idle' }).waitFor({ timeout: 15_000 });
  t.expect(true, 'Go To opened the finished session; seen, it is idle');

  // its changed files, under it in the view: Open Diff, Keep, Undo
  const fileRow = (/** @type {string} */ f) => view.locator('.monaco-list-row', { hasText: f }).first();
  // the row got its files after it was first drawn: VS Code keeps such a row collapsed, the user opens it
  const doneRow = row(view, 'Write the release notes');
  await doneRow.locator('.monaco-tl-twistie.collapsible').waitFor({ timeout: 20_000 });
  if (await doneRow.getAttribute('aria-expanded') === 'false') await doneRow.locator('.monaco-tl-twistie').click();
  await fileRow('app.ts').waitFor({ timeout: 20_000 });
  t.expect((await fileRow('app.ts').innerText()).includes('+2 \u22121') && (await fileRow('release.md').innerText()).includes('+3 \u22120'), 'the files show their +/− counts');
  await fileRow('app.ts').click();
  await page.locator('.tabs-container .tab', { hasText: "app.ts (agent's change)" }).first().waitFor({ timeout: 20_000 });
  t.expect(true, 'a click opens the file\'s diff');
  await rowAction(fileRow('app.ts'), 'Keep');
  await fileRow('app.ts').waitFor({ state: 'detached', timeout: 15_000 });
  t.expect(fs.readFileSync(path.join(t.workspace, 'src', 'app.ts'), 'utf8').includes("'2.0.0'"), 'Keep leaves the agent\'s version');
  await rowAction(fileRow('release.md'), 'Undo');
  await fileRow('release.md').waitFor({ state: 'detached', timeout: 15_000 });
  for (let i = 0; i < 40 && fs.existsSync(path.join(t.workspace, 'notes', 'release.md')); i++) await page.waitForTimeout(250);
  t.expect(!fs.existsSync(path.join(t.workspace, 'notes', 'release.md')), 'Undo removes the file the agent created');

  // Search Sessions in the view: the failed session's answer
  await titleAction(t, 'Search Sessions…');
  await page.locator('.quick-input-widget', { hasText: 'Search Sessions' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.type('Zeppelin');
  await view.getByText(/1 session match/).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  t.expect(await row(view, 'Check the deployment').isVisible() && await row(view, 'Migrate the database').count() === 0, 'the view shows only the session whose transcript has the word');
  t.expect((await row(view, 'Check the deployment').innerText()).includes('zeppelin'), 'with the snippet');
  await titleAction(t, 'Clear Session Search');
  await row(view, 'Migrate the database').waitFor({ timeout: 15_000 });

  // grouped by folder: the workspace folder with its branch and uncommitted changes
  await titleAction(t, 'Group Sessions by Folder');
  const folderRow = view.locator('.monaco-list-row', { hasText: path.basename(t.workspace) }).first();
  await folderRow.filter({ hasText: /main, \d+ uncommitted/ }).waitFor({ timeout: 20_000 });
  t.expect(true, `a folder group shows the branch and the uncommitted changes (${await folderRow.innerText()})`);
  await t.screenshot('sessionHome-folder');
  await titleAction(t, 'Group Sessions by Agent');
  await view.locator('.monaco-list-row', { hasText: 'Home failing' }).first().waitFor({ timeout: 15_000 });

  // rename, archive with Delete, unarchive; Enter opens a row
  // a click opens the session, whose chat takes the keyboard a moment later (and would close the input box):
  // let it, then go back to the view's list
  await openRow(t, row(view, 'Check the deployment'), 'Check the deployment');
  await page.waitForTimeout(1500);
  await view.locator('.monaco-list').first().focus();
  await contextMenu(t, row(view, 'Check the deployment'), 'Rename Session…');
  await answerRename(t, 'Check the deployment', 'Pipeline check');
  await row(view, 'Pipeline check').waitFor({ timeout: 15_000 });
  await row(view, 'Pipeline check').click({ button: 'right' });
  await page.keyboard.press('Escape'); // the menu closes; the row keeps the keyboard focus
  await page.keyboard.press('Delete');
  await row(view, 'Pipeline check').waitFor({ state: 'detached', timeout: 15_000 });
  t.expect(true, 'Delete archived the selected session (its row and chat are gone)');
  await titleAction(t, 'Show Archived Sessions');
  await row(view, 'Pipeline check').filter({ hasText: 'archived' }).waitFor({ timeout: 15_000 });
  await contextMenu(t, row(view, 'Pipeline check'), 'Unarchive Session');
  await row(view, /Pipeline check/).filter({ hasNotText: 'archived' }).waitFor({ timeout: 15_000 });
  await titleAction(t, 'Hide Archived Sessions');
  await row(view, 'Pipeline check').waitFor({ timeout: 15_000 });
  t.expect(true, 'unarchived, it is back');
  await row(view, 'Migrate the database').click({ button: 'right' });
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await activeTabWith(t, 'Migrate the database');
  t.expect(true, 'Enter on a row opens its session');
}
