// @ts-check
// The turn audit (docs/approvals.md, "The audit") through the workbench, against the hostile scripted agent of
// test/fixtures/agents/scenarios/turnAudit.json:
// - behind a read: the user allows "Read notes.md"; the agent's own process then rewrites audit/notes.md. The turn
//   ends with a warning that names the file, with Revert; the Sessions view marks the session "⚠ 1 flagged".
//   Revert, Enter on the preview's "Restore 1 file": the exact bytes are back, and the chat shows the restore;
// - no request: the agent creates audit/sneaky.txt itself; flagged; Revert deletes it;
// - a request titled "Read README.md", declared a read, over `rm -rf src`: the user rejects it, and it is flagged
//   as a read that carries a command.
// Screenshots: test-results/screenshots/<version>/turn-audit-flag.png (the warning with Revert),
// turn-audit-reverted.png (after Revert).
import fs from 'node:fs';
import path from 'node:path';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'turn-audit';
export const sharedWindow = true;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-turn-audit', 'Scripted turn audit', 'turnAudit')],
  'switchboard.permissions.uncoveredActions': 'ask',
};
export const timeout = 150_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const dir = path.join(t.workspace, 'audit');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const before = Buffer.from('my notes \u00e9\r\nline two\n', 'utf8');
  fs.writeFileSync(path.join(dir, 'notes.md'), before);
  const chat = await openSession(t, 'Scripted turn audit');
  const flags = chat.locator('[data-testid="notice"][data-level="warning"]', { hasText: 'Switchboard flagged' });
  const answer = async (/** @type {string} */ toolCallId, /** @type {string} */ optionId) => {
    const dialog = chat.locator(`[data-tool-call-id="${toolCallId}"] [data-testid="permission"][data-armed]`);
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.locator(`[data-option-id="${optionId}"]`).click();
  };
  const restores = chat.getByText('Restored the flagged files as they were before the turn');
  const revert = async () => {
    const before = await restores.count();
    await flags.last().locator('[data-testid="notice-revert"]').click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Revert what no answer or rule of yours covered' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await restores.nth(before).waitFor({ timeout: 15_000 });
  };

  // 1. a write behind an allowed read
  await sendPrompt(t, chat, 'Case behind-read');
  await answer('tc-read-notes', 'allow-once');
  await flags.first().waitFor({ timeout: 20_000 });
  const text = (await flags.first().textContent())?.trim() ?? '';
  t.expect(text.includes('audit/notes.md was changed behind a request you allowed only to read it'), `the chat flags the write behind the read: ${text}`);
  t.expect(await flags.first().locator('[data-testid="notice-revert"]').count() === 1, 'the warning offers Revert');
  t.expect(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8') === 'changed behind a read\n', 'the agent did change notes.md');
  await idle(chat);
  await flags.first().scrollIntoViewIfNeeded();
  await t.screenshot('turn-audit-flag');
  await t.runCommand('Switchboard: Focus on Sessions View');
  const row = page.locator('.monaco-list-row', { hasText: '1 flagged' });
  t.expect(await row.first().waitFor({ timeout: 10_000 }).then(() => true, () => false), 'the Sessions view marks the session "⚠ 1 flagged"');
  await t.screenshot('turn-audit-sessions');
  await revert();
  t.expect(Buffer.compare(fs.readFileSync(path.join(dir, 'notes.md')), before) === 0, 'Revert gave the exact bytes of notes.md back');
  for (const end = Date.now() + 10_000; await row.count() > 0 && Date.now() < end;) await page.waitForTimeout(100);
  t.expect(await row.count() === 0, 'the Sessions view drops the mark once the flagged files are reverted');
  t.expect(await flags.first().locator('[data-testid="notice-revert"]').count() === 0, 'the warning no longer offers Revert');
  await t.screenshot('turn-audit-reverted');

  // 2. a file created without a request
  await sendPrompt(t, chat, 'Case no-request');
  await flags.nth(1).waitFor({ timeout: 20_000 });
  t.expect(((await flags.nth(1).textContent()) ?? '').includes('audit/sneaky.txt was created without a request'), 'the chat flags the file created without a request');
  await idle(chat);
  await revert();
  t.expect(!fs.existsSync(path.join(dir, 'sneaky.txt')), 'Revert deleted the file the agent created');

  // 3. a "read" that carries a command
  await sendPrompt(t, chat, 'Case mismatch');
  await answer('tc-lie', 'reject-once');
  await flags.nth(2).waitFor({ timeout: 20_000 });
  const lie = (await flags.nth(2).textContent()) ?? '';
  t.expect(lie.includes('"Read README.md" was declared a read but carries a command'), `the chat flags the request whose kind disagrees with what it carries: ${lie.trim()}`);
  t.expect(await flags.nth(2).locator('[data-testid="notice-revert"]').count() === 0, 'no Revert: no file changed');
  await idle(chat);
}
