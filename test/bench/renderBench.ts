/**
 * The chat render benchmark for `npm run bench`: runs test/bench/renderBench.mjs (headless Chromium
 * driving the real dist/webview/main.js with snapshot + delta wire messages, against a naive whole-message
 * re-render baseline in the same run) and returns its lines.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** The repository root (this file runs from out/test/bench). */
const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Runs the render benchmark; resolves with its report lines and whether it ran to the end. */
export async function runRenderBenchmark(): Promise<{ ok: boolean; lines: string[] }> {
  const out: string[] = [];
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'test', 'bench', 'renderBench.mjs')], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => out.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => out.push(d.toString()));
    child.on('error', (e) => { out.push(String(e)); resolve(1); });
    child.on('close', (c) => resolve(c ?? 1));
  });
  // the browser's own diagnostics ("[pid=…]") are noise unless something failed
  const lines = out.join('').split('\n').filter((l) => l && (code !== 0 || !l.startsWith('[pid=')));
  return { ok: code === 0, lines: code === 0 ? lines : [...lines.slice(-60), 'FAIL the render benchmark did not finish'] };
}
