#!/usr/bin/env node
// @ts-check
// End-to-end streaming benchmark, part of `npm run bench`: the user's figure. In the real workbench
// (code-server + Chromium, as the UI tests run it; in code-server the chat's webview shares one renderer
// process and one main thread with the whole VS Code UI), a chat is opened through the UI with a scripted
// agent process that streams over stdio (e2e/streamAgent.mjs: hand-written NDJSON, so the agent costs
// nothing; ~200-byte Markdown chunks, the same text as the webview-only render bench), the prompt is typed
// and sent, and measured:
//   - Send (the Enter key in the composer) → the answer's last chunk painted, at 1,000, 5,000, 20,000 chunks;
//   - long tasks (> 50 ms) of the workbench renderer meanwhile (every frame's PerformanceObserver, merged);
//   - the extension host's CPU time and the renderer's peak RSS growth (/proc, e2e/procStats.mjs);
//   - a paced stream (100 chunks/s × 30 s): agent write (a stamp in the chunk) → painted, p95 and last chunk;
//   - idle CPU of renderer and extension host over 10 s with a chat open and nothing streaming;
//   - activation time as VS Code reports it (Developer: Show Running Extensions), bundle sizes (minified).
// Each figure is the median of --rounds runs, printed with its target and a baseline measured in the same
// run: the same stream through a naive client (e2e/naiveClient: one post per chunk, the whole message
// rendered again per frame, same markdown-it + DOMPurify), capped at --naive-cap s and projected (quadratic).
//
//   node test/bench/e2eStreamBench.mjs [--version 1.139.1] [--rounds 3] [--chunks 1000,5000,20000]
//        [--paced-seconds 30] [--no-naive] [--naive-cap 15] [--trace out.json] [--json out.json] [--strict]
//
// The workbench runs the user's build: the production bundles, staged as the .vsix installs them (not dist/).
// Run it alone on the machine (nothing else driving a workbench or
// building meanwhile): every figure is a wall-clock or CPU time.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ensureInstalled, KNOWN_VERSIONS, removeTmpDirs, sleep } from '../harness/harness.mjs';
import { activationTimes } from './e2e/activation.mjs';
import { report } from './e2e/report.mjs';
import { traceIdle, traceStream } from './e2e/trace.mjs';
import { bundleSizes, idleCpu, measureStream, openChat, startWorkbench } from './e2e/workbench.mjs';

const { values } = parseArgs({
  options: {
    version: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    chunks: { type: 'string', default: '1000,5000,20000' },
    'paced-seconds': { type: 'string', default: '30' },
    'paced-rate': { type: 'string', default: '100' },
    'naive-cap': { type: 'string', default: '15' },
    'no-naive': { type: 'boolean', default: false },
    trace: { type: 'string' },
    json: { type: 'string' },
    strict: { type: 'boolean', default: false },
  },
});
const version = values.version ?? KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1];
const rounds = Number(values.rounds);
const counts = values.chunks.split(',').map(Number).filter((n) => n > 0);
const pacedRate = Number(values['paced-rate']);
const pacedChunks = Math.round(Number(values['paced-seconds']) * pacedRate);
const naiveCapMs = Number(values['naive-cap']) * 1000;
const naive = !values['no-naive'];

/** @param {string} s */
const say = (s) => process.stderr.write(`  … ${s}\n`);

async function main() {
  ensureInstalled(version);
  const load = os.loadavg();
  const sizes = bundleSizes();
  const w = await startWorkbench({ version, extensionRoot: sizes.root });
  /** @type {Record<string, any[]>} */
  const runs = {};
  const add = (/** @type {string} */ key, /** @type {any} */ r) => {
    const { frame, ...rest } = r;
    (runs[key] ??= []).push(rest);
  };
  try {
    await sleep(3000); // the extension host settles after activation
    const activation = await activationTimes(w.page);
    const idleEmpty = await idleCpu(w);
    // warm-up (first-time code paths in the workbench, the extension and the webview), not measured
    await measureStream(w, { client: 'ours', chunks: 500 });
    if (naive) await measureStream(w, { client: 'naive', chunks: 500 });
    for (let round = 1; round <= rounds; round++) {
      for (const n of counts) {
        say(`round ${round}: ${n} chunks, ours`);
        add(`ours:${n}`, await measureStream(w, { client: 'ours', chunks: n }));
        if (naive) {
          say(`round ${round}: ${n} chunks, naive`);
          add(`naive:${n}`, await measureStream(w, { client: 'naive', chunks: n, capMs: naiveCapMs }));
        }
      }
      if (pacedChunks > 0) {
        say(`round ${round}: paced, ours`);
        add('ours:paced', await measureStream(w, { client: 'ours', chunks: pacedChunks, rate: pacedRate }));
        if (naive) {
          say(`round ${round}: paced, naive`);
          add('naive:paced', await measureStream(w, { client: 'naive', chunks: pacedChunks, rate: pacedRate, capMs: (pacedChunks / pacedRate) * 1000 + naiveCapMs }));
        }
      }
    }
    // idle with a chat open (the last answer shown), nothing streaming: measured after 20 s at rest, past the
    // renderer's and the host's garbage collection that follows the last streams (the naive client's paced
    // stream ends just before); that recovery is not periodic work
    await openChat(w, 'ours');
    await sleep(20_000);
    const idleChat = await idleCpu(w);
    let trace;
    if (values.trace) {
      say('traced 20,000-chunk stream');
      trace = await traceStream(w, values.trace, Math.max(...counts));
      await openChat(w, 'ours');
      await sleep(2000);
      trace.lines.push(await traceIdle(w, values.trace.replace(/(\.json)?$/, '.idle.json')));
    }
    const result = { version, load, rounds, counts, pacedRate, pacedChunks, sizes, activation, idleEmpty, idleChat, runs, trace };
    if (values.json) fs.writeFileSync(values.json, JSON.stringify(result, null, 2));
    return report(result);
  } finally {
    await w.stop();
    removeTmpDirs();
  }
}

main().then((ok) => {
  process.exit(ok || !values.strict ? 0 : 1);
}, (error) => {
  console.error(`FAIL the end-to-end streaming benchmark did not run: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
