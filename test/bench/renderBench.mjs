#!/usr/bin/env node
// @ts-check
// Render benchmark, part of `npm run bench`: a UNIT-LEVEL GUARD, NOT THE USER'S FIGURE. It feeds the webview
// bundle directly in a bare page; a user's answer also crosses the agent's pipe, the extension host and the
// workbench, and in code-server shares one main thread with the whole VS Code UI: that figure is
// e2eStreamBench.mjs (docs/performance.md). Here: the real chat webview bundle
// (dist/webview/main.js, built by esbuild.mjs) in headless Chromium, fed a streamed agent message of 2,000 and
// 20,000 chunks of about 200 bytes of Markdown each (headings, paragraphs with inline code and links, lists,
// fenced code, tables, quotes), one `thread/didChange` wire message per chunk (the host's worst case: no
// merging; the next batch of 50 once the page has taken the last), after a snapshot. Measured in the page: the time from the first chunk until the final text is
// painted (the frame after it reached the DOM), and the longest task (PerformanceObserver `longtask`: tasks
// over 50 ms). The view must have followed the answer to its end (and a reopened panel must show the end of
// its message): a run that stopped following is cheaper, and wrong, so it fails. The same run measures a naive baseline that renders the whole message again per chunk with the
// same markdown-it + DOMPurify configuration; at 20,000 chunks it is stopped after a time cap and its total
// is projected (it is quadratic).
//
//   node test/bench/renderBench.mjs [--chunks 2000,20000] [--naive-cap 10] [--json out.json] [--strict] [--no-naive]
//
// Targets: t(20k) / t(2k) <= 11 (linear), 20,000 chunks painted in <= 3 s, no task over 50 ms. Exit code 1
// when the page failed, or (--strict) when a target is missed. The webview warms its Markdown path up when
// idle after loading; the measurement starts after that, as a streamed answer would.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../harness/harness.mjs';
import { benchState, openWebview } from './render/page.mjs';
import { MARKER, makeChunks } from './render/chunks.mjs';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '2000,20000' },
    'naive-cap': { type: 'string', default: '10' },
    strict: { type: 'boolean', default: false },
    json: { type: 'string' },
    'no-naive': { type: 'boolean', default: false },
  },
});
const counts = values.chunks.split(',').map(Number).filter((n) => n > 0);
const naiveCapMs = Number(values['naive-cap']) * 1000;

/**
 * Runs one stream in a fresh page.
 * @param {import('playwright-core').Browser} browser
 * @param {'main' | 'naive'} script
 * @param {string[]} chunks
 * @param {number} capMs feeding stops after this long (naive only)
 */
async function runStream(browser, script, chunks, capMs = Infinity) {
  const w = await openWebview(browser, { script });
  try {
    const snapshot = { seq: 0, state: benchState('working'), entries: [{ kind: 'agent', id: 'e1', text: '', blocks: [] }], terminals: [] };
    return await w.page.evaluate(async ({ chunks, snapshot, marker, script, capMs }) => {
      /** @type {number[]} */
      const longTasks = [];
      let t0 = Infinity;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.startTime >= t0) longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
      window.postMessage({ method: 'chat/thread/didSnapshot', params: snapshot }, '*');
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await new Promise((r) => requestIdleCallback(r)); // the webview warms its Markdown path up when idle
      const done = script === 'naive'
        ? () => document.querySelector('[data-testid="agent-message"] .markdown')?.lastElementChild?.textContent === marker
        : () => (document.querySelector('[data-testid="agent-message"] .md-tail')?.textContent ?? '').includes(marker);
      let processed = 0;
      window.addEventListener('message', () => { processed++; });
      t0 = performance.now();
      let fed = 0;
      let seq = 1;
      // the feeder posts 50 wire messages per task (each one is its own task in the page, as in VS Code)
      await new Promise((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          // back-pressure: the next batch once the page has taken the last one (a capped run stops promptly)
          if (processed < fed) {
            ch.port2.postMessage(0);
            return;
          }
          const end = Math.min(fed + 50, chunks.length);
          for (; fed < end; fed++) {
            window.postMessage({ method: 'chat/thread/didChange', params: { firstSeq: seq++, deltas: [{ op: 'append', index: 0, text: chunks[fed] }] } }, '*');
          }
          if (fed < chunks.length && performance.now() - t0 < capMs) ch.port2.postMessage(0);
          else resolve(undefined);
        };
        ch.port2.postMessage(0);
      });
      if (fed < chunks.length) {
        // capped (naive): let the posted messages drain, then report how far it got
        const fedAt = performance.now() - t0;
        while (processed < fed) await new Promise((r) => setTimeout(r, 50));
        return { finished: false, ms: performance.now() - t0, fed, fedAt, longTasks, followed: true };
      }
      // the final text is in the DOM; the frame after that one has painted it
      await new Promise((resolve) => {
        const check = () => (done() ? requestAnimationFrame(() => resolve(undefined)) : requestAnimationFrame(check));
        requestAnimationFrame(check);
      });
      const ms = performance.now() - t0;
      // the view followed the answer to its end (a stream that stops following is cheap, and wrong)
      const t = /** @type {HTMLElement} */ (document.getElementById('transcript'));
      const followed = script === 'naive' || t.scrollHeight - t.scrollTop - t.clientHeight < 40;
      await new Promise((r) => setTimeout(r, 100)); // late longtask entries
      return { finished: true, ms, fed, fedAt: ms, longTasks, followed };
    }, { chunks, snapshot, marker: MARKER, script, capMs: Number.isFinite(capMs) ? capMs : 1e12 });
  } finally {
    if (w.errors.length) console.log(`  page errors (${script}): ${w.errors.slice(0, 3).join(' | ')}`);
    await w.close();
  }
}

