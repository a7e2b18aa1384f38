/**
 * Benchmark of a session's worktree (src/worktrees), in plain node with the real `git`: a generated repository
 * of 10,000 small files (100 folders of 100 files), committed.
 *
 * | figure | target | baseline, same run |
 * |---|---|---|
 * | worktree ready: `WorktreeGit.add` + `changes` right after (median of 5) | ≤ 1 s | plain `git worktree add` via `execFile` |
 */
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { WorktreeGit } from '../../src/worktrees/worktreeGit';

const folders = 100;
const perFolder = 100;
const rounds = 5;
const run = promisify(execFile);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;

/** Runs the benchmark; lines to print and whether every target was met. */
export async function runWorktreeBenchmark(): Promise<{ lines: string[]; ok: boolean }> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-wt-bench-')));
  const top = path.join(base, 'repo');
  const lines: string[] = [];
  let ok = true;
  const saved = { nosystem: process.env.GIT_CONFIG_NOSYSTEM, global: process.env.GIT_CONFIG_GLOBAL };
  // the machine's git config aside, for ours and the baseline alike
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  process.env.GIT_CONFIG_GLOBAL = os.devNull;
  try {
    const t0 = performance.now();
    for (let d = 0; d < folders; d++) {
      fs.mkdirSync(path.join(top, `d${d}`), { recursive: true });
      for (let f = 0; f < perFolder; f++) fs.writeFileSync(path.join(top, `d${d}`, `f${f}.txt`), `folder ${d} file ${f}\n${'x'.repeat(200)}\n`);
    }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: top, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1e9 }).toString('utf8');
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Bench');
    git('config', 'user.email', 'bench@example.invalid');
    git('add', '-A');
    git('commit', '-q', '-m', 'files');
    const head = git('rev-parse', 'HEAD').trim();
    lines.push(`Benchmark: a session's worktree of a ${(folders * perFolder).toLocaleString('en-US')}-file repository (generated in ${ms(performance.now() - t0)}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores)`);

    const wg = new WorktreeGit();
    const plain: number[] = [];
    const added: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // alternate which goes first, so neither always gets the warmer cache
      const baseline = async () => {
        const where = path.join(base, 'wts', `plain-${i}`);
        const s = performance.now();
        await run('git', ['worktree', 'add', '-q', '-b', `plain-${i}`, where, head], { cwd: top });
        plain.push(performance.now() - s);
      };
      const ours = async () => {
        const where = path.join(base, 'wts', 'repo-00000000', `switchboard-bench-${i}`);
        const s = performance.now();
        await wg.add({ top, path: where, branch: `switchboard/bench-${i}`, base: head });
        added.push(performance.now() - s);
        const changes = await wg.changes(where, head);
        ready.push(performance.now() - s);
        if (changes.length) throw new Error(`a new worktree has ${changes.length} changes`);
      };
      if (i % 2) {
        await ours();
        await baseline();
      } else {
        await baseline();
        await ours();
      }
    }
    const readyMs = median(ready);
    const plainMs = median(plain);
    const met = readyMs <= 1_000;
    ok &&= met;
    lines.push(`  ${'worktree ready: add + changes (median of 5)'.padEnd(52)} ${ms(readyMs).padStart(12)}  (target ≤ 1 s) ${met ? 'met' : 'MISSED'}   baseline: git worktree add ${ms(plainMs)}, ratio ${(readyMs / plainMs).toFixed(2)}× (runs: ${ready.map((x) => Math.round(x)).join(', ')} ms)`);
    lines.push(`  ${'  of which WorktreeGit.add (median of 5)'.padEnd(52)} ${ms(median(added)).padStart(12)}  ratio ${(median(added) / plainMs).toFixed(2)}× the baseline`);
  } finally {
    for (const [k, v] of [['GIT_CONFIG_NOSYSTEM', saved.nosystem], ['GIT_CONFIG_GLOBAL', saved.global]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { lines, ok };
}

if (require.main === module) {
  void runWorktreeBenchmark().then((r) => {
    for (const line of r.lines) console.log(line);
    if (!r.ok) process.exitCode = 1;
  });
}
