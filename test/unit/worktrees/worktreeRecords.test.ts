import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorktreeRecords, type FanOutRecord, type WorktreeRecord } from '../../../src/worktrees/worktreeRecords';
import { tempDir } from './worktreeFixtures';

function worktree(id: string, over: Partial<WorktreeRecord> = {}): WorktreeRecord {
  return {
    id, top: '/repo', baseBranch: 'main', baseCommit: 'a'.repeat(40), path: `/wts/${id}`, branch: `switchboard/${id}`,
    agentId: 'claude', state: 'active', createdAt: 1_700_000_000_000, ...over,
  };
}

const fanOut: FanOutRecord = {
  id: 'f1', prompt: 'Fix the bug', check: 'npm test', top: '/repo', baseBranch: 'main', baseCommit: 'a'.repeat(40), createdAt: 1,
  runs: [
    { id: 'r1', worktreeId: 'w1', agentId: 'claude', sessionKey: 'claude\u0000s1', startedAt: 2, endedAt: 3, status: 'done', check: { state: 'passed', command: 'npm test', exitCode: 0, durationMs: 1234, output: 'ok\n' } },
    { id: 'r2', worktreeId: 'w2', agentId: 'codex', status: 'failed', error: 'the agent crashed' },
  ],
};

describe('worktrees: the records of worktrees and fan-outs on disk (src/worktrees/worktreeRecords.ts)', () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = tempDir('records');
    file = path.join(dir, 'state', 'worktrees.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const asides = () => fs.readdirSync(path.dirname(file)).filter((f) => f.includes('.corrupt-'));

  it('a missing file is empty; what is saved is read back the same', async () => {
    const a = new WorktreeRecords(file);
    assert.equal(await a.load(), undefined);
    assert.deepEqual([a.worktrees(), a.fanOuts()], [[], []]);
    a.put(worktree('w1', { sessionKey: 'claude\u0000s1', fanOutId: 'f1' }));
    a.put(worktree('w2', { state: 'archived' }));
    a.putFanOut(fanOut);
    a.put(worktree('w2', { state: 'merged' })); // replaces
    await a.save();
    const b = new WorktreeRecords(file);
    assert.equal(await b.load(), undefined);
    assert.deepEqual(b.worktrees(), a.worktrees());
    assert.deepEqual(b.fanOuts(), [fanOut]);
    assert.equal(b.worktrees().length, 2);
    assert.equal(b.worktrees()[1].state, 'merged');
    assert.equal(b.byPath('/wts/w1/')?.id, 'w1', 'a path compared resolved');
    assert.equal(b.byPath('/wts/../wts/w2')?.id, 'w2');
    assert.equal(b.bySession('claude\u0000s1')?.id, 'w1');
    assert.equal(b.bySession('nobody'), undefined);
    assert.equal(b.remove('f1'), true);
    assert.equal(b.remove('w1'), true);
    assert.equal(b.remove('w1'), false);
    await b.save();
    const c = new WorktreeRecords(file);
    await c.load();
    assert.deepEqual(c.worktrees().map((w) => w.id), ['w2']);
    assert.deepEqual(c.fanOuts(), []);
  });

  it('a file that is not JSON is renamed aside and reported, never thrown', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"worktr');
    const problems: Error[] = [];
    const r = new WorktreeRecords(file, (e) => problems.push(e));
    const error = await r.load();
    assert.ok(error && problems[0] === error);
    assert.match(error.message, /not JSON.*kept as .*worktrees\.json\.corrupt-\d+/);
    assert.deepEqual(r.worktrees(), []);
    assert.equal(fs.existsSync(file), false);
    assert.equal(asides().length, 1);
    assert.equal(fs.readFileSync(path.join(path.dirname(file), asides()[0]), 'utf8'), '{"version":1,"worktr', 'kept as it was');
    r.put(worktree('w1'));
    await r.save();
    assert.equal(asides().length, 1, 'a save does not touch the kept copy');
  });

  it('a file of the wrong shape is renamed; one bad record is left out and the file copied aside', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ something: 'else' }));
    assert.match((await new WorktreeRecords(file).load())?.message ?? '', /not a record file/);
    assert.equal(asides().length, 1);

    fs.writeFileSync(file, JSON.stringify({ version: 1, worktrees: [worktree('good'), { ...worktree('bad'), state: 'exploded' }], fanOuts: [fanOut, { id: 'f2' }] }));
    const r = new WorktreeRecords(file);
    const error = await r.load();
    assert.match(error?.message ?? '', /2 record\(s\) are invalid.*worktrees\[1\]: state/);
    assert.deepEqual(r.worktrees().map((w) => w.id), ['good']);
    assert.deepEqual(r.fanOuts().map((f) => f.id), ['f1']);
    assert.equal(fs.existsSync(file), true, 'the good records are still in use');
    assert.equal(asides().length, 2);
  });

  it('saves are atomic and one at a time: many at once leave the last state and no temporary file', async () => {
    const r = new WorktreeRecords(file);
    await r.load();
    const saves: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) {
      r.put(worktree(`w${i}`));
      saves.push(r.save());
    }
    await Promise.all(saves);
    const back = new WorktreeRecords(file);
    assert.equal(await back.load(), undefined);
    assert.equal(back.worktrees().length, 30);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['worktrees.json']);
  });

  it('a save that fails rejects, and the next one still runs', async () => {
    const blocker = path.join(dir, 'blocked');
    fs.writeFileSync(blocker, ''); // a file where the records' folder should be
    const r = new WorktreeRecords(path.join(blocker, 'records.json'));
    r.put(worktree('w1'));
    await assert.rejects(r.save());
    fs.rmSync(blocker);
    await r.save();
    assert.ok(fs.existsSync(path.join(blocker, 'records.json')));
  });
});
