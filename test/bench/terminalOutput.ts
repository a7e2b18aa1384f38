/**
 * Benchmark: 100 MB of terminal output through a 1 MB `outputByteLimit`, fed in 64 KiB chunks of one
 * multi-byte stream (chunk borders split characters). Measures the throughput (MB/s) and the peak RSS growth
 * of {@link TerminalOutputBuffer}, against a naive baseline in the same run: decode each chunk, concatenate
 * strings, and slice the tail after every chunk.
 *
 * The producer reads into one reused 64 KiB buffer (as `fs.read` into a fixed buffer does), so the RSS figure
 * is the consumer's own memory. A second line feeds a fresh Buffer per chunk (as a pipe read delivers it):
 * there the garbage chunks wait for V8's external-memory GC, which no consumer controls.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { TerminalOutputBuffer } from '../../src/agents/terminalOutput';

/** One measured run. */
export interface TerminalBenchResult {
  readonly name: string;
  readonly megabytesPerSecond: number;
  /** Peak RSS above the RSS before the run (after a GC), MB. */
  readonly rssGrowthMb: number;
  /** Characters (or bytes) of output read at the end. */
  readonly outputLength: number;
}

const mb = 1024 * 1024;

/** A GC function, when V8 lets us have one (keeps the RSS baseline honest). */
function gcFunction(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

/** How the producer delivers chunks. */
export type ChunkProducer = 'reused' | 'fresh';

/** 64 KiB chunks of one continuous multi-byte stream (chunk borders split characters). */
function chunkSource(chunkSize: number, producer: ChunkProducer): (i: number) => Buffer {
  const unit = Buffer.from('build step 42: compiled src/agents/terminalOutput.ts — Grüße, 日本語, 🎉 ✓\n', 'utf8');
  const source = Buffer.concat(Array.from({ length: Math.ceil(chunkSize / unit.length) + 2 }, () => unit));
  const reused = Buffer.allocUnsafe(chunkSize);
  return (i) => {
    const start = (i * chunkSize) % unit.length;
    const chunk = producer === 'reused' ? reused : Buffer.allocUnsafe(chunkSize);
    source.copy(chunk, 0, start, start + chunkSize);
    return chunk;
  };
}

interface Sink { append(c: Buffer): void; read(): number }

function measure(name: string, totalBytes: number, chunkSize: number, producer: ChunkProducer, sink: Sink): TerminalBenchResult {
  const gc = gcFunction();
  const next = chunkSource(chunkSize, producer);
  gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const count = Math.ceil(totalBytes / chunkSize);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    sink.append(next(i));
    if ((i & 15) === 0) peak = Math.max(peak, process.memoryUsage.rss());
  }
  const outputLength = sink.read();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  peak = Math.max(peak, process.memoryUsage.rss());
  return { name, megabytesPerSecond: (count * chunkSize) / mb / seconds, rssGrowthMb: (peak - before) / mb, outputLength };
}

/** Our buffer: a ring of at most `limit` bytes, one decode at the end. */
export function benchOurs(totalBytes = 100 * mb, limit = mb, chunkSize = 64 * 1024, producer: ChunkProducer = 'reused'): TerminalBenchResult {
  const buffer = new TerminalOutputBuffer(limit);
  return measure(`TerminalOutputBuffer${producer === 'fresh' ? ' (fresh Buffer per chunk)' : ''}`, totalBytes, chunkSize, producer, {
    append: (c) => buffer.append(c),
    read: () => buffer.read(true).output.length,
  });
}

/** Naive: `text += chunk.toString(); text = text.slice(-limit)` after every chunk. */
export function benchNaive(totalBytes = 100 * mb, limit = mb, chunkSize = 64 * 1024): TerminalBenchResult {
  let text = '';
  return measure('naive string concat + slice', totalBytes, chunkSize, 'reused', {
    append: (c) => {
      text += c.toString('utf8');
      if (text.length > limit) text = text.slice(text.length - limit);
    },
    read: () => text.length,
  });
}

/**
 * Prints the terminal-output benchmark: the best of `rounds` for throughput, the worst for RSS growth, the targets
 * (>= 200 MB/s, RSS growth <= 16 MB) with met/MISSED, and the ratio to the naive baseline.
 * @returns true when both targets were met
 */
export function reportTerminalOutput(rounds = Number(process.env.BENCH_ROUNDS ?? 5)): boolean {
  const total = Number(process.env.BENCH_TERMINAL_MB ?? 100) * mb;
  console.log(`Benchmark: ${total / mb} MB of terminal output through a 1 MB outputByteLimit, 64 KiB chunks`);
  const best = (runs: TerminalBenchResult[]) => ({
    ...runs[0],
    megabytesPerSecond: Math.max(...runs.map((r) => r.megabytesPerSecond)),
    rssGrowthMb: Math.max(...runs.map((r) => r.rssGrowthMb)),
  });
  const ours = best(Array.from({ length: rounds }, () => benchOurs(total)));
  const naive = best(Array.from({ length: Math.min(rounds, 3) }, () => benchNaive(total)));
  const fresh = best(Array.from({ length: Math.min(rounds, 3) }, () => benchOurs(total, mb, 64 * 1024, 'fresh')));
  for (const r of [naive, ours, fresh]) {
    console.log(`  ${r.name.padEnd(46)} ${r.megabytesPerSecond.toFixed(0).padStart(7)} MB/s   peak RSS growth ${r.rssGrowthMb.toFixed(1).padStart(6)} MB`);
  }
  const speedOk = ours.megabytesPerSecond >= 200;
  const rssOk = ours.rssGrowthMb <= 16;
  console.log(`  throughput         = ${ours.megabytesPerSecond.toFixed(0)} MB/s (target >= 200 MB/s) ${speedOk ? 'met' : 'MISSED'}`);
  console.log(`  peak RSS growth    = ${ours.rssGrowthMb.toFixed(1)} MB (target <= 16 MB) ${rssOk ? 'met' : 'MISSED'}`);
  console.log(`  ours / naive       = ${(ours.megabytesPerSecond / naive.megabytesPerSecond).toFixed(1)}x throughput`);
  console.log('  (fresh Buffer per chunk: the RSS growth is garbage chunks awaiting V8\'s external-memory GC, not held by the buffer)');
  return speedOk && rssOk;
}
