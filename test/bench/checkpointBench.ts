/**
 * Benchmark of checkpoints (docs/checkpoints.md), in plain node with the real `git`: a
 * generated workspace of 10,000 files / 200 MB (100 folders of 100 files of about 20 KB of base64 text).
 *
 * | figure | target | baseline, same run |
 * |---|---|---|
 * | first checkpoint | ≤ 10 s | `cp -r` of the tree |
 * | checkpoint with 20 files changed since the last | ≤ 300 ms (median of 5) | `git status` of the same tree in a real repository (warm index) |
 * | restore of 20 files (with its undo checkpoint) | ≤ 500 ms (median of 5) | writing the 20 files with `fs.writeFile` |
 * | storage of 50 checkpoints × 20 rewritten files | ≤ 2× the bytes written | the bytes written |
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../src/checkpoints/checkpointStore';
import { SessionCheckpoints } from '../../src/checkpoints/sessionCheckpoints';

const folders = 100;
const perFolder = 100;
const fileBytes = 15_000; // random bytes per file: 20,000 characters of base64 with line breaks

function content(): string {
  return randomBytes(fileBytes).toString('base64').replace(/(.{76})/g, '$1\n');
}

function generate(root: string): number {
  let total = 0;
  for (let d = 0; d < folders; d++) {
    fs.mkdirSync(path.join(root, `d${d}`), { recursive: true });
    for (let f = 0; f < perFolder; f++) {
      const text = content();
      fs.writeFileSync(path.join(root, `d${d}`, `f${f}.txt`), text);
      total += text.length;
    }
  }
  return total;
}

/** Rewrites 20 files spread over the folders with new content; returns the bytes written and the paths. */
function change20(root: string, round: number): { bytes: number; files: string[] } {
  let bytes = 0;
  const files: string[] = [];
  for (let i = 0; i < 20; i++) {
    const file = path.join(root, `d${(i * 5 + round) % folders}`, `f${(i * 7 + round * 3) % perFolder}.txt`);
    const text = content();
    fs.writeFileSync(file, text);
    bytes += text.length;
    files.push(file);
  }
  return { bytes, files };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const mbText = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Runs the benchmark; lines to print and whether every target was met. */
export async function runCheckpointBenchmark(): Promise<{ lines: string[]; ok: boolean }> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cp-bench-'));
  const root = path.join(base, 'ws');
  const lines: string[] = [];
  let ok = true;
  const check = (name: string, value: string, met: boolean, target: string, baseline: string) => {
    ok &&= met;
    lines.push(`  ${name.padEnd(52)} ${value.padStart(12)}  (target ${target}) ${met ? 'met' : 'MISSED'}   baseline: ${baseline}`);
  };
  try {
    const t0 = performance.now();
    const bytes = generate(root);
    lines.push(`Benchmark: checkpoints of ${(folders * perFolder).toLocaleString('en-US')} files / ${mbText(bytes)} (generated in ${ms(performance.now() - t0)}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores)`);

    const c0 = performance.now();
    execFileSync('cp', ['-r', root, path.join(base, 'copy')]);
    const cpMs = performance.now() - c0;
    fs.rmSync(path.join(base, 'copy'), { recursive: true, force: true });

    const storeDir = path.join(base, 'store');
    const store = new CheckpointStore({ dir: storeDir, maxFileBytes: () => 5 * 1024 * 1024, maxStorageBytes: () => 10 * 1024 * 1024 * 1024 });
    const cps = new SessionCheckpoints(store, 'bench\u0000s1', () => [root]);
    const f0 = performance.now();
    await cps.take('turn', 'e0');
    const firstMs = performance.now() - f0;
    check('first checkpoint', ms(firstMs), firstMs <= 10_000, '≤ 10 s', `cp -r ${ms(cpMs)}`);

    // a real repository of the same tree with a warm index, sharing the shadow repository's objects
    const shadow = fs.readdirSync(path.join(storeDir, 'repos'))[0];
    const gitDir = path.join(storeDir, 'repos', shadow);
    const userGit = path.join(base, 'user.git');
    execFileSync('git', ['init', '-q', '--bare', userGit]);
    fs.writeFileSync(path.join(userGit, 'objects', 'info', 'alternates'), `${path.join(gitDir, 'objects')}\n`);
    fs.copyFileSync(path.join(gitDir, 'switchboard.index'), path.join(userGit, 'index'));
    const baseCommit = cps.all[0].commits[root];
    execFileSync('git', ['--git-dir', userGit, 'update-ref', 'HEAD', baseCommit]);
    const status = () => {
      const s = performance.now();
      execFileSync('git', ['--git-dir', userGit, '--work-tree', root, 'status', '--porcelain', '--untracked-files=all'], { maxBuffer: 1e9 });
      return performance.now() - s;
    };
    status();

    const incr: number[] = [];
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      change20(root, round);
      statuses.push(status());
      const s = performance.now();
      await cps.take('turn', `e${round + 1}`);
      incr.push(performance.now() - s);
    }
    check('checkpoint, 20 files changed since the last (median)', ms(median(incr)), median(incr) <= 300, '≤ 300 ms', `git status ${ms(median(statuses))} (runs: ${incr.map((x) => Math.round(x)).join(', ')} ms)`);

    const restores: number[] = [];
    const writes: number[] = [];
    for (let round = 0; round < 5; round++) {
      const target = (await cps.take('turn', `r${round}`)).id;
      const { files } = change20(root, round + 10);
      const w = performance.now();
      for (const f of files) fs.writeFileSync(f, fs.readFileSync(f));
      writes.push(performance.now() - w);
      const s = performance.now();
      const plan = await cps.planRestore(target);
      const result = await cps.restore(plan);
      restores.push(performance.now() - s);
      if (result.files.length !== 20) throw new Error(`the restore changed ${result.files.length} files, not 20`);
    }
    check('restore of 20 files, with its undo checkpoint (median)', ms(median(restores)), median(restores) <= 500, '≤ 500 ms', `fs.writeFile of the 20 files ${ms(median(writes))} (runs: ${restores.map((x) => Math.round(x)).join(', ')} ms)`);

    const before = store.size();
    let written = 0;
    for (let round = 0; round < 50; round++) {
      written += change20(root, round + 20).bytes;
      await cps.take('turn', `s${round}`);
    }
    const grown = store.size() - before;
    const ratio = grown / written;
    check('storage of 50 checkpoints × 20 rewritten files', `${ratio.toFixed(2)}×`, ratio <= 2, '≤ 2× the bytes written', `${mbText(written)} written, the store grew ${mbText(grown)} (disk blocks)`);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { lines, ok };
}

if (require.main === module) {
  void runCheckpointBenchmark().then((r) => {
    for (const line of r.lines) console.log(line);
    if (!r.ok) process.exitCode = 1;
  });
}
