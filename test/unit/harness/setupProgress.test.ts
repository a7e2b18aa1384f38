import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// issue 26: the first `npm start` builds code-server's native modules for minutes; setup.sh's
// run_with_progress (test/harness/progress.sh) prints a line every few seconds while such a step runs.

const progressSh = path.resolve(__dirname, '../../../../test/harness/progress.sh');

function run(command: string): { out: string; status: number | null; ms: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-progress-'));
  const script = `say() { echo "[setup] $*"; }; source "$1"; run_with_progress "building" "$2/log" bash -c "$3"; echo "status $?"`;
  const t0 = Date.now();
  const r = spawnSync('bash', ['-c', script, 'test', progressSh, dir, command], { encoding: 'utf8', env: { ...process.env, SWITCHBOARD_SETUP_PROGRESS_SECS: '1' } });
  const ms = Date.now() - t0;
  const log = fs.readFileSync(path.join(dir, 'log'), 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  assert.match(log, /step one/, 'the command\'s output goes to the log');
  return { out: r.stdout, status: r.status, ms };
}

describe('harness / setup.sh progress lines', function () {
  this.timeout(20_000);

  it('prints the time so far and the log\'s last line every few seconds while a step runs, and its exit status', () => {
    const { out } = run('echo step one; sleep 2.5; exit 3');
    const lines = out.split('\n').filter((l) => l.includes('… building:'));
    assert.ok(lines.length >= 2, `a line a second: ${out}`);
    assert.match(lines[0], /^\[setup\] {3}… building: \d+s so far \(log: step one\)$/);
    assert.match(out, /status 3\n$/, 'the step\'s exit status is returned');
  });

  it('says nothing for a quick step and returns as soon as it ends', () => {
    const { out, ms } = run('echo step one');
    assert.equal(out, 'status 0\n');
    assert.ok(ms < 900, `returned after ${ms} ms`);
  });
});
