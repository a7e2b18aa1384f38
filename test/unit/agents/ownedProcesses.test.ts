import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { AgentProcess } from '../../../src/agents/agentProcess';
import { OwnedProcesses, shutdownGraceMs } from '../../../src/agents/ownedProcesses';
import { isProcessAlive, processStartTime } from '../../../src/agents/processTree';
import { TerminalProcess } from '../../../src/agents/terminalProcess';
import { fixtureScript, nodeAgent, readLine, waitUntilGone, within } from './processFixtures';

/** Waits for the first output of a terminal command (the stubborn fixture's `ready` line: its handlers are set). */
function readLineOf(t: TerminalProcess): Promise<void> {
  return within(new Promise<void>((resolve) => {
    if (t.output.totalBytes > 0) return resolve();
    const sub = t.onData(() => { sub.dispose(); resolve(); });
  }), 2000, 'the command to print');
}

describe('OwnedProcesses', function () {
  this.timeout(8000);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((fn) => fn()));
  });

  async function agent(owned: OwnedProcesses, script: string): Promise<AgentProcess> {
    const a = await AgentProcess.spawn(nodeAgent(script), { cwd: os.tmpdir(), baseEnv: process.env, owned });
    cleanups.push(() => a.kill());
    return a;
  }

  it('tells observers about groups added before and after, and removes only the same entry', () => {
    const owned = new OwnedProcesses();
    const seen: string[] = [];
    const entry = (pgid: number) => ({ pgid, startTime: undefined, kind: 'agent' as const, stop: () => Promise.resolve() });
    const first = entry(10);
    owned.add(first);
    const sub = owned.observe({ added: (g) => seen.push(`+${g.pgid}`), removed: (pgid) => seen.push(`-${pgid}`) });
    owned.add(entry(20));
    owned.remove(entry(10)); // another object with the same id: ignored
    owned.remove(first);
    sub.dispose();
    owned.add(entry(30));
    assert.deepEqual(seen, ['+10', '+20', '-10']);
    assert.deepEqual(owned.all.map((g) => g.pgid), [20, 30]);
  });

  it('an agent registers its group with its start time while it runs, and leaves once it is gone', async () => {
    const owned = new OwnedProcesses();
    const a = await agent(owned, 'echoAgent');
    assert.deepEqual(owned.all.map((g) => [g.pgid, g.kind, g.startTime]), [[a.pid, 'agent', processStartTime(a.pid)]]);
    await a.stop();
    assert.equal(owned.has(a.pid), false);
  });

  it('the fast shutdown ends a stubborn agent and an agent with a stubborn child within 3 s', async () => {
    const owned = new OwnedProcesses();
    const stubborn = await agent(owned, 'stubbornAgent');
    const tree = await agent(owned, 'treeAgent');
    const { grandchild } = JSON.parse(await readLine(tree.stdout)) as { grandchild: number };
    const started = Date.now();
    await within(owned.stopAll(shutdownGraceMs), 3000, 'the shutdown');
    const took = Date.now() - started;
    for (const pid of [stubborn.pid, tree.pid, grandchild]) assert.equal(isProcessAlive(pid), false, `pid ${pid} still runs after ${took} ms`);
    assert.deepEqual(owned.all, []);
    // it ended by signals, not by the EOF it ignores
    assert.equal(stubborn.exit?.signal, 'SIGKILL');
  });

  it('a shutdown during a slow stop (a restart) does not wait for the slow grace', async () => {
    const owned = new OwnedProcesses();
    const a = await AgentProcess.spawn(nodeAgent('stubbornAgent'), { cwd: os.tmpdir(), baseEnv: process.env, owned, graceMs: 5000 });
    cleanups.push(() => a.kill());
    void a.stop();
    await within(owned.stopAll(shutdownGraceMs), 3000, 'the shutdown');
    assert.equal(a.hasExited, true);
  });

  it('a shutdown during a slow terminal kill (the terminal was closed) does not wait for the slow grace', async () => {
    const owned = new OwnedProcesses();
    const t = TerminalProcess.start({ command: process.execPath, args: [fixtureScript('stubbornAgent')], cwd: os.tmpdir(), baseEnv: process.env, owned, graceMs: 5000 });
    cleanups.push(() => t.kill(0));
    await t.started;
    await readLineOf(t);
    void t.kill();
    await within(owned.stopAll(shutdownGraceMs), 3000, 'the shutdown');
    assert.ok(await waitUntilGone(t.pid ?? -1, 100), 'the terminal command still runs');
  });

  it('terminal commands are registered and the fast shutdown ends them too', async () => {
    const owned = new OwnedProcesses();
    const t = TerminalProcess.start({ command: process.execPath, args: [fixtureScript('stubbornAgent')], cwd: os.tmpdir(), baseEnv: process.env, owned });
    cleanups.push(() => t.kill(0));
    await t.started;
    const pid = t.pid ?? -1;
    assert.deepEqual(owned.all.map((g) => [g.pgid, g.kind]), [[pid, 'terminal']]);
    await within(owned.stopAll(shutdownGraceMs), 3000, 'the shutdown');
    assert.ok(await waitUntilGone(pid, 100), 'the terminal command still runs');
    assert.deepEqual(owned.all, []);
  });
});
