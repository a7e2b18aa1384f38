import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CheckpointStore } from '../../../src/checkpoints/checkpointStore';
import { GitCli } from '../../../src/checkpoints/gitCli';
import { exactPattern, unreadablePaths } from '../../../src/checkpoints/snapshotScan';
import { newStore, sessionOf, useFolders, writeTree } from './checkpointFixtures';

describe('checkpoints: the store (sharing, cap, deletion, no git)', function () {
  this.timeout(60_000);
  const folders = useFolders();
  let work = '';
  let storeDir = '';
  beforeEach(() => ({ work, storeDir } = folders));
  const repos = () => (fs.existsSync(path.join(storeDir, 'repos')) ? fs.readdirSync(path.join(storeDir, 'repos')) : []);

  it('two sessions in one folder share one repository: a file that did not change costs nothing', async () => {
    const store = newStore(storeDir);
    // incompressible, so that storing it again would show: 300 KB more
    writeTree(work, { 'big.bin': Buffer.from(Array.from({ length: 300_000 }, () => Math.floor(Math.random() * 256))) });
    const a = sessionOf(store, 'a', [work]);
    const b = sessionOf(store, 'b', [work]);
    await a.take('turn', 'e1');
    const after = store.size();
    await b.take('turn', 'e1');
    await Promise.all([a.take('end', 'e1'), b.take('end', 'e1')]); // at once: one git at a time per repository
    assert.equal(repos().length, 1);
    // what the second session adds is its record, refs and small commits (a few disk blocks each), not the file
    assert.ok(store.size() - after < 100_000, `the second session's checkpoints took ${store.size() - after} bytes (the file is 300,000)`);
  });

  it('a warm-up reads the folder into the index: the first snapshot then is the same tree, and one asked for meanwhile waits', async () => {
    writeTree(work, { 'a.txt': 'a', 'src/b.ts': 'b', 'big.bin': Buffer.alloc(64) });
    const store = newStore(storeDir);
    const warming = store.withRepo(work, (repo) => repo.prime());
    const snap = store.withRepo(work, (repo) => repo.snapshot('first')); // queued: one git at a time per repository
    await warming;
    assert.equal((await store.repo(work)).isEmpty, false, 'the index is written: the next checkpoint is not a first one');
    const warm = await snap;
    const cold = await newStore(path.join(storeDir, 'cold')).withRepo(work, (repo) => repo.snapshot('first'));
    assert.equal(warm.tree, cold.tree, 'the same files, the same content');
  });

  it('deleting a session drops its checkpoints; the last session of a folder takes its repository along', async () => {
    const store = newStore(storeDir);
    writeTree(work, { 'a.txt': 'a' });
    const a = sessionOf(store, 'a', [work]);
    const b = sessionOf(store, 'b', [work]);
    await a.take('turn', 'e1');
    await b.take('turn', 'e1');
    await a.delete();
    assert.equal(a.all.length, 0);
    assert.ok(!fs.existsSync(store.manifestFile('a')));
    assert.equal(repos().length, 1, 'b still uses the repository');
    assert.deepEqual((await (await store.repo(work)).refs('refs/switchboard/')).length, 1);
    await b.delete();
    assert.equal(repos().length, 0, 'nothing uses it any more: removed');
  });

  it('keeps the store under its cap: the oldest checkpoints go first, never a session\'s newest two', async () => {
    writeTree(work, { 'seed.txt': 'seed' });
    let cap = 1024 * 1024 * 1024;
    const store = new CheckpointStore({ dir: storeDir, maxFileBytes: () => 5 * 1024 * 1024, maxStorageBytes: () => cap });
    const cps = sessionOf(store, 'k', [work]);
    for (let i = 0; i < 8; i++) {
      writeTree(work, { 'f.bin': Buffer.from(Array.from({ length: 200_000 }, () => Math.floor(Math.random() * 256))) });
      await cps.take('turn', `e${i}`);
    }
    const full = store.size();
    cap = Math.floor(full * 0.9);
    const ids = cps.all.map((c) => c.id);
    const dropped = await store.enforceCap();
    assert.ok(dropped > 0 && store.size() <= cap, `dropped ${dropped}, now ${store.size()} of ${cap}`);
    assert.deepEqual(cps.all.map((c) => c.id), ids.slice(dropped), 'the oldest went first');
    const oldest = cps.all[0].id;
    await cps.restore(await cps.planRestore(oldest));
    assert.equal(fs.statSync(path.join(work, 'f.bin')).size, 200_000, 'what is left still restores');
    cap = 1;
    await store.enforceCap();
    assert.equal(cps.all.length >= 2, true, 'the newest two stay whatever the cap');
  });

  it('keep: the present becomes the baseline of the turns\' changes (the changed-files bar)', async () => {
    const cps = sessionOf(newStore(storeDir), 'k', [work]);
    writeTree(work, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await cps.take('turn', 'e1');
    writeTree(work, { 'a.txt': 'A\n', 'b.txt': 'B\n', 'c.txt': 'c\n' });
    await cps.take('end', 'e1');
    await cps.take('turn', 'e2'); // the user's edits between turns are not the agent's
    writeTree(work, { 'b.txt': 'BB\n' });
    await cps.take('end', 'e2');
    const before = async () => {
      const changes = await cps.turnChanges();
      const blobs = await cps.readBlobs([...changes.values()].flatMap((c) => (c.before ? [{ root: c.root, ref: c.before }] : [])));
      return Object.fromEntries([...changes].map(([f, c]) => [path.basename(f), c.before ? Buffer.from(blobs.get(c.before.blob) ?? []).toString() : null]));
    };
    assert.deepEqual(await before(), { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': null }, 'each file against its content before the first turn that changed it');
    await cps.keep([path.join(work, 'b.txt'), path.join(work, 'gone.txt')]);
    assert.deepEqual(await before(), { 'a.txt': 'a\n', 'b.txt': 'BB\n', 'c.txt': null, 'gone.txt': null });
  });

  it('without git: says why, in words', async () => {
    assert.match(await new GitCli('/nonexistent/git').unavailable() ?? '', /no git was found on PATH/);
    assert.equal(await new GitCli().unavailable(), undefined, 'the git of this machine is used');
  });

  it('patterns match exactly one path; unreadable files are read from git\'s errors', () => {
    assert.equal(exactPattern('a/[x]*?.txt'), '/a/\\[x]\\*\\?.txt');
    assert.equal(exactPattern('#lead/trail  '), '/#lead/trail\\ \\ ');
    assert.equal(exactPattern('nested', true), '/nested/');
    assert.deepEqual(unreadablePaths('error: open("secret.key"): Permission denied\nerror: unable to index file \'x y\'\nwarning: other\n'), ['secret.key', 'x y']);
  });
});
