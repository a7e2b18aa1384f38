/**
 * The benchmarks that need the real extension host (a dirty editor buffer; its memory), loaded by VS Code as
 * `extensionTestsPath` through test/harness/runHostBench.mjs. `run()` prints each benchmark's lines and
 * writes `{ passed, failed, pending, lines, durationMs }` (the integration runner's format, which the
 * harness understands) to the file named by SWITCHBOARD_TEST_RESULTS.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { benchDirtyBufferSlice } from './dirtyBufferSlice';
import { benchEditorTools } from './editorToolsBench';
import { benchTranscriptSearch } from './transcriptSearchBench';

const benchmarks: { name: string; run: () => Promise<string[]> }[] = [
  { name: 'dirty buffer slice', run: benchDirtyBufferSlice },
  { name: 'transcript search', run: benchTranscriptSearch },
  { name: 'editor tools', run: benchEditorTools },
];

/** Runs every extension-host benchmark; rejects if one failed. */
export async function run(): Promise<void> {
  const started = Date.now();
  const lines: string[] = [];
  let failed = 0;
  for (const b of benchmarks) {
    try {
      lines.push(...await b.run());
    } catch (error) {
      failed++;
      lines.push(`FAIL benchmark ${b.name}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  }
  for (const l of lines) console.log(l);
  const file = process.env.SWITCHBOARD_TEST_RESULTS;
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ passed: benchmarks.length - failed, failed, pending: 0, lines, durationMs: Date.now() - started }, null, 2));
  }
  if (failed) throw new Error(`${failed} extension-host benchmark(s) failed`);
}
