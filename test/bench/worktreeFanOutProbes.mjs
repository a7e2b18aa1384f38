// @ts-check
// The page probes and the helper extension of the Ask Several Agents benchmark (worktreeFanOutBench.mjs).
import fs from 'node:fs';
import path from 'node:path';
// ------------------------------------------------------------------------------------------------
// the helper extension of figure 2: Switchboard's API and a GC, one command that does what a control file says

export const HELPER = {
  'package.json': JSON.stringify({
    name: 'worktree-bench-helper', publisher: 'switchboard-bench', version: '0.0.1', engines: { vscode: '^1.80.0' }, main: './extension.js',
    activationEvents: ['onCommand:worktreeBench.run'],
    contributes: {
      commands: [{ command: 'worktreeBench.run', title: 'Worktree Bench: Run' }],
      configuration: { properties: { 'worktreeBench.control': { type: 'string', default: '' } } },
    },
  }, null, 2),
  'extension.js': `'use strict';
const vscode = require('vscode');
const fs = require('fs');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('worktreeBench.run', async () => {
    const c = JSON.parse(fs.readFileSync(vscode.workspace.getConfiguration('worktreeBench').get('control'), 'utf8'));
    let result;
    try {
      if (c.op === 'gc') {
        require('v8').setFlagsFromString('--expose-gc');
        const gc = require('vm').runInNewContext('gc');
        for (let i = 0; i < 3; i++) { gc(); await new Promise((r) => setTimeout(r, 100)); }
        result = { pid: process.pid, memory: process.memoryUsage() };
      } else {
        const api = await vscode.extensions.getExtension('switchboard.switchboard').activate();
        if (c.op === 'fanOut') {
          result = { id: await api.askSeveralAgents(c.request) };
        } else if (c.op === 'sessions') {
          const ids = [];
          for (const agent of c.agents) { const id = await api.newSession(agent); ids.push(id); await api.prompt(id, c.prompt); }
          result = { ids };
        } else {
          throw new Error('unknown op ' + c.op);
        }
      }
      fs.writeFileSync(c.out, JSON.stringify({ ok: true, ...result }));
    } catch (e) {
      fs.writeFileSync(c.out, JSON.stringify({ ok: false, error: String((e && e.stack) || e) }));
    }
  }));
};
`,
};

/** @param {string} extensionsDir */
export function installHelper(extensionsDir) {
  const dir = path.join(extensionsDir, 'switchboard-bench.worktree-bench-helper-0.0.1');
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(HELPER)) fs.writeFileSync(path.join(dir, f), text);
}

// ------------------------------------------------------------------------------------------------
// the page's probes

/**
 * An init script next to frameProbe (which counts the long tasks): in every frame, each long task's attribution and
 * the Long Animation Frame API's frames over 50 ms with their longest scripts, to tell where a long task came from.
 */
