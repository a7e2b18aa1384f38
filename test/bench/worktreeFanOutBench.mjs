#!/usr/bin/env node
// @ts-check
// Ask Several Agents benchmark, part of `npm run bench` (issue 31's targets, docs/worktrees.md): in the real workbench
// (code-server + Chromium, 1400×900, the user's production build staged as the .vsix installs it), every window fresh,
// its workspace a git repository of a few hundred committed files (makeRepo), the agents scripted
// (test/fixtures/agents/scenarios/fanOutBench.json: each run edits two files through the client, writes a third
// itself, then streams a 3.5 KB Markdown answer in 200 chunks 15 ms apart).
//
// 1. No task over 50 ms in the workbench while a fan-out of 3 runs. ACP: Ask Several Agents… driven by keyboard as a
//    user does (three agents, the prompt, the check command `true`); from the last Enter (the check's input box) until
//    the compare view has painted its three checks passed, the long tasks (> 50 ms) of every frame of the page are
//    counted (e2e/frameProbe.mjs, merged over the frames: the workbench, the webview hosts, the compare view). The
//    baseline, in the same window afterwards: ACP: New Session… with one of the agents, then the same prompt typed into
//    the chat (one agent, no worktree, no check), counted the same way over what the user waits for: from the Enter on
//    the agent until the chat shows the session idle (the agent starts, the chat's webview is made, as the compare
//    view's is in the fan-out), and from the prompt's Enter until the answer's end is painted and the session is idle
//    again (the typing in between is not counted). Printed: count, longest and total of each, their ratios, the wall
//    times, and for each long task when it started and where (the frame whose own script ran it, from the long task's
//    attribution; the Long Animation Frame API's longest scripts of its frame). Target: 0 tasks over 50 ms.
// 2. Extension-host memory per extra worktree session. In a fresh window: a fan-out of 1 run, then a fan-out of 3 more
//    (4 sessions in worktrees); after each, once the checks passed: 3 s to settle, a full GC in the extension host, and
//    the median of 5 readings of its RSS (/proc: e2e/procStats.mjs; the pid is the one the helper extension below runs
//    in, checked to be one of the extension hosts below the server). The figure is
//    (RSS after 4 − RSS after 1) / 3. Baseline, in a fresh window of its own: the same for plain sessions (New Session
//    and the same prompt: 1, then 3 more; each has its chat open, as a plain session does). A fan-out of 1 run is not
//    offered by the pickers (one agent runs 2-4 times), so both windows are driven through Switchboard's API
//    (askSeveralAgents / newSession + prompt, the commands' own code below their pickers) by a small helper extension
//    installed next to Switchboard (HELPER below), which also runs the GC (`--expose-gc` set at run time).
//    Target: <= 20 MB per extra worktree session.
//
//   node test/bench/worktreeFanOutBench.mjs [--version 1.139.1] [--only longTasks|memory] [--rounds 1] [--memory-rounds 1]
//        [--files 300] [--git on|off] [--trace] [--dev] [--json out.json]
//
// --rounds: fresh windows for figure 1 (each: the fan-out, then the baseline); --memory-rounds: pairs of fresh windows
// for figure 2 (worktree and plain, in alternation). --git off turns VS Code's git extension off (it is on, as for a
// user, by default). --trace records a Chromium trace of the page during each measured run of figure 1 (written to the
// temp folder; it slows the page: its long tasks are not the figure's) and prints, for each task over 50 ms of the
// busiest renderer main thread, the trace events it spent its time in (e2e/trace.mjs). --dev runs dist/ instead of a
// production build. Needs `node esbuild.mjs --tests` (the scripted agent). Run it alone on the machine: a long task is
// a wall-clock figure. Exit code 1 when a target is missed or the run failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  EXTENSION_ROOT, KNOWN_VERSIONS, TEST_SETTINGS, ensureInstalled, launchBrowser, linkExtension, makeTmp, payloadNeedsSmokeTestDriver,
  removeTmpDirs, runPaletteCommand, sleep, startServer,
} from '../harness/harness.mjs';
import { scriptedAgent } from '../ui/scriptedSession.mjs';
import { frameProbe } from './e2e/frameProbe.mjs';
import { summarise } from './e2e/trace.mjs';
import { extensionHosts, rssMb } from './e2e/procStats.mjs';
import { median } from './e2e/report.mjs';
import { bundleSizes, chatFrame } from './e2e/workbench.mjs';

