import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitState, newStore, sessionOf, tempDir, treeHashes, useFolders, userGit, writeTree } from './checkpointFixtures';

describe('checkpoints: a shadow git repository per folder (src/checkpoints)', function () {
  this.timeout(60_000);
  const folders = useFolders();
  let work = '';
  let storeDir = '';
  beforeEach(() => ({ work, storeDir } = folders));

  /** Three turns that change files every way: write, create, delete, rename, binary, mode, link. */
  async function threeTurns(root: string) {
    const cps = sessionOf(newStore(storeDir), 'agent\u0000s1', [root]);
    writeTree(root, { 'a.txt': 'one\n', 'src/b.ts': 'export const b = 1;\r\n', 'bin/data.bin': Buffer.from([0, 1, 2, 255, 0, 13, 10]) });
    fs.symlinkSync('a.txt', path.join(root, 'link'));
    const states: Record<string, string>[] = [];
    const turns: string[] = [];
    for (let turn = 0; turn < 3; turn++) {
      states.push(treeHashes(root));
      turns.push((await cps.take('turn', `e${turn}`)).id);
      if (turn === 0) {
        writeTree(root, { 'a.txt': 'one\ntwo\n', 'new/created.md': '# new\n', 'bin/data.bin': Buffer.from([9, 9, 0]) });
        fs.chmodSync(path.join(root, 'src/b.ts'), 0o755);
      } else if (turn === 1) {
        fs.renameSync(path.join(root, 'src/b.ts'), path.join(root, 'src/renamed.ts'));
        fs.rmSync(path.join(root, 'a.txt'));
        fs.rmSync(path.join(root, 'link'));
        fs.symlinkSync('src/renamed.ts', path.join(root, 'link'));
      } else {
        writeTree(root, { 'deep/er/still.txt': 'x', 'new/created.md': null });
      }
      await cps.take('end', `e${turn}`);
    }
    return { cps, states, turns };
  }

  for (const kind of ['a folder that is not a repository', 'a git repository'] as const) {
    it(`restoring any of three turns brings back the exact bytes, in ${kind}`, async () => {
      if (kind === 'a git repository') {
        userGit(work, 'init', '-q');
        writeTree(work, { 'tracked.txt': 'tracked\n', '.gitignore': 'ignored.log\n' });
        userGit(work, 'add', '-A');
        userGit(work, 'commit', '-qm', 'first');
        writeTree(work, { 'tracked.txt': 'changed but not committed\n' });
        userGit(work, 'stash');
        writeTree(work, { 'ignored.log': 'never checkpointed', 'staged.txt': 'staged\n' });
        userGit(work, 'add', 'staged.txt');
      }
      const before = kind === 'a git repository' ? gitState(work) : undefined;
      const { cps, states, turns } = await threeTurns(work);
      const skip = (rel: string) => rel === '.git' || rel.startsWith('.git/') || rel === 'ignored.log';
      for (const i of [1, 0, 2]) {
        const plan = await cps.planRestore(turns[i]);
        await cps.restore(plan);
        assert.deepEqual(treeHashes(work, skip), Object.fromEntries(Object.entries(states[i]).filter(([k]) => !skip(k))), `turn ${i + 1}: the same files, the same bytes`);
      }
      assert.ok(!fs.existsSync(path.join(work, 'deep')), 'the folders created later are gone again');
      if (before) {
        assert.deepEqual(gitState(work), before, "the user's HEAD, index, stash, config, hooks and status are as they were");
        assert.equal(fs.readFileSync(path.join(work, 'ignored.log'), 'utf8'), 'never checkpointed', 'an ignored file is left alone');
      }
    });
  }

  it('a restore is undone by restoring the checkpoint it took first', async () => {
    const { cps, turns } = await threeTurns(work);
    const latest = treeHashes(work);
    const result = await cps.restore(await cps.planRestore(turns[0]));
    assert.notDeepEqual(treeHashes(work), latest);
    await cps.restore(await cps.planRestore(result.undo.id));
    assert.deepEqual(treeHashes(work), latest, 'back to the state before the restore');
  });

  it('lists what changed between two checkpoints: created, modified (with lines), deleted; renamed is deleted + created', async () => {
    const cps = sessionOf(newStore(storeDir), 'k', [work]);
    writeTree(work, { 'a.txt': 'one\ntwo\nthree\n', 'old.txt': 'old\n' });
    const start = await cps.take('turn', 'e1');
    writeTree(work, { 'a.txt': 'one\n2\nthree\nfour\n', 'n.txt': 'n\n' });
    fs.renameSync(path.join(work, 'old.txt'), path.join(work, 'moved.txt'));
    const end = await cps.take('end', 'e1');
    const changes = await cps.changes(start.id, end.id);
    assert.deepEqual(changes.map((c) => [c.rel, c.change, c.added, c.removed]), [
      ['a.txt', 'modified', 2, 1], ['moved.txt', 'created', 1, 0], ['n.txt', 'created', 1, 0], ['old.txt', 'deleted', 0, 1],
    ]);
  });

  it('restores only the files asked for (Undo this turn), and leaves the rest', async () => {
    const cps = sessionOf(newStore(storeDir), 'k', [work]);
    writeTree(work, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const start = await cps.take('turn', 'e1');
    writeTree(work, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const plan = await cps.planRestore(start.id, [path.join(work, 'a.txt')]);
    assert.deepEqual(plan.files.map((f) => f.rel), ['a.txt']);
    await cps.restore(plan);
    assert.equal(fs.readFileSync(path.join(work, 'a.txt'), 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(path.join(work, 'b.txt'), 'utf8'), 'B\n');
  });

  it('a file changed between the preview and the restore is restored too (the plan is worked out again)', async () => {
    const cps = sessionOf(newStore(storeDir), 'k', [work]);
    writeTree(work, { 'a.txt': 'a\n' });
    const start = await cps.take('turn', 'e1');
    const plan = await cps.planRestore(start.id);
    assert.equal(plan.files.length, 0);
    writeTree(work, { 'a.txt': 'edited after the preview\n', 'late.txt': 'late\n' });
    const result = await cps.restore(plan);
    assert.deepEqual(result.files.map((f) => f.rel).sort(), ['a.txt', 'late.txt']);
    assert.equal(fs.readFileSync(path.join(work, 'a.txt'), 'utf8'), 'a\n');
    assert.ok(!fs.existsSync(path.join(work, 'late.txt')));
    await cps.restore(await cps.planRestore(result.undo.id));
    assert.equal(fs.readFileSync(path.join(work, 'a.txt'), 'utf8'), 'edited after the preview\n', 'the undo point has the late edit');
  });

  it("honours .gitignore, the user's .git/info/exclude and ignores .git; a .gitattributes filter or eol changes no byte", async () => {
    userGit(work, 'init', '-q');
    fs.writeFileSync(path.join(work, '.git', 'info', 'exclude'), 'excluded.txt\n');
    writeTree(work, {
      '.gitignore': 'node_modules/\n*.log\n', 'node_modules/x.js': 'x', 'app.log': 'log', 'excluded.txt': 'e',
      '.gitattributes': '* text eol=crlf\n*.bin filter=lfs diff=lfs merge=lfs -text\n', 'crlf.txt': 'a\r\nb\n', 'x.bin': Buffer.from([1, 0, 2]),
    });
    const cps = sessionOf(newStore(storeDir), 'k', [work]);
    const start = await cps.take('turn', 'e1');
    writeTree(work, { 'crlf.txt': 'changed\n', 'x.bin': Buffer.from([3]), 'node_modules/x.js': 'y', 'app.log': 'log2', 'excluded.txt': 'e2' });
    const end = await cps.take('end', 'e1');
    const changes = await cps.changes(start.id, end.id);
    assert.deepEqual(changes.map((c) => c.rel), ['crlf.txt', 'x.bin'], 'ignored and excluded files are not checkpointed');
    await cps.restore(await cps.planRestore(start.id));
    assert.deepEqual(fs.readFileSync(path.join(work, 'crlf.txt')), Buffer.from('a\r\nb\n'), 'the exact bytes, mixed line ends included');
    assert.deepEqual(fs.readFileSync(path.join(work, 'x.bin')), Buffer.from([1, 0, 2]), 'no LFS filter ran');
    assert.equal(fs.readFileSync(path.join(work, 'app.log'), 'utf8'), 'log2', 'an ignored file is left as it is');
  });

  it('skips files over the size cap and nested repositories, lists them, and never overwrites or deletes them', async () => {
    const cps = sessionOf(newStore(storeDir, { maxFileBytes: 1000 }), 'k', [work]);
    writeTree(work, { 'small.txt': 's', 'grows.bin': 'g', 'big.bin': Buffer.alloc(5000, 1) });
    userGit(path.join(work), 'init', '-q', 'nested');
    writeTree(work, { 'nested/inner.txt': 'inner' });
    const start = await cps.take('turn', 'e1');
    assert.deepEqual(start.skipped[work]?.map((s) => [s.path, s.reason]), [['big.bin', 'size'], ['nested', 'repository']]);
    writeTree(work, { 'grows.bin': Buffer.alloc(3000, 2), 'big.bin': Buffer.alloc(6000, 3), 'small.txt': 'S', 'nested/inner.txt': 'changed' });
    const end = await cps.take('end', 'e1');
    assert.deepEqual(end.skipped[work]?.map((s) => s.path), ['big.bin', 'grows.bin', 'nested']);
    const changes = await cps.changes(start.id, end.id);
    assert.deepEqual(changes.map((c) => c.rel), ['small.txt'], 'a file that went over the cap is not shown as deleted');
    const plan = await cps.planRestore(start.id);
    assert.deepEqual(plan.leftAlone.map((p) => path.relative(work, p)).sort(), ['big.bin', 'grows.bin', 'nested']);
    await cps.restore(plan);
    assert.equal(fs.readFileSync(path.join(work, 'small.txt'), 'utf8'), 's');
    assert.equal(fs.statSync(path.join(work, 'grows.bin')).size, 3000, 'the file over the cap now is left as it is');
    assert.equal(fs.readFileSync(path.join(work, 'nested/inner.txt'), 'utf8'), 'changed', 'a nested repository is left as it is');
  });

  it('keeps several roots of one session, and a restore covers each', async () => {
    const other = fs.realpathSync(tempDir('other'));
    try {
      const cps = sessionOf(newStore(storeDir), 'k', [work, other]);
      writeTree(work, { 'w.txt': 'w' });
      writeTree(other, { 'o.txt': 'o' });
      const start = await cps.take('turn', 'e1');
      writeTree(work, { 'w.txt': 'W' });
      writeTree(other, { 'o.txt': null, 'o2.txt': 'o2' });
      await cps.restore(await cps.planRestore(start.id));
      assert.equal(fs.readFileSync(path.join(work, 'w.txt'), 'utf8'), 'w');
      assert.deepEqual(fs.readdirSync(other), ['o.txt']);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
