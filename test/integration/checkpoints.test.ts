/**
 * Checkpoints in the real extension host (docs/checkpoints.md): a scripted agent
 * (test/fixtures/agents/scenarios/checkpoints.json) writes through fs/write_text_file, directly on disk from
 * its own process, and from terminal commands; creates, deletes and renames files. Restoring the checkpoint
 * of any of three turns gives back the exact bytes (hashes of every file), in a folder that is not a
 * repository and in a git repository whose HEAD, index, stash and config stay byte-identical; an open editor
 * shows the restored text; Undo Restore and Undo This Turn put the files back.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { AgentSession } from '../../src/host/agentSession';
import { CheckpointActions } from '../../src/host/files/checkpointActions';
import { CheckpointBaseline } from '../../src/host/files/checkpointBaseline';
import type { ChangesEntry } from '../../src/thread/model/turnChanges';
import { gitState, treeHashes, userGit, writeTree } from '../unit/checkpoints/checkpointFixtures';
import { acceptingPreview, api, until, useScriptedAgent, workspaceRoot } from './helpers';

/** The files a test starts with, in its own folder (an editor of an earlier test's file must not be in the way). */
const initial = (cp: string) => ({ [`${cp}/main.txt`]: 'a: as it was\n', [`${cp}/src/b.ts`]: 'export const b = 1;\n', [`${cp}/old.txt`]: 'old\n', [`${cp}/c.txt`]: 'c\n' });
/** The scripted agent working in `cp` (below the workspace folder). */
const agentIn = (cp: string) => useScriptedAgent('checkpoints', { CP: cp }, `checkpoints-${cp}`);