export function culpritProbe() {
  /** @type {{ start: number, duration: number, name: string, container: string }[]} */
  const tasks = [];
  /** @type {{ start: number, duration: number, blocking: number, scripts: { ms: number, what: string }[] }[]} */
  const frames = [];
  Object.assign(globalThis, { __wtb: { tasks, frames } });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const a = /** @type {any} */ (e).attribution?.[0];
        tasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration, name: e.name, container: a ? [a.containerType, a.containerName || a.containerId, a.containerSrc].filter(Boolean).join(' ') : '' });
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch { /* not supported */ }
  try {
    new PerformanceObserver((list) => {
      for (const e of /** @type {any[]} */ (list.getEntries())) {
        const scripts = (e.scripts ?? []).filter((/** @type {any} */ s) => s.duration >= 10).sort((/** @type {any} */ x, /** @type {any} */ y) => y.duration - x.duration).slice(0, 3)
          .map((/** @type {any} */ s) => ({ ms: Math.round(s.duration), what: `${s.invokerType ?? ''} ${s.invoker ?? ''} ${String(s.sourceURL ?? '').split('?')[0].split('/').pop()}${s.sourceFunctionName ? ` ${s.sourceFunctionName}()` : ''}`.replace(/\s+/g, ' ').trim() }));
        frames.push({ start: performance.timeOrigin + e.startTime, duration: e.duration, blocking: e.blockingDuration ?? 0, scripts });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch { /* not supported */ }
}

/**
 * What a frame of the page is: the workbench, a webview's host frame, or a webview's content (the compare view, a chat).
 * @param {import('playwright-core').Frame} f
 */
async function frameKind(f) {
  return f.evaluate(() => (window === window.top ? 'workbench'
    : document.querySelector('[data-testid="compare-table"], main[aria-label="Compare runs"]') ? 'compare view'
      : document.getElementById('transcript') ? 'chat'
        : window.parent === window.top ? 'webview host' : 'other frame')).catch(() => 'detached');
}

/**
 * The long tasks (over 50 ms) of the page that started between `from` and `to` (wall clock), merged over its frames as
 * e2e/workbench.mjs does (a task seen from several frames counts once), each with where it was seen from.
 * @param {import('playwright-core').Page} page @param {number} from @param {number} to
 */
export async function longTasks(page, from, to) {
  /** @type {{ start: number, duration: number, kind: string }[]} */
  const all = [];
  /** @type {{ start: number, duration: number, kind: string, name: string, container: string }[]} */
  const seen = [];
  /** @type {{ start: number, duration: number, blocking: number, kind: string, scripts: { ms: number, what: string }[] }[]} */
  const loafs = [];
  for (const f of page.frames()) {
    if (f.isDetached()) continue;
    const kind = await frameKind(f);
    const r = await f.evaluate(() => {
      const g = /** @type {any} */ (globalThis);
      return { e2e: g.__e2e?.longTasks ?? [], wtb: g.__wtb ?? { tasks: [], frames: [] } };
    }).catch(() => ({ e2e: [], wtb: { tasks: [], frames: [] } }));
    all.push(...r.e2e.map((/** @type {{ start: number, duration: number }} */ t) => ({ ...t, kind })));
    seen.push(...r.wtb.tasks.map((/** @type {any} */ t) => ({ ...t, kind })));
    loafs.push(...r.wtb.frames.map((/** @type {any} */ t) => ({ ...t, kind })));
  }
  all.sort((a, b) => a.start - b.start);
  // one task seen from several frames counts once: tasks of one main thread do not overlap, so an entry that starts
  // inside the one before is the same task (a frame made during a task sees only its end)
  /** @type {{ start: number, end: number }[]} */
  const merged = [];
  for (const t of all) {
    const last = merged[merged.length - 1];
    if (last && t.start < last.end - 1) last.end = Math.max(last.end, t.start + t.duration);
    else merged.push({ start: t.start, end: t.start + t.duration });
  }
  /** @type {{ start: number, duration: number, ranIn: string, seenBy: string, scripts: string[] }[]} */
  const out = [];
  for (const t of merged) {
    const duration = t.end - t.start;
    if (t.start < from || t.start > to || duration <= 50) continue;
    const inside = (/** @type {{ start: number }} */ x) => x.start >= t.start - 5 && x.start < t.end;
    const views = seen.filter(inside);
    // the frame whose own script ran it ('self'); else what its ancestors were told
    const ranIn = [...new Set(views.filter((v) => v.name === 'self').map((v) => v.kind))].join(' + ')
      || [...new Set(views.map((v) => (v.name.endsWith('descendant') ? `a frame below the ${v.kind}` : v.name)))].join(', ') || 'unknown';
    const loaf = loafs.filter((l) => l.start <= t.start + 5 && l.start + l.duration >= t.start).sort((a, b) => b.duration - a.duration)[0];
    const scripts = loaf ? loaf.scripts.map((x) => `${x.ms} ms ${x.what}`) : [];
    out.push({ start: t.start - from, duration: Math.round(duration), ranIn, seenBy: [...new Set(views.map((v) => v.kind))].join(', '), scripts });
  }
  return out;
}

