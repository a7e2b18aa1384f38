/**
 * Benchmark: a transcript search (src/host/history/transcriptSearch.ts, what Search Sessions and Switch Session run)
 * over 200 stored sessions of 500 entries each, in the real extension host, against a baseline measured in the same
 * run: the naive search that loads every session whole (readTranscript, as opening one does), then looks through
 * their entries. Time: the median of the rounds; memory: the largest growth of the extension host's heap and
 * buffers during a round over what it used before it (sampled every millisecond; no GC can be forced here).
 * Targets: ≤ 200 ms and ≤ 20 MB.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readTranscript } from '../../../src/host/history/transcriptLog';
import { searchTranscripts, type SearchTarget } from '../../../src/host/history/transcriptSearch';
import { writeCorpus } from '../../fixtures/transcriptCorpus';

const sessions = Number(process.env.BENCH_SEARCH_SESSIONS ?? 200);
const entries = Number(process.env.BENCH_SEARCH_ENTRIES ?? 500);
const rounds = Number(process.env.BENCH_SEARCH_ROUNDS ?? 7);
const targetMs = 200;
const targetMb = 20;

/**
 * The naive search: every session loaded whole (read and parsed, as opening one does), then their entries' texts
 * looked through.
 */
async function naiveSearch(targets: readonly SearchTarget[], query: string): Promise<string[]> {
  const q = query.toLowerCase();
  const loaded = [];
  for (const t of targets) {
    loaded.push({ t, transcript: readTranscript(t.file) });
    await new Promise((r) => setImmediate(r)); // lets the memory sampler run, as the real search does between reads
  }
  return loaded.filter(({ transcript }) => [transcript?.title ?? '', ...(transcript?.entries ?? []).map((e) => JSON.stringify(e))]
    .some((x) => x.toLowerCase().includes(q))).map(({ t }) => t.sessionId);
}

function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/** Runs `fn` `rounds` times; the median time and the largest memory growth during a round. */
async function measure(fn: () => Promise<unknown>): Promise<{ ms: number; mb: number }> {
  await fn(); // warm-up
  const times: number[] = [];
  let growth = 0;
  for (let i = 0; i < rounds; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const base = used();
    let peak = base;
    const sampler = setInterval(() => { peak = Math.max(peak, used()); }, 1);
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
    clearInterval(sampler);
    peak = Math.max(peak, used());
    growth = Math.max(growth, peak - base);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, mb: growth / 1024 / 1024 };
}

/** Runs the benchmark; returns the lines to print. */
export async function benchTranscriptSearch(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-search-bench-'));
  try {
    const planted = new Map([[17, 'zeppelin'], [90, 'Zeppelin'], [180, 'zeppelin']]);
    const targets = writeCorpus(dir, sessions, entries, planted);
    const bytes = targets.reduce((n, t) => n + fs.statSync(t.file).size, 0);
    const expected = [...planted.keys()].map((s) => `bench-${String(s).padStart(4, '0')}`).sort();
    const ours = async () => {
      const found = (await searchTranscripts(targets, 'zeppelin')).map((m) => m.sessionId).sort();
      if (JSON.stringify(found) !== JSON.stringify(expected)) throw new Error(`the search found ${JSON.stringify(found)}`);
    };
    const naive = async () => {
      const found = (await naiveSearch(targets, 'zeppelin')).sort();
      if (JSON.stringify(found) !== JSON.stringify(expected)) throw new Error(`the naive search found ${JSON.stringify(found)}`);
    };
    const none = () => searchTranscripts(targets, 'no such word anywhere');
    const a = await measure(ours);
    const b = await measure(naive);
    const c = await measure(none);
    const ok = a.ms <= targetMs && a.mb <= targetMb && c.ms <= targetMs && c.mb <= targetMb;
    const row = (label: string, r: { ms: number; mb: number }) => `  ${label.padEnd(44)} ${r.ms.toFixed(1).padStart(8)} ms median  ${r.mb.toFixed(1).padStart(6)} MB growth`;
    return [
      `Benchmark: transcript search over ${sessions} sessions × ${entries} entries (${(bytes / 1e6).toFixed(1)} MB on disk; VS Code ${vscode.version}, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`,
      row('chunked search, a word in 3 sessions', a),
      row('chunked search, a word in none', c),
      row('baseline: load every session, then search', b),
      `  baseline / ours = ${(b.ms / a.ms).toFixed(1)}x time, ${(b.mb / Math.max(a.mb, 0.1)).toFixed(1)}x memory`,
      `  target ≤ ${targetMs} ms and ≤ ${targetMb} MB growth: ${ok ? 'met' : 'MISSED'}`,
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
