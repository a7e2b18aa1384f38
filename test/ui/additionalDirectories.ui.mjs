// @ts-check
// A session in a two-folder workspace: the agent advertises sessionCapabilities.additionalDirectories and
// receives the second folder as `additionalDirectories` on session/new; the chat header's agent name shows
// both folders in its tooltip, and Switch Session lists them under the session.
// Screenshot: test-results/screenshots/<version>/additionalDirectories-switch.png
import fs from 'node:fs';
import path from 'node:path';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'additionalDirectories';
export const timeout = 150_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('roots-echo', 'Roots echo', 'rootsEcho')],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const second = path.join(path.dirname(t.workspace), 'second-folder');
  fs.mkdirSync(second, { recursive: true });
  fs.writeFileSync(path.join(second, 'README.md'), '# The second folder\n');
  const workspaceFile = path.join(path.dirname(t.workspace), 'two-folders.code-workspace');
  // folders relative to the workspace file: they resolve against its own (remote) URI on every version
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: path.basename(t.workspace) }, { path: 'second-folder' }] }));
  // the same page (its payload loads the extension under test), opened on the workspace instead of the folder
  const url = new URL(page.url());
  url.searchParams.delete('folder');
  url.searchParams.set('workspace', workspaceFile);
  await page.goto(url.toString());
  const secondFolder = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'second-folder' }).first();
  // code-server 4.100 sometimes opens a workspace navigated to from a folder with no folders at first (the
  // explorer says "No folder opened"); a reload, as a person would do, shows them
  if (!(await secondFolder.waitFor({ timeout: 15_000 }).then(() => true, () => false))) {
    t.log('the workspace showed no folders: reloading once');
    await page.reload();
  }
  await secondFolder.waitFor({ timeout: 30_000 });
  t.expect(true, 'the workspace has two folders');

  const chat = await openSession(t, 'Roots echo');
  await sendPrompt(t, chat, 'which roots?');
  const answer = chat.locator('[data-testid="agent-message"]', { hasText: 'roots:' }).first();
  await answer.waitFor({ timeout: 20_000 });
  await idle(chat);
  const text = (await answer.innerText()).trim();
  t.expect(text === `roots: ${JSON.stringify([second])}`, `the agent received the second folder as additionalDirectories: ${text}`);

  const tooltip = await chat.locator('[data-testid="session-agent"]').getAttribute('title');
  t.expect(!!tooltip && tooltip.includes(t.workspace) && tooltip.includes(second), `the header's tooltip lists both folders: ${tooltip}`);

  // the session's status bar item opens Switch Session (also while the chat's webview has the focus)
  await page.locator('.statusbar-item', { hasText: 'Roots echo' }).first().click();
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'which roots' }).first();
  await row.waitFor({ timeout: 15_000 });
  const rowText = await row.innerText();
  t.expect(rowText.includes(`${t.workspace} + ${second}`), `Switch Session shows the session's folders: ${rowText.replace(/\n/g, ' | ')}`);
  await t.screenshot('additionalDirectories-switch');
  await page.keyboard.press('Escape');
}
