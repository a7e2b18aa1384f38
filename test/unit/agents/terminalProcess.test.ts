import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isProcessAlive, listProcesses } from '../../../src/agents/processTree';
import {
  displayCommand, needsShell, planTerminalCommand, posixShellFor, TerminalProcess, terminalEnv, type TerminalProcessOptions,
} from '../../../src/agents/terminalProcess';
import { tempDir, waitUntilGone, within } from './processFixtures';

const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };
const posixOnly = process.platform === 'win32' ? describe.skip : describe;

describe('terminal command planning', () => {
  it('runs command + args without a shell', () => {
    assert.deepEqual(planTerminalCommand('npm', ['test', '--coverage'], {}, 'linux'),
      { file: 'npm', args: ['test', '--coverage'], viaShell: false, windowsVerbatimArguments: false });
    // args given: even a command with spaces is a program path, not a command line
    assert.equal(planTerminalCommand('/opt/My Tools/run', ['x'], {}, 'linux').viaShell, false);
  });

  it('runs a plain program name without args directly', () => {
    assert.deepEqual(planTerminalCommand('ls', undefined, {}, 'linux'), { file: 'ls', args: [], viaShell: false, windowsVerbatimArguments: false });
    assert.equal(planTerminalCommand('/usr/bin/env', [], {}, 'linux').viaShell, false);
  });

  it('runs a command line (spaces or shell syntax, no args) through the user\'s POSIX shell', () => {
    assert.deepEqual(planTerminalCommand('npm test && echo ok', undefined, { SHELL: '/bin/bash' }, 'linux'),
      { file: '/bin/bash', args: ['-c', 'npm test && echo ok'], viaShell: true, windowsVerbatimArguments: false });
    assert.equal(planTerminalCommand('echo $HOME', [], { SHELL: '/usr/bin/zsh' }, 'linux').file, '/usr/bin/zsh');
    for (const line of ['a|b', 'x>y', 'echo "q"', 'ls *.ts', 'FOO=1 env', 'a;b', 'cat <<EOF', 'echo `date`', 'cd ~']) {
      assert.equal(needsShell(line, 'linux'), true, line);
    }
    assert.equal(needsShell('node', 'linux'), false);
    assert.equal(needsShell('./scripts/build.sh', 'linux'), false);
  });

  it('falls back to /bin/sh when $SHELL is not a POSIX shell (fish, nu) or missing', () => {
    assert.equal(posixShellFor({ SHELL: '/usr/bin/fish' }), '/bin/sh');
    assert.equal(posixShellFor({ SHELL: 'bash' }), '/bin/sh', 'a relative SHELL is not trusted');
    assert.equal(posixShellFor({}), '/bin/sh');
    assert.equal(posixShellFor({ SHELL: '/bin/dash' }), '/bin/dash');
  });

  it('uses cmd.exe /d /s /c on Windows, verbatim', () => {
    assert.deepEqual(planTerminalCommand('npm test && echo ok', undefined, { ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, 'win32'),
      { file: 'C:\\Windows\\system32\\cmd.exe', args: ['/d', '/s', '/c', '"npm test && echo ok"'], viaShell: true, windowsVerbatimArguments: true });
    assert.equal(planTerminalCommand('C:\\tools\\run.exe', undefined, {}, 'win32').viaShell, false, 'backslashes are separators on Windows');
  });

  it('merges the agent\'s env over the base and drops host-only variables', () => {
    const env = terminalEnv({ PATH: '/bin', FOO: 'base', KEEP: 'k', ELECTRON_RUN_AS_NODE: '1', PWD: '/elsewhere' }, [{ name: 'FOO', value: 'agent' }, { name: 'NEW', value: 'n' }], '/work', 'linux');
    assert.deepEqual(env, { PATH: '/bin', FOO: 'agent', KEEP: 'k', PWD: '/work', NEW: 'n' });
  });

  it('names the command on one line', () => {
    assert.equal(displayCommand('npm', ['test', '--coverage']), 'npm test --coverage');
    assert.equal(displayCommand('sh', ['-c', "trap '' TERM"]), `sh -c "trap '' TERM"`);
    assert.equal(displayCommand('echo a\necho b'), 'echo a echo b');
  });
});

posixOnly('TerminalProcess', function () {
  this.timeout(15000);
  const started: TerminalProcess[] = [];
  let tmp: ReturnType<typeof tempDir>;
  const start = (o: Partial<TerminalProcessOptions> & { command: string }) => {
    const p = TerminalProcess.start({ cwd: tmp.dir, baseEnv, graceMs: 500, ...o });
    started.push(p);
    return p;
  };
  const run = async (o: Partial<TerminalProcessOptions> & { command: string }) => {
    const p = start(o);
    const exit = await within(p.waitForExit(), 5000, `exit of ${o.command}`);
    return { exit, output: p.output.read(true).output, p };
  };

  beforeEach(() => { tmp = tempDir('switchboard-terminal-'); });
  afterEach(async () => {
    // never leave a process behind, whatever a test did
    await Promise.all(started.splice(0).map((p) => p.kill()));
    tmp.remove();
  });

  it('runs command + args without a shell: no expansion, spaces kept', async () => {
    const { exit, output } = await run({ command: 'printf', args: ['%s|', 'a b', '$HOME', '*'] });
    assert.deepEqual(exit, { exitCode: 0, signal: null });
    assert.equal(output, 'a b|$HOME|*|');
  });

  it('runs a whole command line through the shell', async () => {
    const { exit, output } = await run({ command: 'echo one && echo two | tr a-z A-Z; exit 3' });
    assert.equal(output, 'one\nTWO\n');
    assert.deepEqual(exit, { exitCode: 3, signal: null });
  });

  it('runs in cwd (default of the caller), with PWD set', async () => {
    const { output } = await run({ command: 'pwd' });
    assert.equal(output.trim(), tmp.dir);
    const sub = path.dirname(tmp.dir);
    const second = await run({ command: 'echo "$PWD"; pwd', cwd: sub });
    assert.equal(second.output, `${sub}\n${sub}\n`);
  });

  it('merges env over the base environment', async () => {
    const { output } = await run({
      command: 'echo "$FOO/$KEEP/${ELECTRON_RUN_AS_NODE:-unset}"',
      baseEnv: { ...baseEnv, FOO: 'base', KEEP: 'kept', ELECTRON_RUN_AS_NODE: '1' },
      env: [{ name: 'FOO', value: 'agent' }],
    });
    assert.equal(output, 'agent/kept/unset\n');
  });

  it('interleaves stdout and stderr in one output', async () => {
    const { output } = await run({ command: 'sh', args: ['-c', 'echo out1; sleep 0.05; echo err >&2; sleep 0.05; echo out2'] });
    assert.equal(output, 'out1\nerr\nout2\n');
  });

  it('reports a signal as the exit status', async () => {
    const { exit } = await run({ command: 'sh', args: ['-c', 'kill -KILL $$'] });
    assert.deepEqual(exit, { exitCode: null, signal: 'SIGKILL' });
  });

  it('a command that cannot start (ENOENT) exits 127 with the reason in its output, like a shell', async () => {
    const { exit, output } = await run({ command: 'no-such-command-switchboard', args: ['--x'] });
    assert.deepEqual(exit, { exitCode: 127, signal: null });
    assert.match(output, /Cannot find 'no-such-command-switchboard' on PATH/);
    const viaShell = await run({ command: 'no-such-command-switchboard --x' });
    assert.equal(viaShell.exit.exitCode, 127);
    assert.match(viaShell.output, /no-such-command-switchboard.*not found/);
  });

  it('a missing cwd exits 127 naming the directory', async () => {
    const missing = path.join(tmp.dir, 'gone');
    const { exit, output } = await run({ command: 'sh', args: ['-c', 'true'], cwd: missing });
    assert.equal(exit.exitCode, 127);
    assert.match(output, /working directory '.*gone' does not exist/);
  });

  it('honours outputByteLimit', async () => {
    const { output, p } = await run({ command: 'sh', args: ['-c', 'i=0; while [ $i -lt 200 ]; do printf "€"; i=$((i+1)); done'], outputByteLimit: 10 });
    assert.equal(output, '€€€');
    assert.equal(p.output.read(true).truncated, true);
  });

  it('serves several waiters, and a wait after the exit', async () => {
    const p = start({ command: 'sh', args: ['-c', 'sleep 0.2; exit 4'] });
    const all = await within(Promise.all([p.waitForExit(), p.waitForExit(), p.waitForExit()]), 5000, 'three waiters');
    assert.deepEqual(all, [{ exitCode: 4, signal: null }, { exitCode: 4, signal: null }, { exitCode: 4, signal: null }]);
    assert.deepEqual(await p.waitForExit(), { exitCode: 4, signal: null });
    assert.deepEqual(p.exitStatus, { exitCode: 4, signal: null });
  });

  it('streams output as it comes', async () => {
    const p = start({ command: 'sh', args: ['-c', 'echo first; sleep 5'] });
    const first = await within(new Promise<string>((resolve) => p.onData((c) => resolve(c.toString()))), 3000, 'first output');
    assert.equal(first, 'first\n');
    assert.equal(p.exitStatus, undefined);
    await p.kill();
  });

  it('kill ends a process that ignores SIGTERM and its child, SIGKILL after the grace time', async () => {
    const p = start({ command: 'sh', args: ['-c', "trap '' TERM; sleep 100 & sleep 100"], graceMs: 2000 });
    await p.started;
    const pid = p.pid;
    assert.ok(pid !== undefined);
    const tree = await within((async () => {
      for (;;) {
        const members = (await listProcesses()).filter((x) => x.pgid === pid);
        if (members.length >= 3) return members.map((x) => x.pid);
        await new Promise((r) => setTimeout(r, 20));
      }
    })(), 3000, 'sh and its two sleeps');
    const t0 = Date.now();
    await p.kill();
    const took = Date.now() - t0;
    assert.ok(took >= 1900, `SIGKILL came after the grace time (${took} ms)`);
    for (const child of tree) assert.ok(await waitUntilGone(child, 1000), `pid ${child} is gone`);
    assert.deepEqual(await within(p.waitForExit(), 2000, 'exit'), { exitCode: null, signal: 'SIGKILL' });
  });

  it('kill of a cooperative process is quick (SIGTERM)', async () => {
    const p = start({ command: 'sleep', args: ['100'] });
    await p.started;
    const t0 = Date.now();
    await p.kill();
    assert.ok(Date.now() - t0 < 1000);
    assert.deepEqual(p.exitStatus, { exitCode: null, signal: 'SIGTERM' });
  });

  it('kill after the exit ends background children left in the process group', async () => {
    const p = start({ command: 'sh', args: ['-c', 'sleep 100 & echo $!'] });
    const exit = await within(p.waitForExit(), 3000, 'exit');
    assert.equal(exit.exitCode, 0);
    const leftover = Number(p.output.read().output.trim());
    assert.ok(leftover > 1 && isProcessAlive(leftover), 'the background sleep still runs');
    await p.kill();
    assert.ok(await waitUntilGone(leftover, 1000), 'the background sleep is gone');
  });

  it('kill before the process started ends it without starting it', async () => {
    let resolveEnv!: (env: Record<string, string>) => void;
    const p = start({ command: 'sleep', args: ['100'], baseEnv: new Promise((r) => (resolveEnv = r)) });
    const killed = p.kill();
    resolveEnv(baseEnv);
    await within(killed, 3000, 'kill');
    assert.equal(p.pid, undefined);
    assert.deepEqual(await p.waitForExit(), { exitCode: null, signal: 'SIGTERM' });
  });

  it('dispose kills a running command', async () => {
    const p = start({ command: 'sleep', args: ['100'] });
    await p.started;
    const pid = p.pid;
    assert.ok(pid);
    p.dispose();
    assert.ok(await waitUntilGone(pid, 3000));
  });
});
