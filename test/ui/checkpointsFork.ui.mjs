// @ts-check
// Edit & Resend of an earlier message with an agent that can fork (session/fork, scenario checkpointsFork.json):
// the edit box says it goes on in a fork; after the preview the files are back to before that message, a fork
// of the session opens with the transcript so far and says it is a fork, and the agent gets the edited message
// after a note that the conversation goes back to that message. The first chat says where the message went.
// (The path without fork is in checkpoints.ui.mjs.) Screenshot: checkpointsFork-fork.
import fs from 'node:fs';
import path from 'node:path';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'checkpointsFork';
export const sharedWindow = true;
const agent = scriptedAgent('cpf-agent', 'Forking checkpoint agent', 'checkpointsFork');
export const settings = { 'switchboard.agents': [{ ...agent, env: { ...agent.env, CP: 'cp' } }] };
export const timeout = 240_000;
export const files = { 'cp/main.txt': 'a: as it was\n', 'cp/src/b.ts': 'export const b = 1;\n', 'cp/old.txt': 'old\n', 'cp/c.txt': 'c\n' };

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const read = (/** @type {string} */ rel) => {
    const file = path.join(t.workspace, 'cp', rel);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  };
  const chat = await openSession(t, 'Forking checkpoint agent');
  for (const [i, prompt] of ['/t1', '/t2'].entries()) {
    await sendPrompt(t, chat, prompt);
    await chat.locator('[data-testid="agent-message"]', { hasText: `Turn ${i + 1} done.` }).waitFor({ timeout: 30_000 });
    await idle(chat);
    await chat.locator('[data-testid="changes-entry"][data-role="turn"]').nth(i).waitFor({ timeout: 20_000 });
  }
  t.expect(read('main.txt') === 'a: changed by turn 2\r\nwith a CRLF\r\n', 'two turns changed the files');

  // Edit & Resend on the first message, from the keyboard once its toolbar has the focus
  const users = chat.locator('[data-testid="user-message"]');
  await users.nth(0).hover();
  await users.nth(0).locator('[data-testid="message-edit"]').click();
  const input = chat.locator('[data-testid="message-edit-input"]');
  await input.waitFor({ timeout: 5_000 });
  const hint = await chat.locator('[data-testid="message-edit-hint"]').innerText();
  t.expect(hint.includes('a fork of this session'), `the edit box says it goes on in a fork (${hint})`);
  await input.fill('the first message, edited');
  await page.keyboard.press('Enter');
  const quickPick = page.locator('.quick-input-widget');
  await quickPick.locator('.quick-input-list .monaco-list-row', { hasText: 'Restore' }).first().waitFor({ timeout: 20_000 });
  t.expect((await quickPick.locator('.quick-input-title').innerText().catch(() => '')).startsWith('Edit & Resend'), 'the preview comes first');
  await page.keyboard.press('Enter');

  const fork = await t.webviewByTitle(/\(fork\)/, { timeoutMs: 40_000 });
  await fork.locator('[data-testid="notice"]', { hasText: 'this session is a fork' }).waitFor({ timeout: 30_000 });
  t.expect(true, 'the new chat says it is a fork of the session');
  t.expect(await fork.locator('[data-testid="user-message"]', { hasText: '/t1' }).count() === 1, 'the fork shows the transcript so far');
  const answer = fork.locator('[data-testid="agent-message"]', { hasText: 'the first message, edited' });
  await answer.waitFor({ timeout: 30_000 });
  const said = await answer.innerText();
  t.expect(said.includes('going back to my message 1'), 'the agent is told the conversation goes back to that message');
  t.expect(read('main.txt') === 'a: as it was\n' && read('old.txt') === 'old\n' && read('notes/n1.md') === undefined, 'the files are as before the first message');
  await t.screenshot('checkpointsFork-fork');

  await page.locator('.tabs-container .tab', { hasText: '/t1 · Forking checkpoint agent' }).first().click();
  await chat.locator('[data-testid="notice"]', { hasText: 'sent in a fork of this session' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the first chat says the edited message went to a fork');
}