const { values } = parseArgs({
  options: {
    version: { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'memory-rounds': { type: 'string', default: '1' },
    files: { type: 'string', default: '300' },
    git: { type: 'string', default: 'on' },
    trace: { type: 'boolean', default: false },
    dev: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const version = values.version ?? KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1];
const fileCount = Math.max(10, Number(values.files));
const gitOn = values.git !== 'off';
const target = { longTaskMs: 50, longTasks: 0, mbPerSession: 20 };
/** The last chunk of the scenario's answer. */
const MARKER = 'END-OF-FANOUT-BENCH';
const AGENTS = [
  { id: 'bench-a', name: 'Bench Agent A', letter: 'A' },
  { id: 'bench-b', name: 'Bench Agent B', letter: 'B' },
  { id: 'bench-c', name: 'Bench Agent C', letter: 'C' },
];
const PROMPT = 'Add the feature with an options object';
const CHECK = 'true';

/** @param {string} s */
const say = (s) => process.stderr.write(`  … ${s}\n`);

/** The window's user settings; `delayScale` scales the scenario's chunk delays (0: at once). @param {string} delayScale */
function settingsFor(delayScale) {
  return {
    ...TEST_SETTINGS,
    'switchboard.agents': AGENTS.map((a) => {
      const s = scriptedAgent(a.id, a.name, 'fanOutBench', delayScale);
      return { ...s, env: { ...s.env, NAME: a.letter } };
    }),
    'switchboard.chat.openIn': 'editor',
    'git.enabled': gitOn,
  };
}

/**
 * A git repository on main with one commit of `count` TypeScript modules (in packages of 10) and a few project files.
 * @param {string} dir @param {number} count
 */
function makeRepo(dir, count) {
  const write = (/** @type {string} */ rel, /** @type {string} */ text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('README.md', '# Bench project\n\nA generated repository for the Ask Several Agents benchmark.\n');
  write('package.json', `${JSON.stringify({ name: 'bench-project', version: '1.0.0', private: true, scripts: { test: 'true' } }, null, 2)}\n`);
  write('tsconfig.json', `${JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'nodenext' }, include: ['src'] }, null, 2)}\n`);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, '0');
    const lines = [`// module ${i}`, `import type { Options } from '../types';`, ''];
    for (let f = 0; f < 8; f++) {
      lines.push(`/** Step ${f} of module ${i}. */`, `export function step${f}(o: Options): number {`, `  return o.strict ? o.size * ${f + 1} : o.size + ${i};`, '}', '');
    }
    write(`src/pkg${String(Math.floor(i / 10)).padStart(2, '0')}/module${n}.ts`, lines.join('\n'));
  }
  write('src/types.ts', 'export interface Options { size: number; strict?: boolean }\n');
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('-c', 'init.defaultBranch=main', 'init', '-q');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.invalid');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return dir;
}

// ------------------------------------------------------------------------------------------------
// the helper extension of figure 2: Switchboard's API and a GC, one command that does what a control file says

const HELPER = {
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
function installHelper(extensionsDir) {
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
function culpritProbe() {
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
async function longTasks(page, from, to) {
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

// ------------------------------------------------------------------------------------------------
// a fresh window

/**
 * A fresh code-server and browser window on a new git repository, Switchboard from `extRoot` (and the helper
 * extension when `helper`), `settings` as the user's; resolves once the explorer lists the folder.
 * @param {{ extRoot: string, settings: Record<string, unknown>, helper?: boolean, tmpPrefix: string }} o
 */
async function openWindow(o) {
  const tmp = makeTmp(o.tmpPrefix);
  const load = payloadNeedsSmokeTestDriver(version) ? 'link' : 'dev';
  const extensionsDir = path.join(tmp, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  if (load === 'link') linkExtension(extensionsDir, o.extRoot);
  const control = path.join(tmp, 'control.json');
  if (o.helper) installHelper(extensionsDir);
  const repo = makeRepo(path.join(tmp, 'repo'), fileCount);
  const server = await startServer({ version, forPayload: load === 'dev', settings: { ...o.settings, 'worktreeBench.control': control }, extensionsDir, quiet: true });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // frameProbe: the long tasks of every frame, a chat's Send and its answer's end painted; culpritProbe: where from
    await context.addInitScript(frameProbe, MARKER);
    await context.addInitScript(culpritProbe);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const payload = /** @type {[string, string][]} */ (load === 'dev' ? [['extensionDevelopmentPath', server.remote(o.extRoot)]] : []);
    await page.goto(server.url({ payload, folder: repo }), { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 30_000 }).catch(() => {});
    return { tmp, repo, control, server, browser, page, close: async () => { await browser.close(); await server.stop(); } };
  } catch (error) {
    await browser.close();
    await server.stop();
    throw error;
  }
}

/** @typedef {Awaited<ReturnType<typeof openWindow>>} Window */

/**
 * The error, its message naming a screenshot of the window as it was (in the temp folder).
 * @param {Window} w @param {string} what @param {unknown} error
 */
async function withScreenshot(w, what, error) {
  const file = path.join(os.tmpdir(), `worktreeFanOutBench-${what}-${Date.now()}.png`);
  const shot = await w.page.screenshot({ path: file }).then(() => file, () => undefined);
  const e = error instanceof Error ? error : new Error(String(error));
  if (shot) e.message += ` (the window: ${shot})`;
  return e;
}

/**
 * The content frame of the webview whose title matches `title` (the compare view: "Compare: <prompt>").
 * @param {import('playwright-core').Page} page @param {RegExp} title
 */
async function webviewByTitle(page, title, timeoutMs = 60_000) {
  const outer = page.locator('iframe.webview.ready');
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
    const n = await outer.count();
    for (let i = 0; i < n; i++) {
      const inner = outer.nth(i).contentFrame().locator('#active-frame');
      const t = await inner.getAttribute('title', { timeout: 1000 }).catch(() => null);
      if (t !== null && title.test(t)) return inner.contentFrame();
    }
  }
  throw new Error(`no webview titled ${title} within ${timeoutMs} ms`);
}

/**
 * Waits until the compare view shows `n` checks passed, painted (the frame stamps the task after the next animation
 * frame); resolves with when (ms since the epoch). A failed check or a failed run ends the wait with an error.
 * @param {import('playwright-core').FrameLocator} compare @param {number} n
 */
async function checksPassed(compare, n, timeoutMs = 120_000) {
  await compare.locator('body').evaluate((_el, count) => {
    const g = /** @type {any} */ (globalThis);
    g.__wtbDone = 0;
    const tick = () => {
      if (document.querySelectorAll('[data-testid="compare-check"][data-state="passed"]').length >= count) {
        requestAnimationFrame(() => setTimeout(() => { g.__wtbDone = Date.now(); }, 0));
        return;
      }
      setTimeout(tick, 20);
    };
    tick();
  }, n, { timeout: 30_000 });
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(200)) {
    const r = await compare.locator('body').evaluate(() => ({
      done: /** @type {any} */ (globalThis).__wtbDone,
      failed: document.querySelectorAll('[data-testid="compare-check"][data-state="failed"], [data-testid="compare-status"][data-status="failed"]').length,
    }), undefined, { timeout: 30_000 });
    if (r.done) return /** @type {number} */ (r.done);
    if (r.failed) throw new Error(`a run or its check failed: ${(await compare.locator('body').innerText()).replace(/\s+/g, ' ').slice(0, 600)}`);
  }
  throw new Error(`the compare view did not show ${n} checks passed within ${timeoutMs} ms`);
}

// ------------------------------------------------------------------------------------------------
// figure 1: long tasks

/** The trace categories of e2e/trace.mjs. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink.user_timing', 'disabled-by-default-v8.gc'];

/**
 * With --trace: starts a trace of the page; the function it resolves with stops it, writes it to the temp folder and
 * resolves with a line per task over 50 ms of the busiest renderer main thread (the trace events it spent its time in).
 * @param {Window} w @param {string} what
 */
async function startTrace(w, what) {
  if (!values.trace) return async () => /** @type {string[]} */ ([]);
  await w.browser.startTracing(w.page, { categories: TRACE_CATEGORIES });
  return async () => {
    const buffer = await w.browser.stopTracing();
    const file = path.join(os.tmpdir(), `worktreeFanOutBench-${what}-${Date.now()}.json`);
    fs.writeFileSync(file, buffer);
    const t = summarise(JSON.parse(buffer.toString('utf8')));
    const f = (/** @type {number} */ x) => `${Math.round(x)} ms`;
    return [
      `trace of the ${what} (${file}): renderer main thread busy ${f(t.busy)} in ${t.tasks} tasks; ${Object.entries(t.layers).map(([k, v]) => `${k} ${f(v)}`).join(', ')}; script by source: ${Object.entries(t.urls).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`,
      ...t.long.map((x) => `  a task of ${f(x.ms)}: ${Object.entries(x.inside).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`),
    ];
  };
}

/**
 * ACP: Ask Several Agents… by keyboard, as test/ui/worktrees.ui.mjs drives it; resolves with the time of the last
 * Enter (the check's command line). `beforeSend` runs right before that Enter.
 * @param {import('playwright-core').Page} page @param {string[]} agents @param {string} prompt @param {string} check
 * @param {() => Promise<unknown>} beforeSend
 */
async function askSeveralAgents(page, agents, prompt, check, beforeSend) {
  await runPaletteCommand(page, 'ACP: Ask Several Agents…');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 15_000 });
  for (const a of agents) {
    await input.fill(a);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: a }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]', { hasText: a }).first().waitFor({ timeout: 5_000 });
  }
  await input.fill('');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'The prompt every run gets' }).waitFor({ timeout: 10_000 });
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No check' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.type('Command Line');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'The command line to run in each worktree' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(check);
  await sleep(1000); // the window is idle before the measurement starts
  await beforeSend();
  const sentAt = Date.now();
  await page.keyboard.press('Enter');
  return sentAt;
}

