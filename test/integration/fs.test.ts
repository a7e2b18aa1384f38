/**
 * The editor side of fs/read_text_file and fs/write_text_file (dirty buffers, out-of-roots consent, review) in the real
 * extension host, driven by the scripted agent of test/fixtures/agents/scenarios/fsEditor.json: each
 * prompt "/<command> <path>" makes the agent send one request and echo what it got back.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { PathConsentRequest } from '../../src/host/files/pathConsent';
import { applyReviewAction, reviewChanges, undoAllChanges } from '../../src/workbench/review/reviewChanges';
import { api, setSetting, until, useScriptedAgent, workspaceRoot } from './helpers';

/** What the agent got for its last request: `[name] outcome: text`. */
interface Echo {
  readonly outcome: string;
  readonly text: string;
}

describe('files through the editor (fs/*)', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let agentId: string;
  let root: string;
  let sessionId: string;

  before(async () => {
    sb = await api();
    agentId = await useScriptedAgent('fsEditor');
    root = workspaceRoot();
  });
  beforeEach(async () => { sessionId = await sb.newSession(agentId); });
  afterEach(async () => {
    await setSetting('files.outsideRoots', undefined);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => { await sb.stopAll(); });

  /** Sends "/<command> <path>" and returns what the agent echoed. */
  async function ask(command: string, p: string): Promise<Echo> {
    await sb.prompt(sessionId, `/${command} ${p}`);
    const entries = sb.snapshot(sessionId)?.entries ?? [];
    const last = [...entries].reverse().find((e) => e.kind === 'agent');
    const m = last?.kind === 'agent' ? /^\[\w+\] (\w+): ([\s\S]*)\n$/.exec(last.text) : null;
    assert.ok(m, `the agent echoed its result (got ${JSON.stringify(last)})`);
    return { outcome: m[1] ?? '', text: m[2] ?? '' };
  }
  const file = (rel: string, content?: string | Uint8Array) => {
    const p = path.join(root, rel);
    if (content !== undefined) {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
    return p;
  };
  /** Opens a file in an editor and replaces its text without saving. */
  async function openDirty(p: string, text: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    return doc;
  }

  it('advertises fs reads and writes', () => {
    assert.deepEqual((sb.clientCapabilities() as { fs: unknown }).fs, { readTextFile: true, writeTextFile: true });
  });

  it('a read of a file with unsaved edits gets the unsaved text', async () => {
    const p = file('fs-unsaved.txt', 'on disk\n');
    await openDirty(p, 'unsaved text\nline 2\n');
    assert.deepEqual(await ask('read', p), { outcome: 'ok', text: 'unsaved text\nline 2\n' });
    assert.equal(fs.readFileSync(p, 'utf8'), 'on disk\n', 'the read did not save anything');
  });

  it('a deleted file that a closed editor still holds clean is missing to a read, and new to a write', async () => {
    const p = file('fs-deleted.txt', 'old text\n');
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(p);
    const read = await ask('read', p);
    assert.equal(read.outcome, 'error');
    assert.match(read.text, /-32002.*fs-deleted\.txt/);
    // and a write creates it: Review Changes would delete it again, not bring back the old text
    assert.equal((await ask('write', p)).outcome, 'ok');
    assert.equal(fs.readFileSync(p, 'utf8'), 'written by the agent\nsecond line\n');
    const changes = sb.session(sessionId)?.changes.changes ?? [];
    assert.deepEqual(changes.map((c) => [c.uri.fsPath, c.before.kind]), [[p, 'missing']]);
  });

  it('line/limit slices are exact on disk, keeping line endings and a missing last newline', async () => {
    const p = file('fs-window.txt', 'line 1\nline 2\r\nline 3\nline 4\nline 5');
    assert.deepEqual(await ask('window', p), { outcome: 'ok', text: 'line 2\r\nline 3\nline 4\n' });
    assert.deepEqual(await ask('first', p), { outcome: 'ok', text: 'line 1\n' });
    assert.deepEqual(await ask('past', p), { outcome: 'ok', text: '' });
    assert.deepEqual(await ask('tail', p), { outcome: 'ok', text: 'line 4\nline 5' });
    assert.deepEqual(await ask('read', p), { outcome: 'ok', text: 'line 1\nline 2\r\nline 3\nline 4\nline 5' });
  });

  it('line/limit slices are exact in a dirty CRLF editor', async () => {
    const p = file('fs-window-crlf.txt', 'a\r\nb\r\nc\r\nd\r\ne\r\n');
    await openDirty(p, 'a\r\nb\r\nC!\r\nd\r\ne');
    assert.deepEqual(await ask('window', p), { outcome: 'ok', text: 'b\r\nC!\r\nd\r\n' });
    assert.deepEqual(await ask('first', p), { outcome: 'ok', text: 'a\r\n' });
    assert.deepEqual(await ask('tail', p), { outcome: 'ok', text: 'd\r\ne' });
    assert.deepEqual(await ask('past', p), { outcome: 'ok', text: '' });
  });

  it('reports a missing file (-32002), a folder, a binary file, invalid UTF-8 and a relative path', async () => {
    const missing = await ask('read', file('no-such-file.txt'));
    assert.equal(missing.outcome, 'error');
    assert.match(missing.text, /-32002.*no-such-file\.txt/);
    assert.match((await ask('read', file('src'))).text, /-32602.*src.*folder/);
    assert.match((await ask('read', file('fs-binary.bin', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a])))).text, /-32602.*fs-binary\.bin.*NUL bytes/);
    assert.match((await ask('read', file('fs-latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])))).text, /-32602.*fs-latin1\.txt.*not valid UTF-8/);
    assert.match((await ask('read', 'relative/path.txt')).text, /-32602.*absolute/);
  });

  it('a write to an open file lands in the buffer, is saved, and Undo undoes it', async () => {
    const p = file('fs-open-write.txt', 'original\n');
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc);
    assert.deepEqual(await ask('write', p), { outcome: 'ok', text: p });
    assert.equal(doc.getText(), 'written by the agent\nsecond line\n');
    assert.equal(doc.isDirty, false, 'saved');
    assert.equal(fs.readFileSync(p, 'utf8'), 'written by the agent\nsecond line\n');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await until(() => doc.getText() === 'original\n', `undo (text is ${JSON.stringify(doc.getText())})`, 5000);
  });

  it('a write to a new file in a new folder creates both, and is recorded as created', async () => {
    const p = file(path.join('fs-new-dir', 'deeper', 'created.txt'));
    assert.equal((await ask('write', p)).outcome, 'ok');
    assert.equal(fs.readFileSync(p, 'utf8'), 'written by the agent\nsecond line\n');
    const changes = sb.session(sessionId)?.changes.changes ?? [];
    assert.deepEqual(changes.map((c) => [c.uri.fsPath, c.before.kind]), [[p, 'missing']]);
  });

  it('a write outside the workspace asks, and is refused when the user refuses', async () => {
    const outside = path.join(path.dirname(root), `outside-${Date.now()}.txt`);
    const asked: PathConsentRequest[] = [];
    const handler = sb.session(sessionId)?.fs;
    assert.ok(handler);
    handler.consent = { ask: (r) => { asked.push(r); return Promise.resolve(false); } };
    const refused = await ask('write', outside);
    assert.equal(refused.outcome, 'error');
    // access denied (-32003), not "internal error", with the path and the reason in error.data
    assert.match(refused.text, /^-32003 Access denied by the user: .*outside-\d+\.txt is outside the session's folders/);
    assert.ok(refused.text.endsWith(` data=${JSON.stringify({ path: outside, reason: 'deniedByUser' })}`), refused.text);
    assert.deepEqual(asked.map((r) => [r.op, r.path, r.agentName]), [['write', outside, 'Scripted fsEditor']]);
    assert.equal(fs.existsSync(outside), false);
    // allowed: the write happens; a second write asks again
    handler.consent = { ask: (r) => { asked.push(r); return Promise.resolve(true); } };
    assert.equal((await ask('write', outside)).outcome, 'ok');
    assert.equal((await ask('rewrite', outside)).outcome, 'ok');
    assert.equal(asked.length, 3);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'rewritten by the agent\n');
    fs.rmSync(outside);
  });

  it('a read outside asks once per path; "allowReads" and "deny" change the policy', async () => {
    const outside = path.join(path.dirname(root), `outside-read-${Date.now()}.txt`);
    fs.writeFileSync(outside, 'outside\n');
    const asked: PathConsentRequest[] = [];
    const handler = sb.session(sessionId)?.fs;
    assert.ok(handler);
    handler.consent = { ask: (r) => { asked.push(r); return Promise.resolve(true); } };
    assert.deepEqual(await ask('read', outside), { outcome: 'ok', text: 'outside\n' });
    assert.deepEqual(await ask('first', outside), { outcome: 'ok', text: 'outside\n' });
    assert.deepEqual(asked.map((r) => r.op), ['read'], 'asked once for two reads');
    await setSetting('files.outsideRoots', 'deny');
    const denied = (await ask('read', outside)).text;
    assert.match(denied, /^-32003 Access denied by the setting switchboard\.files\.outsideRoots \("deny"\)/);
    assert.ok(denied.endsWith(` data=${JSON.stringify({ path: outside, reason: 'outsideRoots' })}`), denied);
    assert.match((await ask('write', outside)).text, /^-32003 Access denied by the setting/);
    await setSetting('files.outsideRoots', 'allowReads');
    const other = path.join(path.dirname(root), `outside-other-${Date.now()}.txt`);
    fs.writeFileSync(other, 'other\n');
    assert.deepEqual(await ask('read', other), { outcome: 'ok', text: 'other\n' });
    assert.equal(asked.length, 1, 'allowReads does not ask');
    fs.rmSync(outside);
    fs.rmSync(other);
  });

  it('Review Changes undoes an edit (open and closed files) and deletes a created file and its folder', async () => {
    const edited = file('review-edit.txt', 'before\n');
    const open = file('review-open.txt', 'open before\n');
    const created = file(path.join('review-new', 'sub', 'created.txt'));
    const doc = await vscode.workspace.openTextDocument(open);
    await vscode.window.showTextDocument(doc);
    for (const p of [edited, open, created]) assert.equal((await ask('write', p)).outcome, 'ok');
    assert.equal((await ask('rewrite', edited)).outcome, 'ok');
    const tracker = sb.session(sessionId)?.changes;
    assert.ok(tracker);
    assert.deepEqual(tracker.changes.map((c) => [path.basename(c.uri.fsPath), c.before.kind, c.original]),
      [['review-edit.txt', 'bytes', 'before\n'], ['review-open.txt', 'text', 'open before\n'], ['created.txt', 'missing', undefined]]);

    await applyReviewAction(tracker, 'undo', vscode.Uri.file(edited));
    assert.equal(fs.readFileSync(edited, 'utf8'), 'before\n', 'restored to the content before the first write');
    await applyReviewAction(tracker, 'undo', vscode.Uri.file(open));
    assert.equal(doc.getText(), 'open before\n');
    assert.equal(doc.isDirty, false);
    assert.equal(fs.readFileSync(open, 'utf8'), 'open before\n');
    await applyReviewAction(tracker, 'undo', vscode.Uri.file(created));
    assert.equal(fs.existsSync(created), false, 'the created file is deleted');
    assert.equal(fs.existsSync(path.join(root, 'review-new')), false, 'so are the folders the agent created');
    assert.equal(tracker.changes.length, 0);
  });

  it('Keep drops a record; Undo All restores everything else', async () => {
    const a = file('review-keep.txt', 'a before\n');
    const b = file('review-all.txt', 'b before\n');
    const c = file('review-all-new.txt');
    for (const p of [a, b, c]) assert.equal((await ask('write', p)).outcome, 'ok');
    const tracker = sb.session(sessionId)?.changes;
    assert.ok(tracker);
    await applyReviewAction(tracker, 'keep', vscode.Uri.file(a));
    assert.equal(tracker.changes.length, 2);
    await undoAllChanges(tracker);
    assert.equal(fs.readFileSync(a, 'utf8'), 'written by the agent\nsecond line\n', 'kept');
    assert.equal(fs.readFileSync(b, 'utf8'), 'b before\n');
    assert.equal(fs.existsSync(c), false);
    assert.equal(tracker.changes.length, 0);
  });

  it('ACP: Review Changes returns at once with nothing to review, and otherwise waits in its list', async () => {
    // reviewChanges() is what the command runs on the active session; called directly, the test does not
    // depend on which chat panel has the focus
    const session = sb.session(sessionId);
    const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 700))]);
    assert.equal(await settled(reviewChanges(session)), true, 'nothing to review: only a message');
    assert.equal((await ask('write', file('review-list.txt'))).outcome, 'ok');
    const review = reviewChanges(session);
    assert.equal(await settled(review), false, 'the list is open');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await settled(review), true, 'closing the list ends the command');
    assert.equal(session?.changes.changes.length, 1, 'closing keeps the record');
  });

  it('Open Diff opens a diff editor: the old text read-only on the left, the file on the right', async () => {
    const p = file('diff-target.json', '{ "new": true }\n');
    await vscode.commands.executeCommand('switchboard.openDiff', { path: p, oldText: '{ "old": true }\n', newText: '{ "new": true }\n' });
    const tab = await until(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff),
      'a diff editor tab', 5000);
    assert.equal(tab.label, "diff-target.json (agent's change)");
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'switchboard-original');
    assert.equal(input.modified.toString(), vscode.Uri.file(p).toString());
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), '{ "old": true }\n');

    const missing = path.join(root, 'diff-not-yet.ts');
    await vscode.commands.executeCommand('switchboard.openDiff', { path: missing, oldText: null, newText: 'export {};\n' });
    const tab2 = await until(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.startsWith('diff-not-yet.ts')), 'a diff tab for a new file', 5000);
    const input2 = tab2.input as vscode.TabInputTextDiff;
    assert.equal(input2.modified.scheme, 'switchboard-original');
    assert.equal((await vscode.workspace.openTextDocument(input2.modified)).getText(), 'export {};\n');
    assert.equal((await vscode.workspace.openTextDocument(input2.original)).getText(), '');
  });
});
