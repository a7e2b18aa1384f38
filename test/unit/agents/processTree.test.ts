import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { collectTree, isProcessAlive, parseProcStat, type ProcessInfo, terminateProcessTree } from '../../../src/agents/processTree';
import { fixtureScript, readLine, waitUntilGone } from './processFixtures';

describe('processTree', function () {
  this.timeout(4000);

  it('terminateProcessTree SIGTERMs, then SIGKILLs a grandchild that ignores SIGTERM', async () => {
    const child = spawn(process.execPath, [fixtureScript('treeAgent')], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const pids = JSON.parse(await readLine(child.stdout)) as { agent: number; grandchild: number };
    const started = Date.now();
    const result = await terminateProcessTree(pids.agent, { graceMs: 200, group: true });
    assert.ok(Date.now() - started < 1500);
    assert.equal(await exited, 'SIGTERM');
    assert.ok(result.signalled.includes(pids.grandchild));
    assert.deepEqual(result.killed, [pids.grandchild]);
    assert.deepEqual(result.survivors, []);
    assert.ok(await waitUntilGone(pids.grandchild, 200));
  });

  it('returns at once for a process that is already gone, and never signals pid 1 or itself', async () => {
    for (const pid of [1, process.pid, 0, -5]) assert.deepEqual(await terminateProcessTree(pid), { signalled: [], killed: [], survivors: [] });
    assert.equal(isProcessAlive(process.pid), true);
  });

  it('collectTree follows parent links and group membership, excluding this process and its ancestors', () => {
    const table: ProcessInfo[] = [
      { pid: 1, ppid: 0, pgid: 1 },
      { pid: process.pid, ppid: 1, pgid: process.pid },
      { pid: 100, ppid: process.pid, pgid: 100 },
      { pid: 101, ppid: 100, pgid: 100 },
      { pid: 102, ppid: 101, pgid: 500 }, // left the group, found through its parent
      { pid: 103, ppid: 1, pgid: 100 }, // orphan still in the group
      { pid: 104, ppid: 103, pgid: 104 },
      { pid: 200, ppid: 1, pgid: 200 },
    ];
    assert.deepEqual(collectTree(table, [100], 100).map((p) => p.pid).sort(), [100, 101, 102, 103, 104]);
    assert.deepEqual(collectTree(table, [100]).map((p) => p.pid).sort(), [100, 101, 102]);
    assert.deepEqual(collectTree(table, [process.pid, 1]).map((p) => p.pid), []);
  });

  it('parses /proc/<pid>/stat lines whose command contains spaces and parentheses', () => {
    const stat = parseProcStat('4242 (my (weird) cmd) S 4000 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0');
    assert.deepEqual(stat, { pid: 4242, state: 'S', ppid: 4000, pgid: 4242, startTime: '987654' });
  });
});
