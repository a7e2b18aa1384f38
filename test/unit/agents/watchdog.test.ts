import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { OwnedProcesses } from '../../../src/agents/ownedProcesses';
import { isProcessAlive, type ProcessInfo, processStartTime } from '../../../src/agents/processTree';
import { ProcessWatchdog } from '../../../src/agents/processWatchdog';
import { groupsToEnd, parseWatchdogLine } from '../../../src/agents/watchdog';
import { fixtureScript, readLine, waitUntilGone, within } from './processFixtures';

// the transpiled entry point (out/src/agents/watchdogMain.js); the bundle in dist/ is the same code
const watchdogScript = path.resolve(__dirname, '../../../src/agents/watchdogMain.js');

describe('watchdog: the protocol and the choice of groups', () => {
  it('parses registrations and removals, and nothing else', () => {
    assert.deepEqual(parseWatchdogLine('+42 42 123456'), { add: { pgid: 42, pid: 42, startTime: '123456' } });
    assert.deepEqual(parseWatchdogLine('+42 42 -'), { add: { pgid: 42, pid: 42, startTime: undefined } });
    assert.deepEqual(parseWatchdogLine('-42'), { remove: 42 });
    for (const junk of ['', '+42', '+-1 2 3', 'kill 1', '-x', '+1 2 3 4']) assert.equal(parseWatchdogLine(junk), undefined, junk);
  });

  it('ends a group only while it is the registered one, never a protected group', () => {
    const row = (pid: number, pgid: number, startTime: string): ProcessInfo => ({ pid, ppid: 1, pgid, startTime });
    const table = [row(100, 100, 't100'), row(200, 200, 'later'), row(301, 300, 't301'), row(500, 500, 't500')];
    const groups = [
      { pgid: 100, pid: 100, startTime: 't100' }, // running, same start time
      { pgid: 200, pid: 200, startTime: 't200' }, // the pid was reused by another process
      { pgid: 300, pid: 300, startTime: 't300' }, // leader gone, a member of its group still runs
      { pgid: 400, pid: 400, startTime: 't400' }, // leader and group gone
      { pgid: 500, pid: 500, startTime: 't500' }, // the host's group
      { pgid: 1, pid: 1, startTime: undefined },
    ];
    assert.deepEqual(groupsToEnd(groups, table, new Set([500])).map((g) => g.pgid), [100, 300]);
  });
});

describe('watchdog: the process', function () {
  this.timeout(8000);
  const started: ChildProcess[] = [];

  afterEach(() => {
    for (const c of started.splice(0)) {
      try {
        process.kill(-(c.pid ?? 0), 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  /** A detached fixture (its own process group); resolves with its first stdout line. */
  async function group(script: string): Promise<{ pid: number; line: string }> {
    const child = spawn(process.execPath, [fixtureScript(script)], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    started.push(child);
    const line = await readLine(child.stdout);
    return { pid: child.pid ?? -1, line };
  }

  function watchdog(hostPid = process.pid): ChildProcess {
    const child = spawn(process.execPath, [watchdogScript, String(hostPid)], { stdio: ['pipe', 'ignore', 'inherit'], detached: true });
    started.push(child);
    return child;
  }

  const register = (w: ChildProcess, pid: number, startTime = processStartTime(pid)) => w.stdin?.write(`+${pid} ${pid} ${startTime ?? '-'}\n`);
  const exited = (w: ChildProcess) => new Promise<void>((resolve) => (w.exitCode !== null ? resolve() : w.once('exit', () => resolve())));

  it('ends a registered stubborn group and its child when its stdin closes, and leaves the rest alone', async () => {
    const stubborn = await group('stubbornAgent');
    const tree = await group('treeAgent');
    const { grandchild } = JSON.parse(tree.line) as { grandchild: number };
    const unregistered = await group('stubbornAgent');
    const removed = await group('stubbornAgent');
    const reused = await group('stubbornAgent');
    const w = watchdog();
    register(w, stubborn.pid);
    register(w, tree.pid);
    register(w, removed.pid);
    w.stdin?.write(`-${removed.pid}\n`);
    // a registration whose start time is not the running process's: the pid belongs to someone else now
    register(w, reused.pid, '1');
    w.stdin?.end();
    await within(exited(w), 3000, 'the watchdog to exit');
    for (const pid of [stubborn.pid, tree.pid, grandchild]) assert.ok(await waitUntilGone(pid, 500), `pid ${pid} still runs`);
    for (const pid of [unregistered.pid, removed.pid, reused.pid]) assert.ok(isProcessAlive(pid), `pid ${pid} was killed`);
  });

  it('ends the groups when the host dies, even while the pipe stays open', async () => {
    // this test process keeps the watchdog's stdin open throughout: only the host's death can end it
    const host = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const stubborn = await group('stubbornAgent');
    const w = watchdog(host.pid);
    register(w, stubborn.pid);
    // let it read the registration before the host goes
    await new Promise((resolve) => setTimeout(resolve, 300));
    host.kill('SIGKILL');
    await within(exited(w), 4000, 'the watchdog to exit');
    assert.ok(await waitUntilGone(stubborn.pid, 500), 'the stubborn agent still runs');
  });

  it('ProcessWatchdog tells the watchdog what the registry holds; closing it ends what is left', async () => {
    const owned = new OwnedProcesses();
    const before = await group('stubbornAgent');
    const after = await group('stubbornAgent');
    const gone = await group('stubbornAgent');
    const entry = (pid: number) => ({ pgid: pid, startTime: processStartTime(pid), kind: 'agent' as const, stop: () => Promise.resolve() });
    owned.add(entry(before.pid)); // registered before the watchdog started: replayed to it
    const dog = ProcessWatchdog.start({ scriptPath: watchdogScript, owned });
    await Promise.resolve(); // it starts right after the notification of a group
    assert.ok(dog?.pid);
    owned.add(entry(after.pid));
    const removed = entry(gone.pid);
    owned.add(removed);
    owned.remove(removed);
    const pid = dog.pid;
    dog.dispose();
    assert.ok(await waitUntilGone(pid, 3000), 'the watchdog still runs');
    for (const p of [before.pid, after.pid]) assert.ok(await waitUntilGone(p, 500), `pid ${p} still runs`);
    assert.ok(isProcessAlive(gone.pid), 'an unregistered group was killed');
  });

  it('starts no process until a first group is registered', async () => {
    const owned = new OwnedProcesses();
    const dog = ProcessWatchdog.start({ scriptPath: watchdogScript, owned });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(dog?.pid, undefined, 'no watchdog process for an activation without agents');
    const first = await group('stubbornAgent');
    owned.add({ pgid: first.pid, startTime: processStartTime(first.pid), kind: 'agent', stop: () => Promise.resolve() });
    await Promise.resolve();
    const pid = dog?.pid;
    assert.ok(pid, 'the first group starts it');
    dog?.dispose();
    assert.ok(await waitUntilGone(pid, 3000), 'the watchdog still runs');
    assert.ok(await waitUntilGone(first.pid, 1500), 'the registered group was ended with it');
  });

  it('is not started on Windows', () => {
    assert.equal(ProcessWatchdog.start({ scriptPath: watchdogScript, platform: 'win32', owned: new OwnedProcesses() }), undefined);
  });
});
