/**
 * Runs the extension-host benchmarks (test/bench/extensionHost) for `npm run bench`: spawns
 * test/harness/runHostBench.mjs (the real VS Code, as the integration tests use it), and returns the
 * benchmark lines; the harness's own output is shown only when something failed.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root (this file runs from out/test/bench). */
const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Runs the extension-host benchmarks; resolves with their lines and whether they all ran. */
export async function runHostBenchmarks(): Promise<{ ok: boolean; lines: string[] }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-hostbench-'));
  const json = path.join(tmp, 'bench.json');
  const output: string[] = [];
  try {
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [path.join(repoRoot, 'test', 'harness', 'runHostBench.mjs')], {
        cwd: repoRoot, env: { ...process.env, SWITCHBOARD_BENCH_JSON: json }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
      child.on('error', (e) => { output.push(String(e)); resolve(1); });
      child.on('close', (c) => resolve(c ?? 1));
    });
    let lines: string[] = [];
    try {
      const res = JSON.parse(fs.readFileSync(json, 'utf8')) as { versions: { lines: string[] }[] };
      lines = res.versions.flatMap((v) => v.lines);
    } catch {
      lines = ['FAIL the extension-host benchmarks wrote no results'];
    }
    if (code !== 0) lines.push('  harness output:', ...output.join('').split('\n').slice(-40).map((l) => `    ${l}`));
    return { ok: code === 0, lines };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs the session switching benchmark (test/bench/sessionSwitchBench.mjs: the workbench in Chromium) and
 * returns its output lines; it prints its own figures and target.
 */
export function runSessionSwitchBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('sessionSwitchBench.mjs', 'the session switching benchmark');
}

/**
 * Runs the end-to-end streaming benchmark (test/bench/e2eStreamBench.mjs: the user's figure, in the
 * workbench) and returns its output lines; it prints its own figures, targets and baselines.
 */
export function runStreamBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('e2eStreamBench.mjs', 'the end-to-end streaming benchmark');
}

/**
 * Runs the large tool content benchmark (test/bench/largeToolBench.mjs: 5 MB of tool output, turn end → Ready, in
 * the workbench) and returns its output lines; it prints its own figures, target and baseline.
 */
export function runLargeToolBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('largeToolBench.mjs', 'the large tool content benchmark');
}

/**
 * Runs the first-use benchmark (test/bench/firstPickerBench.mjs: the first New Session picker and activation,
 * each in fresh windows) and returns its output lines; it prints its own figures, targets and baselines.
 */
export function runFirstPickerBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('firstPickerBench.mjs', 'the first-use benchmark');
}

/**
 * Runs the first permission card benchmark (test/bench/firstCardBench.mjs: Enter → the first card of a fresh window,
 * against a later card of the same window) and returns its output lines; it prints its own figures, target and baseline.
 */
export function runFirstCardBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('firstCardBench.mjs', 'the first permission card benchmark');
}

/** A day in one chat (100 turns) in a fresh window: test/bench/dayBench.mjs. */
export function runDayBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('dayBench.mjs', 'the day-in-one-chat benchmark');
}

/**
 * Ask Several Agents (issue 31): long tasks while a fan-out of 3 runs, and extension-host memory per extra worktree
 * session, each against its baseline in the same run: test/bench/worktreeFanOutBench.mjs.
 */
export function runWorktreeFanOutBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  return runWorkbenchBenchmark('worktreeFanOutBench.mjs', 'the Ask Several Agents benchmark');
}

/** Runs one of the benchmarks that drive the workbench in Chromium (a script in test/bench). */
async function runWorkbenchBenchmark(script: string, what: string): Promise<{ ok: boolean; lines: string[] }> {
  const output: string[] = [];
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'test', 'bench', script)], {
      cwd: repoRoot, env: process.env, stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', (e) => { output.push(String(e)); resolve(1); });
    child.on('close', (c) => resolve(c ?? 1));
  });
  const lines = output.join('').split('\n').filter((l) => l.trim());
  return { ok: code === 0, lines: code === 0 || lines.length ? lines : [`FAIL ${what} did not run`] };
}