describe('checkpoints: every turn can be undone, whatever the agent touched and however', function () {
  this.timeout(180_000);
  let sb: SwitchboardTestApi;
  let root: string;
  before(async () => {
    sb = await api();
    root = workspaceRoot();
  });
  afterEach(async () => {
    for (const id of sb.sessionIds()) sb.closeSession(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const d of fs.readdirSync(root)) if (d.startsWith('cp-')) fs.rmSync(path.join(root, d), { recursive: true, force: true });
    fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
  });
  after(async () => { await sb.stopAll(); });

  const changes = (s: AgentSession) => s.thread.entries.filter((e): e is ChangesEntry => e.kind === 'changes');
  const userIds = (s: AgentSession) => s.thread.entries.flatMap((e) => (e.kind === 'user' ? [e] : []));
  const rel = (e: ChangesEntry) => e.files.map((f) => `${f.change} ${path.relative(root, f.path).replace(/^cp-[^/]+/, 'cp')}`).sort();
  const hashes = () => treeHashes(root, (r) => r === '.git' || r.startsWith('.git/') || r === '.vscode' || r.startsWith('.vscode/'));

  for (const kind of ['a folder that is not a repository', 'a git repository'] as const) {
    it(`restoring any of three turns gives the exact bytes back, in ${kind}`, async () => {
      const cp = kind === 'a git repository' ? 'cp-git' : 'cp-plain';
      writeTree(root, initial(cp));
      let git: Record<string, string> | undefined;
      if (kind === 'a git repository') {
        userGit(root, 'init', '-q');
        userGit(root, 'add', cp);
        userGit(root, 'commit', '-qm', 'initial');
        writeTree(root, { [`${cp}/c.txt`]: 'c, changed and stashed\n' });
        userGit(root, 'stash');
        writeTree(root, { [`${cp}/staged.txt`]: 'staged\n' });
        userGit(root, 'add', `${cp}/staged.txt`);
        git = gitState(root);
      }
      const agent = await agentIn(cp);
      const id = await sb.newSession(agent);
      const session = sb.session(id);
      assert.ok(session);
      const before: Record<string, string>[] = [];
      for (const t of ['/t1', '/t2', '/t3']) {
        before.push(hashes());
        await sb.prompt(id, t);
      }
      await until(() => session.thread.status === 'idle', 'the last turn ended');
      const users = userIds(session);
      assert.equal(users.length, 3);
      assert.ok(users.every((u) => u.checkpointId), 'every message has a checkpoint before it');
      const turns = changes(session);
      assert.equal(turns.length, 3, 'each turn ends with "Changed in this turn"');
      assert.deepEqual(rel(turns[0]), ['created cp/data.bin', 'created cp/notes/n1.md', 'created cp/term.txt', 'deleted cp/old.txt', 'modified cp/main.txt'],
        'turn 1: through the client, on disk from the agent and from a terminal');
      assert.deepEqual(rel(turns[1]), ['created cp/notes/n2.md', 'created cp/src/renamed.ts', 'deleted cp/notes/n1.md', 'deleted cp/src/b.ts', 'modified cp/main.txt'],
        'turn 2: renames on disk and in a terminal');
      assert.deepEqual(rel(turns[2]), ['created cp/deep/new/file.txt', 'created cp/x.txt', 'deleted cp/c.txt', 'modified cp/main.txt']);

      const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, cp, 'main.txt')), { preview: false });
      const actions = new CheckpointActions(session.context, session.checkpoints, () => session.isWorking);
      for (const turn of [1, 0, 2]) {
        assert.ok(await acceptingPreview(() => actions.restoreMessage(users[turn].id)), `restore of turn ${turn + 1} ran`);
        assert.deepEqual(hashes(), before[turn], `turn ${turn + 1}: every file has the bytes it had before that turn`);
        const disk = fs.readFileSync(path.join(root, cp, 'main.txt'), 'utf8');
        await until(() => editor.document.getText() === disk, `the open editor shows the restored main.txt (${JSON.stringify(disk)})`);
      }
      const restores = changes(session).filter((e) => e.role === 'restore');
      assert.equal(restores.length, 3, 'each restore is in the transcript');
      const lastRestore = restores[2];
      const marked = () => session.thread.entries.filter((e) => e.afterRestore).map((e) => e.id);
      assert.ok(marked().includes(users[2].id) && !marked().includes(users[1].id), 'the entries after the newest restored checkpoint are marked, not deleted');

      // Undo Restore: back to the state before it (before turn 1), and the marks of that restore go
      await acceptingPreview(() => actions.undo(lastRestore.id));
      assert.deepEqual(hashes(), before[0], 'Undo Restore put the files back as they were before the restore');
      assert.equal(changes(session).find((e) => e.id === lastRestore.id)?.undone, true);
      assert.ok(marked().includes(users[0].id), 'after its undo, the restore before it marks its entries again');
      const disk = fs.readFileSync(path.join(root, cp, 'main.txt'), 'utf8');
      await until(() => editor.document.getText() === disk, 'the open editor follows the undo');

      if (git) assert.deepEqual(gitState(root), git, "the user's HEAD, index, stash and config are byte-identical");
    });
  }

  it('Undo This Turn restores only the files of that turn, the agent wrote them on disk; the bar lists them', async () => {
    const cp = 'cp-undo';
    writeTree(root, initial(cp));
    const agent = await agentIn(cp);
    const id = await sb.newSession(agent);
    const session = sb.session(id);
    assert.ok(session);
    await sb.prompt(id, '/disk');
    const [turn] = changes(session);
    assert.deepEqual(rel(turn), ['created cp/made-on-disk.txt', 'modified cp/main.txt']);
    const bar = await new CheckpointBaseline((files) => session.checkpoints.keep(files), () => session.checkpoints.current).inputs(new Set());
    assert.deepEqual(bar.map((r) => [path.relative(root, r.path), r.before, r.after]).sort(), [
      [`${cp}/made-on-disk.txt`, undefined, 'made on disk\n'], [`${cp}/main.txt`, 'a: as it was\n', 'a: written on disk by the agent\n'],
    ], 'the changed-files bar lists what the agent wrote on disk itself, against the content before the turn');
    writeTree(root, { [`${cp}/c.txt`]: 'the user changed this meanwhile\n' });
    const actions = new CheckpointActions(session.context, session.checkpoints, () => session.isWorking);
    await acceptingPreview(() => actions.undo(turn.id));
    assert.equal(fs.readFileSync(path.join(root, cp, 'main.txt'), 'utf8'), 'a: as it was\n');
    assert.ok(!fs.existsSync(path.join(root, cp, 'made-on-disk.txt')), 'the file the turn created is gone');
    assert.equal(fs.readFileSync(path.join(root, cp, 'c.txt'), 'utf8'), 'the user changed this meanwhile\n', 'a file the turn did not touch is left alone');
    assert.equal(changes(session).find((e) => e.id === turn.id)?.undone, true);
    assert.equal(changes(session).filter((e) => e.role === 'restore').length, 1, 'the undo is a restore that can be undone');
  });
});