/**
 * A whole long message in a snapshot (a reopened panel): the time until its end is painted, and the longest
 * task (it is rendered over several frames, the end of the transcript first).
 * @param {import('playwright-core').Browser} browser
 * @param {string} text
 */
async function runSnapshot(browser, text) {
  const w = await openWebview(browser, { script: 'main' });
  try {
    return await w.page.evaluate(async ({ text, marker }) => {
      /** @type {number[]} */
      const longTasks = [];
      let t0 = Infinity;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.startTime >= t0) longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
      await new Promise((r) => requestIdleCallback(r));
      t0 = performance.now();
      const state = { sessionId: 'bench', title: 'Render benchmark', agentName: 'Bench agent', status: 'idle', following: false, plan: [], commands: [] };
      window.postMessage({ method: 'chat/thread/didSnapshot', params: { seq: 0, state, entries: [{ kind: 'agent', id: 'e1', text, blocks: [] }], terminals: [] } }, '*');
      await new Promise((resolve) => {
        const check = () => ((document.querySelector('[data-testid="agent-message"] .md-tail')?.textContent ?? '').includes(marker) ? requestAnimationFrame(() => resolve(undefined)) : requestAnimationFrame(check));
        requestAnimationFrame(check);
      });
      const ms = performance.now() - t0;
      const t = /** @type {HTMLElement} */ (document.getElementById('transcript'));
      const followed = t.scrollHeight - t.scrollTop - t.clientHeight < 40;
      await new Promise((r) => setTimeout(r, 100));
      return { ms, longTasks, followed };
    }, { text, marker: MARKER });
  } finally {
    if (w.errors.length) console.log(`  page errors (snapshot): ${w.errors.slice(0, 3).join(' | ')}`);
    await w.close();
  }
}

const fmtS = (ms) => `${(ms / 1000).toFixed(2)} s`;
const fmtTask = (tasks) => (tasks.length ? `${Math.round(Math.max(...tasks))} ms (${tasks.length} over 50 ms)` : 'none over 50 ms');

async function main() {
  const dist = path.join(path.resolve(import.meta.dirname, '..', '..'), 'dist', 'webview', 'main.js');
  if (!fs.existsSync(dist)) throw new Error(`${dist} does not exist: build first (node esbuild.mjs)`);
  const browser = await launchBrowser();
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  let ok = true;
  try {
    console.log(`Render benchmark: a streamed agent message in headless Chromium (${counts.map((n) => n.toLocaleString('en-US')).join(' and ')} chunks of ~200 bytes of Markdown, one wire message each)`);
    /** @type {Map<number, number>} */
    const ours = new Map();
    /** @type {number[]} */
    const ourTasks = [];
    for (const n of counts) {
      const { chunks, bytes } = makeChunks(n);
      // warm-up (JIT, fonts) on a small stream, not measured
      if (n === counts[0]) await runStream(browser, 'main', makeChunks(300).chunks);
      const r = await runStream(browser, 'main', chunks);
      ours.set(n, r.ms);
      ourTasks.push(...r.longTasks);
      console.log(`  ${n.toLocaleString('en-US').padStart(6)} chunks (${(bytes / 1e6).toFixed(1)} MB)  ours: painted in ${fmtS(r.ms)}, longest task ${fmtTask(r.longTasks)}${r.followed ? '' : ', DID NOT FOLLOW the answer to its end'}`);
      ok &&= r.followed;
      if (values['no-naive']) continue;
      const b = await runStream(browser, 'naive', chunks, naiveCapMs);
      const naiveMs = b.finished ? b.ms : b.ms * (n / b.fed) ** 2;
      const naiveText = b.finished ? fmtS(b.ms) : `stopped after ${b.fed.toLocaleString('en-US')} chunks in ${fmtS(b.ms)}; projected ${fmtS(naiveMs)} (quadratic)`;
      console.log(`  ${''.padStart(6)}                 naive (whole message per chunk): ${naiveText}, longest task ${fmtTask(b.longTasks)}`);
      console.log(`  ${''.padStart(6)}                 naive / ours = ${(naiveMs / r.ms).toFixed(1)}x`);
      rows.push({ chunks: n, bytes, oursMs: r.ms, oursLongTasks: r.longTasks, naiveMs: b.ms, naiveFinished: b.finished, naiveProjectedMs: naiveMs, naiveFed: b.fed, naiveLongTasks: b.longTasks });
    }
    const small = ours.get(2000);
    const large = ours.get(20000);
    if (small && large) {
      const ratio = large / small;
      const linear = ratio <= 11;
      const fast = large <= 3000;
      console.log(`  t(20k) / t(2k) = ${ratio.toFixed(2)}  (target <= 11, linear) ${linear ? 'met' : 'MISSED'}`);
      console.log(`  20,000 chunks painted in ${fmtS(large)}  (target <= 3 s) ${fast ? 'met' : 'MISSED'}`);
      ok &&= linear && fast;
    }
    const last = counts[counts.length - 1];
    const snap = await runSnapshot(browser, makeChunks(last).chunks.join(''));
    ourTasks.push(...snap.longTasks);
    console.log(`  the same ${last.toLocaleString('en-US')}-chunk message whole, in a snapshot (a reopened panel): painted in ${fmtS(snap.ms)}, longest task ${fmtTask(snap.longTasks)}${snap.followed ? '' : ', DID NOT SHOW its end'}`);
    ok &&= snap.followed;
    const noLong = ourTasks.length === 0;
    console.log(`  longest task: ${fmtTask(ourTasks)}  (target: no task over 50 ms) ${noLong ? 'met' : 'MISSED'}`);
    ok &&= noLong;
  } finally {
    await browser.close();
  }
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ ok, rows }, null, 2));
  process.exitCode = ok || !values.strict ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
