// @ts-check
// Where the renderer's time goes during one stream: a Chromium trace of the workbench page (Playwright's
// browser.startTracing) summarised per layer for the busiest renderer main thread. Every trace event's self
// time (its duration less that of the events nested in it) is put in one layer by its name: script (split
// by the frame's URL: the workbench, the webview host frames, the chat's own bundle), style and layout,
// paint, GC, and the rest (task overhead, IPC, HTML parsing).
import fs from 'node:fs';
import { measureStream } from './workbench.mjs';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink.user_timing', 'disabled-by-default-v8.gc'];

/** @param {string} name */
function layer(name) {
  if (/GC|Scavenge|MarkCompact|Sweep/i.test(name)) return 'gc';
  if (/^(UpdateLayoutTree|Layout|RecalculateStyles|ScheduleStyleRecalculation|InvalidateLayout|HitTest|IntersectionObserverController::computeIntersections|ResizeObserverController)/.test(name)) return 'layout';
  if (/^(Paint|PaintImage|PrePaint|Layerize|UpdateLayer|UpdateLayerTree|CompositeLayers|Commit|PaintSetup|RasterTask|LocalFrameView::RunPaintLifecyclePhase|LocalFrameView::RunPrePaintLifecyclePhase|ProxyMain::BeginMainFrame::commit)/.test(name)) return 'paint';
  if (/^(FunctionCall|EvaluateScript|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.|v8\.|FireIdleCallback|v8::|ParseScript|CompileScript|CompileCode|OptimizeCode|MessagePort|V8Console)/.test(name)) return 'script';
  if (/^(ParseHTML|ParseAuthorStyleSheet)/.test(name)) return 'parse';
  return 'other';
}

/**
 * Per-layer self time (ms) of the busiest renderer main thread in a trace, and its script time by URL.
 * @param {{ traceEvents?: any[] } | any[]} trace
 */
export function summarise(trace) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents ?? [];
  /** @type {Map<string, string>} */
  const threadNames = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
  // the measured stream, when the page marked it (frameProbe.mjs: console.timeStamp at Send and at the end)
  const mark = (/** @type {string} */ m) => events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === m)?.ts;
  const from = mark('e2e-send') ?? -Infinity;
  const to = mark('e2e-end') ?? Infinity;
  /** @type {Map<string, any[]>} */
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.dur !== 'number' || e.ts < from || e.ts > to) continue;
    const key = `${e.pid}:${e.tid}`;
    if (threadNames.get(key) !== 'CrRendererMain') continue;
    (byThread.get(key) ?? byThread.set(key, []).get(key))?.push(e);
  }
  let best = { long: /** @type {{ ms: number, start: number, inside: Record<string, number> }[]} */ ([]), windowMs: (to - from) / 1000, key: '', busy: 0, layers: /** @type {Record<string, number>} */ ({}), urls: /** @type {Record<string, number>} */ ({}), tasks: 0 };
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    /** @type {Record<string, number>} */
    const layers = { script: 0, layout: 0, paint: 0, gc: 0, parse: 0, other: 0 };
    /** @type {Record<string, number>} */
    const urls = {};
    /** @type {{ e: any, end: number, child: number, url: string }[]} */
    const stack = [];
    let busy = 0;
    let tasks = 0;
    /** @type {{ ms: number, start: number, inside: Record<string, number> }[]} tasks over 50 ms, with their events' self time by name */
    const long = [];
    const close = (/** @type {{ e: any, end: number, child: number, url: string }} */ f) => {
      const self = Math.max(0, f.e.dur - f.child) / 1000;
      const l = layer(f.e.name);
      const task = long[long.length - 1];
      if (task && stack.length >= 1 && f.e.ts >= task.start && f.e.ts < task.start + task.ms * 1000) task.inside[f.e.name] = (task.inside[f.e.name] ?? 0) + self;
      layers[l] += self;
      if (l === 'script') urls[f.url] = (urls[f.url] ?? 0) + self;
    };
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].end <= e.ts) close(/** @type {any} */ (stack.pop()));
      const parent = stack[stack.length - 1];
      if (parent) parent.child += e.dur;
      else {
        busy += e.dur / 1000;
        tasks++;
        if (e.dur > 50_000) long.push({ ms: e.dur / 1000, start: e.ts, inside: {} });
      }
      const url = e.args?.data?.url || e.args?.data?.stackTrace?.[0]?.url || parent?.url || '';
      stack.push({ e, end: e.ts + e.dur, child: 0, url: shortUrl(url) });
    }
    while (stack.length) close(/** @type {any} */ (stack.pop()));
    if (busy > best.busy) best = { windowMs: best.windowMs, key, busy, layers, urls, tasks, long };
  }
  return best;
}