/**
 * The baseline: ACP: New Session… with `agent`, then the prompt typed into the chat and sent. Resolves with the two
 * phases a user waits for: the Enter on the agent (`beforeOpen` runs right before it) until the chat showed the
 * session idle; the Enter on the prompt (frameProbe's stamp) until the answer's end had been painted and the session
 * was idle again, painted. The typing in between is not measured.
 * @param {import('playwright-core').Page} page @param {string} agent @param {string} prompt
 * @param {() => Promise<unknown>} beforeOpen
 */
async function singleSession(page, agent, prompt, beforeOpen) {
  let openAt = 0;
  for (let attempt = 1; ; attempt++) {
    await runPaletteCommand(page, 'ACP: New Session…');
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: agent }).first().waitFor({ timeout: 15_000 });
      await page.locator('.quick-input-widget input').fill(agent, { timeout: 5000 });
      await sleep(1000); // idle before the measurement
      await beforeOpen();
      openAt = Date.now();
      await page.keyboard.press('Enter');
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  const frame = await chatFrame(page);
  await frame.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  const readyAt = Date.now();
  await frame.locator('[data-testid="composer-input"]').click();
  await page.keyboard.type(prompt);
  await frame.evaluate(() => /** @type {any} */ (globalThis).__e2e.reset(false));
  await sleep(1000); // idle before the measurement
  await page.keyboard.press('Enter');
  await frame.evaluate(() => {
    const g = /** @type {any} */ (globalThis);
    g.__wtbIdle = 0;
    const tick = () => {
      const s = g.__e2e;
      if (s.sendAt && s.endAt && document.querySelector('[data-testid="session-status"][data-status="idle"]')) {
        requestAnimationFrame(() => setTimeout(() => { g.__wtbIdle = Date.now(); }, 0));
        return;
      }
      setTimeout(tick, 20);
    };
    tick();
  });
  for (const end = Date.now() + 120_000; Date.now() < end; await sleep(200)) {
    const r = await frame.evaluate(() => { const g = /** @type {any} */ (globalThis); return { sendAt: g.__e2e.sendAt, idleAt: g.__wtbIdle }; });
    if (r.idleAt) return { openAt, readyAt, sendAt: /** @type {number} */ (r.sendAt), idleAt: /** @type {number} */ (r.idleAt) };
  }
  throw new Error('the single session\'s answer was not painted, or the session not idle, within 120 s');
}

