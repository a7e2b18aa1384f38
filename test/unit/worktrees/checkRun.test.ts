import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { runCheck } from '../../../src/worktrees/checkRun';
import { tempDir } from './worktreeFixtures';

describe('worktrees: running the user\'s check command (src/worktrees/checkRun.ts)', function () {
  this.timeout(20_000);
  let dir = '';
  beforeEach(() => {
    dir = tempDir('check');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** True while a process of this pid runs (a zombie nobody reaped, as in a container without init, does not). */
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
    return !/^\d+ \(.*\) Z /s.test(stat);
  };

  it('a passing check: exit 0, its output, in its folder, through a shell', async () => {
    fs.writeFileSync(`${dir}/marker.txt`, 'here');
    const r = await runCheck('cat marker.txt && echo " ok" | tr a-z A-Z', dir);
    assert.deepEqual([r.exitCode, r.output, r.timedOut], [0, 'here OK\n', false]);
    assert.ok(r.durationMs >= 0 && r.durationMs < 10_000);
  });

  it('a failing check: its exit code, stdout and stderr together', async () => {
    const r = await runCheck('echo out; echo err >&2; exit 3', dir);
    assert.equal(r.exitCode, 3);
    assert.match(r.output, /out\n/);
    assert.match(r.output, /err\n/);
    assert.equal(r.timedOut, false);
  });

  it('a check that takes too long is stopped, with what it started', async () => {
    const pidFile = `${dir}/child.pid`;
    const r = await runCheck(`echo started; sleep 30 & echo $! > ${pidFile}; wait`, dir, { timeoutMs: 300 });
    assert.equal(r.timedOut, true);
    assert.notEqual(r.exitCode, 0);
    assert.match(r.output, /started/);
    assert.ok(r.durationMs < 5_000, `${r.durationMs} ms`);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(alive(pid), false, 'the sleep it started in the background is gone too');
  });

  it('an abort stops it; something left running after the shell exits does not hold the result', async () => {
    const ac = new AbortController();
    const running = runCheck('sleep 30', dir, { signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const r = await running;
    assert.equal(r.timedOut, false);
    assert.notEqual(r.exitCode, 0);
    assert.ok(r.durationMs < 5_000, `${r.durationMs} ms`);

    const s = performance.now();
    const bg = await runCheck('(sleep 30 &); echo done', dir);
    assert.deepEqual([bg.exitCode, bg.output], [0, 'done\n']);
    assert.ok(performance.now() - s < 5_000, 'did not wait for the background sleep');
  });

  it('keeps the tail of a long output, at most maxOutput bytes', async () => {
    const r = await runCheck('i=0; while [ $i -lt 3000 ]; do echo "line $i of the output"; i=$((i+1)); done; echo FAILED: the last test >&2', dir, { maxOutput: 1000 });
    assert.ok(Buffer.byteLength(r.output) <= 1000, `${Buffer.byteLength(r.output)} bytes`);
    assert.ok(Buffer.byteLength(r.output) > 900);
    assert.match(r.output, /line 2999 of the output\nFAILED: the last test\n$/);
    const utf = await runCheck('i=0; while [ $i -lt 500 ]; do printf "ééé"; i=$((i+1)); done', dir, { maxOutput: 100 });
    assert.ok(!utf.output.includes('\ufffd') && /^é+$/.test(utf.output), 'never half a character');
  });

  it('a folder that does not exist: a failed check, not an exception', async () => {
    const r = await runCheck('true', `${dir}/missing`);
    assert.equal(r.exitCode, -1);
    assert.match(r.output, /ENOENT/);
  });
});
