#!/usr/bin/env node
// @ts-check
// End-to-end streaming benchmark, part of `npm run bench`: the user's figure. In the real workbench
// (code-server + Chromium, as the UI tests run it; in code-server the chat's webview shares one renderer
// process and one main thread with the whole VS Code UI, which the bench checks on every run), a chat is
// opened through the UI with a scripted agent process that streams over stdio (e2e/streamAgent.mjs:
// hand-written NDJSON, so the agent costs nothing; ~200-byte Markdown chunks of several shapes,
// render/chunks.mjs), the prompt is typed and sent, and measured:
//   - Send (the Enter key in the composer) → the answer's last chunk painted;
//   - long tasks (> 50 ms) of the workbench renderer meanwhile (every frame's PerformanceObserver, merged);
//   - the extension host's CPU time; the peak RSS growth of the renderer that did the work (/proc,
//     e2e/procStats.mjs), and the chat's DOM nodes at the end;
//   - a paced stream (100 chunks/s × 30 s): agent write (a stamp in the chunk) → painted, p95 and last chunk;
//   - idle CPU of renderer and extension host over 10 s with a chat open and nothing streaming;
//   - activation time as VS Code reports it (Developer: Show Running Extensions), bundle sizes (minified).
// Two modes, both printed:
//   - fresh (the headline): a new code-server and a new window for every run, the run being the window's
//     first stream, at the user's viewport (1400×900), the chat in an editor tab; every shape at the largest
//     count (the headline is the worst shape), the other counts with the `mix` shape, and the chat in the
//     secondary side bar; activation read in every window;
//   - warm: one window for every run, after a warm-up stream (what this bench measured before issue 28).
// Each figure is the median of --rounds runs, printed with its target and a baseline measured in the same
// run: the same stream through a minimal client (e2e/naiveClient: one post per chunk; per frame it appends
// the blocks completed since the last frame and renders the open one again, same markdown-it + DOMPurify).
// `--baseline rerender` makes it re-render the whole message per frame instead (capped at --naive-cap s and
// projected, quadratic).
// Next to each shape's figure, its floor (unless --no-floor): the same stream in a fresh window to a chat that
// is given no text to render (e2e/frameProbe.mjs), timed until the last chunk reached the chat's window. It is
// what the agent, the extension host and the workbench's relay of the messages (code-server's connection, the
// webview host frames: all on the renderer's one main thread) cost before the chat does anything.
//
//   node test/bench/e2eStreamBench.mjs [--version 1.139.1] [--mode fresh,warm] [--rounds 3]
//        [--chunks 1000,5000,20000] [--shapes mix,prose,lists,code,tables,agent,bench] [--placements editor,sideBar]
//        [--paced-seconds 30] [--baseline incremental|rerender] [--no-naive] [--no-floor] [--naive-cap 15]
//        [--trace out.json] [--json out.json] [--strict]
//
// The workbench runs the user's build: the production bundles, staged as the .vsix installs them (not dist/).
// Run it alone on the machine (nothing else driving a workbench or
// building meanwhile): every figure is a wall-clock or CPU time.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ensureInstalled, KNOWN_VERSIONS, removeTmpDirs, sleep } from '../harness/harness.mjs';
import { activationTimes } from './e2e/activation.mjs';
import { report, reportFresh } from './e2e/report.mjs';
import { traceIdle, traceStream } from './e2e/trace.mjs';
import { bundleSizes, idleCpu, measureStream, openChat, startWorkbench } from './e2e/workbench.mjs';
import { SHAPES } from './render/chunks.mjs';