/** @param {string} url */
function shortUrl(url) {
  if (!url) return '(no url)';
  if (/webview\/main\.js/.test(url)) return 'chat webview bundle';
  if (/naive\.js/.test(url)) return 'naive webview bundle';
  if (/webview\/browser\/pre\//.test(url)) return 'webview host frames (VS Code)';
  if (/workbench/.test(url)) return 'workbench (VS Code)';
  return url.replace(/^.*\//, '').slice(0, 60);
}

/**
 * Streams `chunks` through our chat while the workbench page is traced; writes the trace to `file` and
 * returns its summary lines.
 * @param {import('./workbench.mjs').Workbench} w
 * @param {string} file
 * @param {number} chunks
 * @param {'ours' | 'naive'} [client]
 */
export async function traceStream(w, file, chunks, client = 'ours') {
  await w.browser.startTracing(w.page, { categories: CATEGORIES });
  const r = await measureStream(w, { client, chunks, capMs: 20_000 });
  const buffer = await w.browser.stopTracing();
  fs.writeFileSync(file, buffer);
  const s = summarise(JSON.parse(buffer.toString('utf8')));
  const f = (/** @type {number} */ x) => `${Math.round(x)} ms`;
  const lines = [
    `trace of one ${chunks.toLocaleString('en-US')}-chunk stream (${client}, ${(r.ms / 1000).toFixed(2)} s, written to ${file}): renderer main thread busy ${f(s.busy)} of the ${Number.isFinite(s.windowMs) ? f(s.windowMs) : 'whole trace'} from Send to painted, in ${s.tasks} tasks`,
    `  ${Object.entries(s.layers).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`,
    `  script by source: ${Object.entries(s.urls).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`,
    ...s.long.map((t) => `  a task of ${f(t.ms)}: ${Object.entries(t.inside).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`),
    `  extension host CPU ${f(r.hostCpuMs)}, agent wrote the stream in ${f(r.agentWriteMs)}, longest task ${f(r.longTasks.length ? Math.max(...r.longTasks) : 0)}`,
  ];
  return { lines, summary: s, run: { ms: r.ms, hostCpuMs: r.hostCpuMs, agentWriteMs: r.agentWriteMs } };
}

/**
 * Traces the workbench page for `ms` with nothing happening; returns the summary line.
 * @param {import('./workbench.mjs').Workbench} w
 * @param {string} file
 */
export async function traceIdle(w, file, ms = 10_000) {
  await w.browser.startTracing(w.page, { categories: CATEGORIES });
  await new Promise((r) => setTimeout(r, ms));
  const buffer = await w.browser.stopTracing();
  fs.writeFileSync(file, buffer);
  const s = summarise(JSON.parse(buffer.toString('utf8')));
  const f = (/** @type {number} */ x) => `${Math.round(x)} ms`;
  return `idle trace (${ms / 1000} s, ${file}): renderer main thread busy ${f(s.busy)} in ${s.tasks} tasks; ${Object.entries(s.layers).map(([k, v]) => `${k} ${f(v)}`).join(', ')}; script by source: ${Object.entries(s.urls).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`;
}