/** One fresh window: the fan-out of 3, then the single session. @param {string} extRoot */
async function longTaskWindow(extRoot) {
  const w = await openWindow({ extRoot, settings: settingsFor('1'), tmpPrefix: 'sb-fanoutbench-lt-' });
  try {
    await sleep(5000); // the window settles: the core loads at idle, git looks at the repository
    const names = AGENTS.map((a) => a.name);
    /** @type {() => Promise<string[]>} */
    let stopTrace = async () => [];
    const sentAt = await askSeveralAgents(w.page, names, PROMPT, CHECK, async () => { stopTrace = await startTrace(w, 'fan-out'); });
    const compare = await webviewByTitle(w.page, /^Compare: /);
    const doneAt = await checksPassed(compare, names.length);
    const fanOut = { wallMs: doneAt - sentAt, tasks: await longTasks(w.page, sentAt, doneAt), trace: await stopTrace() };
    const rows = (await compare.locator('[data-testid="compare-row"]').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    await sleep(2000);
    await runPaletteCommand(w.page, 'View: Close All Editors');
    await sleep(3000);
    stopTrace = async () => [];
    const s = await singleSession(w.page, names[0], PROMPT, async () => { stopTrace = await startTrace(w, 'single session'); });
    const single = {
      wallMs: (s.readyAt - s.openAt) + (s.idleAt - s.sendAt), openMs: s.readyAt - s.openAt, turnMs: s.idleAt - s.sendAt,
      tasks: [
        ...(await longTasks(w.page, s.openAt, s.readyAt)).map((t) => ({ ...t, phase: 'New Session' })),
        ...(await longTasks(w.page, s.sendAt, s.idleAt)).map((t) => ({ ...t, phase: 'the prompt' })),
      ],
      trace: await stopTrace(),
    };
    return { fanOut, single, rows };
  } catch (error) {
    throw await withScreenshot(w, 'longtasks', error);
  } finally {
    await w.close();
  }
}

// ------------------------------------------------------------------------------------------------
// figure 2: extension-host memory

/**
 * Runs the helper's command with `op` (the control file) and waits for its answer.
 * @param {Window} w @param {Record<string, unknown>} op
 */
async function helper(w, op, timeoutMs = 120_000) {
  const out = path.join(w.tmp, `out-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(w.control, JSON.stringify({ ...op, out }));
  await runPaletteCommand(w.page, 'Worktree Bench: Run');
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
    if (!fs.existsSync(out)) continue;
    /** @type {{ ok: boolean, error?: string, pid?: number, memory?: NodeJS.MemoryUsage }} */
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    if (!r.ok) throw new Error(`the helper's ${op.op} failed: ${r.error}`);
    return r;
  }
  throw new Error(`the helper's ${op.op} did not answer within ${timeoutMs} ms`);
}

/**
 * The extension host's memory once settled: 3 s, a full GC (in the extension host), 1 s, then the median of 5
 * readings of its RSS 300 ms apart; also its V8 heap after the GC. The extension host is the process the helper
 * runs in (it reports its pid), one of the extension hosts below the server.
 * @param {Window} w
 */
async function settledMemory(w) {
  await sleep(3000);
  const gc = await helper(w, { op: 'gc' });
  const hosts = extensionHosts(w.server.proc.pid ?? 0);
  const pid = gc.pid ?? NaN;
  if (!hosts.includes(pid)) throw new Error(`the helper runs in pid ${pid}, not in an extension host below the server (${hosts.join(', ')})`);
  await sleep(1000);
  /** @type {number[]} */
  const samples = [];
  for (let i = 0; i < 5; i++) { samples.push(rssMb(pid)); await sleep(300); }
  return {
    pid, rss: median(samples), samples, heapUsed: (gc.memory?.heapUsed ?? NaN) / 1024 / 1024, external: (gc.memory?.external ?? NaN) / 1024 / 1024,
    /** other extension hosts below the server, if any (pid and RSS) */
    others: hosts.filter((h) => h !== pid).map((h) => `${h} (${rssMb(h).toFixed(0)} MB)`),
  };
}

/**
 * One fresh window of figure 2: 1 session, then 3 more, in worktrees (fan-outs) or plain (New Session + the prompt).
 * @param {string} extRoot @param {'worktree' | 'plain'} kind
 */
async function memoryWindow(extRoot, kind) {
  const w = await openWindow({ extRoot, settings: settingsFor('0'), helper: true, tmpPrefix: `sb-fanoutbench-mem-${kind}-` });
  try {
    await sleep(5000);
    const start = await settledMemory(w);
    const [a, b, c] = AGENTS.map((x) => x.id);
    if (kind === 'worktree') {
      await helper(w, { op: 'fanOut', request: { agents: [a], runsPerAgent: 1, prompt: `One run: ${PROMPT}`, check: CHECK } });
      await checksPassed(await webviewByTitle(w.page, /^Compare: One run/), 1);
    } else {
      await helper(w, { op: 'sessions', agents: [a], prompt: PROMPT });
    }
    const one = await settledMemory(w);
    if (kind === 'worktree') {
      await helper(w, { op: 'fanOut', request: { agents: [a, b, c], runsPerAgent: 1, prompt: `Three runs: ${PROMPT}`, check: CHECK } });
      await checksPassed(await webviewByTitle(w.page, /^Compare: Three runs/), 3);
    } else {
      await helper(w, { op: 'sessions', agents: [a, b, c], prompt: PROMPT });
    }
    const four = await settledMemory(w);
    if (one.pid !== four.pid || start.pid !== one.pid) throw new Error(`the extension host changed: pid ${start.pid}, ${one.pid}, ${four.pid}`);
    const pid = four.pid;
    const others = [...start.others.map((o) => `${o} at the start`), ...four.others.map((o) => `${o} at the end`)];
    const worktrees = execFileSync('git', ['worktree', 'list'], { cwd: w.repo, encoding: 'utf8' }).trim().split('\n').length - 1;
    return { kind, pid, others, start, one, four, perExtra: (four.rss - one.rss) / 3, heapPerExtra: (four.heapUsed - one.heapUsed) / 3, worktrees };
  } catch (error) {
    throw await withScreenshot(w, `memory-${kind}`, error);
  } finally {
    await w.close();
  }
}

// ------------------------------------------------------------------------------------------------

async function main() {
  ensureInstalled(version);
  if (!fs.existsSync(path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'))) throw new Error('out/test/fixtures/agents/scriptedAgent.js is missing: node esbuild.mjs --tests');
  const load = os.loadavg();
  const extRoot = values.dev ? EXTENSION_ROOT : bundleSizes().root;
  const started = Date.now();
  /** @type {Awaited<ReturnType<typeof longTaskWindow>>[]} */
  const lt = [];
  /** @type {Awaited<ReturnType<typeof memoryWindow>>[]} */
  const mem = [];
  if (values.only !== 'memory') {
    for (let i = 1; i <= Number(values.rounds); i++) {
      say(`long tasks, window ${i}: a fan-out of 3, then one session`);
      const r = await longTaskWindow(extRoot);
      say(`  fan-out ${r.fanOut.tasks.length} long tasks in ${r.fanOut.wallMs} ms; single session ${r.single.tasks.length} in ${r.single.wallMs} ms`);
      lt.push(r);
    }
  }
  const ltSeconds = (Date.now() - started) / 1000;
  if (values.only !== 'longTasks') {
    for (let i = 1; i <= Number(values['memory-rounds']); i++) {
      /** @type {('worktree' | 'plain')[]} */
      const order = i % 2 ? ['worktree', 'plain'] : ['plain', 'worktree'];
      for (const kind of order) {
        say(`memory, round ${i}: ${kind} sessions, a fresh window`);
        const r = await memoryWindow(extRoot, kind);
        say(`  RSS ${r.start.rss.toFixed(1)} → ${r.one.rss.toFixed(1)} → ${r.four.rss.toFixed(1)} MB; ${r.perExtra.toFixed(1)} MB per extra session`);
        mem.push(r);
      }
    }
  }
  return { load, loadAfter: os.loadavg(), lt, mem, ltSeconds, memSeconds: (Date.now() - started) / 1000 - ltSeconds };
}

main().then(({ load, loadAfter, lt, mem, ltSeconds, memSeconds }) => {
  let ok = true;
  const check = (/** @type {boolean} */ met) => { ok &&= met; return met ? 'met' : 'MISSED'; };
  const ms = (/** @type {number} */ x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a');
  const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? `${(a / b).toFixed(2)}x` : a > 0 ? 'n/a (baseline 0)' : '1.00x (both 0)');
  const loads = `load average ${load.map((x) => x.toFixed(2)).join(' ')} → ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`;
  console.log(`Benchmark: Ask Several Agents in the workbench (VS Code ${version}, code-server + Chromium, 1400×900, ${values.dev ? 'dist/' : 'production build'}, ${os.cpus().length} cores, a git repository of ${fileCount + 4} committed files, VS Code's git ${gitOn ? 'on' : 'off'}; ${loads})`);
  if (lt.length) {
    console.log(`  1. a fan-out of 3 scripted agents (200 chunks in 3 s each, writes 3 files, check \`${CHECK}\`), the first thing a fresh window does; ${lt.length} window${lt.length > 1 ? 's' : ''}, ${ltSeconds.toFixed(0)} s`);
    const stat = (/** @type {{ tasks: { duration: number }[] }[]} */ runs) => {
      const counts = runs.map((r) => r.tasks.length);
      const max = Math.max(0, ...runs.flatMap((r) => r.tasks.map((t) => t.duration)));
      return { count: median(counts), counts, max, total: median(runs.map((r) => r.tasks.reduce((s, t) => s + t.duration, 0))) };
    };
    const f = stat(lt.map((r) => r.fanOut));
    const s = stat(lt.map((r) => r.single));
    const wall = median(lt.map((r) => r.fanOut.wallMs));
    console.log(`     long tasks (> ${target.longTaskMs} ms) from Send until the 3 checks passed: ${f.count} (${f.counts.join(', ')}), longest ${ms(f.max)}, ${ms(f.total)} in all; wall time ${(wall / 1000).toFixed(2)} s   target ${target.longTasks}: ${check(Math.max(...f.counts) <= target.longTasks)}`);
    const phase = (/** @type {string} */ p) => lt.map((r) => r.single.tasks.filter((t) => t.phase === p).length).join(', ');
    console.log(`     baseline, the same window after it: New Session + the same prompt (one agent, no worktree, no check): ${s.count} (${s.counts.join(', ')}: New Session ${phase('New Session')}, the prompt ${phase('the prompt')}), longest ${ms(s.max)}, ${ms(s.total)} in all; Enter on the agent → chat idle ${(median(lt.map((r) => r.single.openMs)) / 1000).toFixed(2)} s + Send → idle ${(median(lt.map((r) => r.single.turnMs)) / 1000).toFixed(2)} s`);
    console.log(`     fan-out / single session: long tasks ${ratio(f.count, s.count)}, longest ${ratio(f.max, s.max)}, time in long tasks ${ratio(f.total, s.total)}; wall time ${ratio(wall, median(lt.map((r) => r.single.wallMs)))}`);
    for (const [i, r] of lt.entries()) {
      console.log(`       window ${i + 1}, the compare view at the end: ${r.rows.map((x) => x.slice(0, 140)).join(' | ')}`);
      for (const [what, run] of /** @type {const} */ ([['fan-out', r.fanOut], ['single', r.single]])) {
        for (const t of /** @type {(typeof run.tasks[number] & { phase?: string })[]} */ (run.tasks)) {
          const after = t.phase === 'New Session' ? 'the Enter on the agent' : 'Send';
          console.log(`       window ${i + 1}, ${what}${t.phase ? ` (${t.phase})` : ''}: ${t.duration} ms at +${Math.round(t.start)} ms after ${after}, in the ${t.ranIn}${t.scripts.length ? `; its animation frame's longest scripts: ${t.scripts.join('; ')}` : ''}`);
        }
        for (const l of run.trace) console.log(`       window ${i + 1}, ${what}: ${l}`);
      }
    }
  }
  if (mem.length) {
    console.log(`  2. extension-host memory per extra worktree session (RSS after 4 sessions − after 1, / 3; a full GC, then the median of 5 readings); ${mem.length} fresh windows, ${memSeconds.toFixed(0)} s`);
    const line = (/** @type {'worktree' | 'plain'} */ kind) => {
      const rs = mem.filter((m) => m.kind === kind);
      for (const m of rs) {
        console.log(`     ${kind === 'worktree' ? 'in worktrees (a fan-out of 1, then one of 3)' : 'plain sessions (New Session + the prompt, chats open), baseline'}: RSS ${m.start.rss.toFixed(1)} MB settled → ${m.one.rss.toFixed(1)} MB after 1 → ${m.four.rss.toFixed(1)} MB after 4 = ${m.perExtra.toFixed(1)} MB per extra session (V8 heap after GC ${m.one.heapUsed.toFixed(1)} → ${m.four.heapUsed.toFixed(1)} MB, ${m.heapPerExtra.toFixed(2)} MB per extra; pid ${m.pid}${m.others.length ? `; other extension hosts below the server, not counted: ${m.others.join(', ')}` : ''}${kind === 'worktree' ? `; ${m.worktrees} worktrees` : ''})`);
      }
      return median(rs.map((m) => m.perExtra));
    };
    const wt = line('worktree');
    const plain = line('plain');
    console.log(`     MB per extra worktree session ${wt.toFixed(1)} MB   target <= ${target.mbPerSession} MB: ${check(wt <= target.mbPerSession)}; plain sessions ${plain.toFixed(1)} MB; worktree / plain ${plain > 0 ? `${(wt / plain).toFixed(2)}x` : `n/a (plain ${plain.toFixed(1)} MB)`}`);
  }
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ version, load, loadAfter, longTasks: lt, memory: mem, target, met: ok }, null, 2));
  removeTmpDirs();
  process.exit(ok ? 0 : 1);
}, (error) => {
  console.error(`FAIL the Ask Several Agents benchmark did not run: ${error instanceof Error ? error.stack : String(error)}`);
  removeTmpDirs();
  process.exit(1);
});