const { values } = parseArgs({
  options: {
    version: { type: 'string' },
    mode: { type: 'string', default: 'fresh,warm' },
    rounds: { type: 'string', default: '3' },
    shapes: { type: 'string', default: Object.keys(SHAPES).join(',') },
    placements: { type: 'string', default: 'editor,sideBar' },
    baseline: { type: 'string', default: 'incremental' },
    chunks: { type: 'string', default: '1000,5000,20000' },
    'paced-seconds': { type: 'string', default: '30' },
    'paced-rate': { type: 'string', default: '100' },
    'naive-cap': { type: 'string', default: '15' },
    'no-naive': { type: 'boolean', default: false },
    'no-floor': { type: 'boolean', default: false },
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
/** a fresh run that takes longer is stopped and reported as not finished */
const freshTimeoutMs = 120_000;
const naive = !values['no-naive'];
const floor = !values['no-floor'];
const modes = values.mode.split(',');
const shapes = /** @type {import('./render/chunks.mjs').Shape[]} */ (values.shapes.split(',').filter(Boolean));
for (const sh of shapes) if (!(sh in SHAPES)) throw new Error(`unknown shape ${sh}: one of ${Object.keys(SHAPES).join(', ')}`);
const placements = /** @type {('editor' | 'sideBar')[]} */ (values.placements.split(',').filter(Boolean));
const baseline = /** @type {'rerender' | 'incremental'} */ (values.baseline === 'rerender' ? 'rerender' : 'incremental');
/** the shape of the warm runs and of the fresh runs at the smaller counts */
const MIX = shapes.includes('mix') ? 'mix' : shapes[0];

/** @param {string} s */
const say = (s) => process.stderr.write(`  … ${s}\n`);

/**
 * Fresh windows: every run is a new code-server and a new window, and the window's first stream.
 * @param {ReturnType<typeof bundleSizes>} sizes
 */
async function fresh(sizes) {
  const big = Math.max(...counts);
  /** @type {{ client: 'ours' | 'naive', chunks: number, shape: import('./render/chunks.mjs').Shape, placement: 'editor' | 'sideBar', floor?: boolean }[]} */
  const plan = [];
  for (const shape of shapes) plan.push({ client: 'ours', chunks: big, shape, placement: 'editor' });
  if (floor) for (const shape of shapes) plan.push({ client: 'ours', chunks: big, shape, placement: 'editor', floor: true });
  for (const n of counts) if (n !== big) plan.push({ client: 'ours', chunks: n, shape: MIX, placement: 'editor' });
  for (const p of placements) if (p !== 'editor') plan.push({ client: 'ours', chunks: big, shape: MIX, placement: p });
  if (naive) for (const x of [...plan]) if (x.placement === 'editor' && !x.floor) plan.push({ ...x, client: 'naive' });
  /** @type {Record<string, any[]>} */
  const runs = {};
  /** @type {number[]} */
  const activation = [];
  for (let round = 1; round <= rounds; round++) {
    for (const x of plan) {
      const key = `${x.floor ? 'floor' : x.client}:${x.chunks}:${x.shape}:${x.placement}`;
      say(`fresh window, round ${round}: ${x.chunks} chunks, ${x.shape}, ${x.floor ? 'floor' : x.client}, ${x.placement}`);
      const w = await startWorkbench({ version, extensionRoot: sizes.root, placement: x.placement, baseline });
      try {
        await sleep(3000); // the window settles after activation, as a user's would before the first prompt
        if (x.client === 'ours') {
          const a = await activationTimes(w.page);
          if (a.ours !== undefined) activation.push(a.ours);
        }
        const r = await measureStream(w, { client: x.client, chunks: x.chunks, shape: x.shape, capMs: x.client === 'naive' && baseline === 'rerender' ? naiveCapMs : undefined, timeoutMs: freshTimeoutMs, floor: x.floor });
        const { frame, ...rest } = r;
        (runs[key] ??= []).push(rest);
      } catch (error) {
        // a run that did not finish is a figure too (a shape that makes the chat quadratic): the others go on
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
        say(`  did not finish: ${message}`);
        (runs[key] ??= []).push({ ...x, finished: false, failed: message, ms: Infinity, projectedMs: Infinity, longTasks: [], hostCpuMs: NaN, peakGrowthMb: NaN, domNodes: NaN });
      } finally {
        await w.stop();
      }
    }
  }
  return { runs, activation, big };
}

async function main() {
  ensureInstalled(version);
  const load = os.loadavg();
  const sizes = bundleSizes();
  let ok = true;
  if (modes.includes('fresh')) {
    const f = await fresh(sizes);
    if (values.json) fs.writeFileSync(values.json.replace(/(\.json)?$/, '.fresh.json'), JSON.stringify({ version, load, rounds, counts, shapes, baseline, ...f }, null, 2));
    ok = reportFresh({ version, load, rounds, counts, shapes, placements, baseline, mix: MIX, ...f }) && ok;
  }
  if (modes.includes('warm')) ok = (await warm(sizes, load)) && ok;
  removeTmpDirs();
  return ok;
}

/**
 * One warm window for every run, after a warm-up stream (the `mix` shape).
 * @param {ReturnType<typeof bundleSizes>} sizes @param {number[]} load
 */
async function warm(sizes, load) {
  const w = await startWorkbench({ version, extensionRoot: sizes.root, baseline });
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
    await measureStream(w, { client: 'ours', chunks: 500, shape: MIX });
    if (naive) await measureStream(w, { client: 'naive', chunks: 500, shape: MIX });
    for (let round = 1; round <= rounds; round++) {
      for (const n of counts) {
        say(`round ${round}: ${n} chunks, ours`);
        add(`ours:${n}`, await measureStream(w, { client: 'ours', chunks: n, shape: MIX }));
        if (naive) {
          say(`round ${round}: ${n} chunks, naive`);
          add(`naive:${n}`, await measureStream(w, { client: 'naive', chunks: n, shape: MIX, capMs: baseline === 'rerender' ? naiveCapMs : undefined }));
        }
      }
      if (pacedChunks > 0) {
        say(`round ${round}: paced, ours`);
        add('ours:paced', await measureStream(w, { client: 'ours', chunks: pacedChunks, rate: pacedRate, shape: MIX }));
        if (naive) {
          say(`round ${round}: paced, naive`);
          add('naive:paced', await measureStream(w, { client: 'naive', chunks: pacedChunks, rate: pacedRate, shape: MIX, capMs: (pacedChunks / pacedRate) * 1000 + naiveCapMs }));
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
    const result = { version, load, rounds, counts, pacedRate, pacedChunks, sizes, activation, idleEmpty, idleChat, runs, trace, shape: MIX, baseline: /** @type {'rerender' | 'incremental'} */ (baseline) };
    if (values.json) fs.writeFileSync(values.json, JSON.stringify(result, null, 2));
    return report(result);
  } finally {
    await w.stop();
  }
}

main().then((ok) => {
  process.exit(ok || !values.strict ? 0 : 1);
}, (error) => {
  console.error(`FAIL the end-to-end streaming benchmark did not run: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
