// @ts-check
// Checkpoints in the real workbench (docs/checkpoints.md): a scripted agent changes files
// through the client, on disk from its own process and in terminals, over three turns; each turn ends with
// "Changed in this turn". Restore Checkpoint on the second message shows a preview (the files that will
// change, Open Diff on one), then restores: the files are as before that turn and the later entries are
// marked "after restored checkpoint". Undo Restore puts them back; Undo This Turn reverts the third turn.
// Edit & Resend on the first message restores its checkpoint and sends the edited text in a new session,
// which says so. Screenshots: checkpoints-turn, -preview, -restored (and -restored-{light,dark,high-contrast}),
// -undoTurn, -editResend.
import fs from 'node:fs';
import path from 'node:path';
import { inEachTheme } from './colorThemes.mjs';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'checkpoints';
export const sharedWindow = true;
const agent = scriptedAgent('cp-agent', 'Checkpoint agent', 'checkpoints');
export const settings = { 'switchboard.agents': [{ ...agent, env: { ...agent.env, CP: 'cp' } }] };
export const timeout = 300_000;
export const files = { 'cp/main.txt': 'a: as it was\n', 'cp/src/b.ts': 'export const b = 1;\n', 'cp/old.txt': 'old\n', 'cp/c.txt': 'c\n' };

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const file = (/** @type {string} */ rel) => path.join(t.workspace, 'cp', rel);
  const read = (/** @type {string} */ rel) => (fs.existsSync(file(rel)) ? fs.readFileSync(file(rel), 'utf8') : undefined);
  const chat = await openSession(t, 'Checkpoint agent');
  const users = chat.locator('[data-testid="user-message"]');
  const entries = chat.locator('[data-testid="changes-entry"]');
  const turn = (/** @type {number} */ i) => entries.filter({ has: chat.locator('[data-role="turn"]') }).nth(i);
  const quickPick = page.locator('.quick-input-widget');
  const pickRow = (/** @type {string} */ text) => quickPick.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();

  for (const [i, prompt] of ['/t1', '/t2', '/t3'].entries()) {
    await sendPrompt(t, chat, prompt);
    await chat.locator('[data-testid="agent-message"]', { hasText: `Turn ${i + 1} done.` }).waitFor({ timeout: 30_000 });
    await idle(chat);
    await chat.locator('[data-testid="changes-entry"][data-role="turn"]').nth(i).waitFor({ timeout: 20_000 });
  }
  const turns = chat.locator('[data-testid="changes-entry"][data-role="turn"]');
  t.expect(await turns.count() === 3, 'each turn ended with "Changed in this turn"');
  const first = (await turns.nth(0).locator('[data-testid="changes-summary"]').innerText()).replace(/\s+/g, ' ');
  t.expect(first.startsWith('Changed in this turn: 5 files'), `turn 1 changed 5 files, whichever way (${first})`);
  await turns.nth(0).locator('[data-testid="changes-summary"]').click();
  await turns.nth(0).locator('[data-testid="changes-file"]').first().waitFor({ timeout: 5_000 });
  const listed = await turns.nth(0).locator('[data-testid="changes-file"]').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-change')} ${r.querySelector('.changed-file-name')?.textContent}`).sort());
  t.expect(JSON.stringify(listed) === JSON.stringify(['created data.bin', 'created n1.md', 'created term.txt', 'deleted old.txt', 'modified main.txt']), `the turn's files: through the client, on disk, in a terminal (${listed.join(', ')})`);
  t.expect(await users.nth(1).getAttribute('data-checkpoint') === 'true', 'a message with a checkpoint before it is marked so');
  await users.nth(0).hover();
  await t.screenshot('checkpoints-turn');

  // Restore Checkpoint on the second message: the preview first
  await users.nth(1).hover();
  await users.nth(1).locator('[data-testid="message-restore"]').click();
  await pickRow('Restore').waitFor({ timeout: 20_000 });
  const title = await quickPick.locator('.quick-input-title').innerText().catch(() => '');
  t.expect(title.includes('the checkpoint before "/t2"'), `the preview names the checkpoint (${title})`);
  t.expect(await pickRow('renamed.ts').isVisible() && await pickRow('x.txt').isVisible() && await pickRow('c.txt').isVisible(), 'the preview lists the files that will change');
  t.expect((await pickRow('x.txt').innerText()).includes('deleted by the restore') && (await pickRow('c.txt').innerText()).includes('created by the restore'), 'it says which are created and deleted');
  await pickRow('main.txt').hover();
  await pickRow('main.txt').locator('.action-label.codicon-diff').click();
  await page.locator('.tabs-container .tab', { hasText: 'main.txt (now ↔ after the restore)' }).first().waitFor({ timeout: 20_000 });
  t.expect(await quickPick.isVisible(), 'Open Diff keeps the preview open');
  await t.screenshot('checkpoints-preview');
  t.expect(read('x.txt') === 'x\n', 'nothing changed during the preview');
  await pickRow('Restore').click();
  await chat.locator('[data-testid="changes-entry"][data-role="restore"]').first().waitFor({ timeout: 20_000 });
  t.expect(read('main.txt') === 'a: changed by turn 1\n' && read('src/b.ts') === 'export const b = 1;\n' && read('src/renamed.ts') === undefined && read('c.txt') === 'c\n' && read('x.txt') === undefined && read('notes/n1.md') === '# n1\n',
    'the files are as before the second turn: renamed back, deleted ones back, later ones gone');
  await chat.locator('[data-testid="after-restore"]').first().waitFor({ timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="after-restore"]').count() === 2 && await users.nth(1).locator('[data-testid="after-restore"]').count() === 1 && await users.nth(0).locator('[data-testid="after-restore"]').count() === 0,
    'the second and third messages are marked "after restored checkpoint", not deleted');
  const restoreEntry = chat.locator('[data-testid="changes-entry"][data-role="restore"]').first();
  t.expect((await restoreEntry.innerText()).includes('Restored the checkpoint before "/t2"'), 'the restore is in the transcript');
  await t.screenshot('checkpoints-restored');
  await inEachTheme(t, async (id) => {
    await restoreEntry.hover();
    await t.screenshot(`checkpoints-restored-${id}`);
  });

  // Undo Restore: its own preview, then the files as after the third turn again
  await restoreEntry.locator('[data-testid="changes-undo-restore"]').click();
  await pickRow('Restore').waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  await restoreEntry.locator('[data-testid="changes-undone"]').waitFor({ timeout: 20_000 });
  t.expect(read('x.txt') === 'x\n' && read('src/renamed.ts') === 'export const b = 1;\n' && read('c.txt') === undefined && read('main.txt')?.endsWith('appended in a terminal\n'), 'Undo Restore put back the files as after the third turn');
  await chat.locator('[data-testid="after-restore"]').first().waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(true, 'the marks went with the undone restore');

  // Undo This Turn on the third turn
  await turns.nth(2).locator('[data-testid="changes-undo-turn"]').click();
  await pickRow('Restore').waitFor({ timeout: 20_000 });
  t.expect(await pickRow('x.txt').isVisible() && !(await pickRow('renamed.ts').isVisible()), "the preview lists only the third turn's files");
  await page.keyboard.press('Enter');
  await turns.nth(2).locator('[data-testid="changes-undone"]').waitFor({ timeout: 20_000 });
  t.expect(read('x.txt') === undefined && read('c.txt') === 'c\n' && read('deep/new/file.txt') === undefined && read('main.txt') === 'a: changed by turn 2\r\nwith a CRLF\r\n' && read('src/renamed.ts') === 'export const b = 1;\n',
    "Undo This Turn reverted the third turn's files, exactly, and left the second turn's");
  await turns.nth(2).scrollIntoViewIfNeeded();
  await t.screenshot('checkpoints-undoTurn');

  // Edit & Resend on the first message: restore its checkpoint, then a new session with the edited text
  await users.nth(0).hover();
  await users.nth(0).locator('[data-testid="message-edit"]').click();
  const input = chat.locator('[data-testid="message-edit-input"]');
  await input.waitFor({ timeout: 5_000 });
  t.expect((await chat.locator('[data-testid="message-edit-hint"]').innerText()).includes('new session'), 'an earlier message says it continues in a new session');
  await input.fill('the first message, edited');
  await page.keyboard.press('Enter');
  await pickRow('Restore').waitFor({ timeout: 20_000 });
  t.expect((await quickPick.locator('.quick-input-title').innerText().catch(() => '')).startsWith('Edit & Resend'), 'Edit & Resend shows the same preview');
  await page.keyboard.press('Enter');
  const next = await t.webviewByTitle(/the first message, edited/, { timeoutMs: 40_000 });
  await next.locator('[data-testid="notice"]', { hasText: 'this is a new session' }).waitFor({ timeout: 30_000 });
  t.expect((await next.locator('[data-testid="notice"]').first().innerText()).includes('cannot fork sessions'), 'the new chat says it is a new session, not a fork');
  await next.locator('[data-testid="user-message"]', { hasText: 'the first message, edited' }).waitFor({ timeout: 20_000 });
  await next.locator('[data-testid="agent-message"]').first().waitFor({ timeout: 20_000 });
  t.expect(read('main.txt') === 'a: as it was\n' && read('old.txt') === 'old\n' && read('notes/n1.md') === undefined && read('data.bin') === undefined, 'the files are as before the first message');
  await t.screenshot('checkpoints-editResend');
  // back to the first chat (the new one may have taken its place in the group)
  await page.locator('.tabs-container .tab', { hasText: '/t1 · Checkpoint agent' }).first().click();
  await chat.locator('[data-testid="notice"]', { hasText: 'sent in a new session' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the first chat says where the edited message went');
  t.expect(await users.nth(0).locator('[data-testid="after-restore"]').count() === 1 && await chat.locator('[data-testid="after-restore"]').count() === 3, 'in the first chat, every message is now after the restored checkpoint');
}
