// @ts-check
// The end-to-end bench's workbench: code-server + Chromium with Switchboard and the naive baseline client
// (naiveClient/, installed next to it), both talking to streamAgent.mjs; and one measured stream through
// either client (see ../e2eStreamBench.mjs for what is measured and why).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  EXTENSION_ROOT, launchBrowser, linkExtension, makeTmp, makeWorkspace, payloadNeedsSmokeTestDriver,
  runPaletteCommand, sleep, startServer,
} from '../../harness/harness.mjs';
import { MARKER } from '../render/chunks.mjs';
import { frameProbe } from './frameProbe.mjs';
import { cpuMs, extensionHosts, peakMb, renderers, resetPeak, rssMb } from './procStats.mjs';

const HERE = import.meta.dirname;
export const AGENT = 'Stream bench agent';

/** Installs the naive client into `extensionsDir` (its webview bundled with esbuild). @param {string} extensionsDir */
async function installNaiveClient(extensionsDir) {
  const dir = path.join(extensionsDir, 'switchboard-bench.naive-bench-client-0.0.1');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'extension.js']) fs.copyFileSync(path.join(HERE, 'naiveClient', f), path.join(dir, f));
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(HERE, 'naiveClient', 'naiveWebview.mjs')], outfile: path.join(dir, 'naive.js'),
    bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, loader: { '.css': 'empty' }, logLevel: 'warning',
  });
}

/**
 * Starts the workbench with both clients and opens it in Chromium, at `viewport` (the user's: 1400×900),
 * Switchboard's chat in an editor tab or in the secondary side bar (`placement`), the baseline client in
 * `baseline` mode (naiveClient/extension.js).
 * @param {{ version: string, extensionRoot?: string, viewport?: { width: number, height: number }, placement?: 'editor' | 'sideBar', baseline?: 'rerender' | 'incremental' }} o
 */
export async function startWorkbench(o) {
  const tmp = makeTmp('sb-e2ebench-');
  const control = path.join(tmp, 'control.json');
  const streamLog = path.join(tmp, 'stream.log');
  fs.writeFileSync(control, JSON.stringify({ chunks: 10, rate: 0 }));
  const extRoot = o.extensionRoot ?? EXTENSION_ROOT;
  const load = payloadNeedsSmokeTestDriver(o.version) ? 'link' : 'dev';
  const extensionsDir = path.join(tmp, 'extensions');
  if (load === 'link') linkExtension(extensionsDir, extRoot);
  await installNaiveClient(extensionsDir);
  const agent = { command: process.execPath, args: [path.join(HERE, 'streamAgent.mjs')], env: { STREAM_CONTROL: control, STREAM_LOG: streamLog } };
  const settings = {
    'switchboard.agents': [{ id: 'stream-bench', name: AGENT, ...agent }],
    'naiveBench.agent': agent,
    'naiveBench.mode': o.baseline ?? 'incremental',
    'switchboard.chat.openIn': o.placement ?? 'editor',
  };
  const server = await startServer({ version: o.version, forPayload: load === 'dev', settings, extensionsDir, quiet: true });
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: o.viewport ?? { width: 1400, height: 900 } });
  await context.addInitScript(frameProbe, MARKER);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const workspace = makeWorkspace(path.join(tmp, 'workspace'));
  const payload = /** @type {[string, string][]} */ (load === 'dev' ? [['extensionDevelopmentPath', server.remote(extRoot)]] : []);
  const loadStart = Date.now();
  await page.goto(server.url({ payload, folder: workspace }), { timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 30_000 }).catch(() => {});
  let exthost;
  for (const end = Date.now() + 30_000; !exthost && Date.now() < end; await sleep(200)) exthost = extensionHosts(server.proc.pid ?? 0).at(-1);
  if (!exthost) throw new Error('no extension host process found below the server');
  const renderer = renderers()[0];
  return {
    server, browser, page, control, streamLog, exthost, renderer, loadStart, placement: o.placement ?? 'editor',
    stop: async () => { await browser.close(); await server.stop(); },
  };
}

/** @typedef {Awaited<ReturnType<typeof startWorkbench>>} Workbench */

/** @param {import('playwright-core').Page} page @returns {Promise<import('playwright-core').Frame>} */
export async function chatFrame(page, timeoutMs = 60_000) {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
    for (const f of page.frames()) {
      if (f.isDetached()) continue;
      if (await f.evaluate(() => /** @type {any} */ (globalThis).__e2e?.chat === true && !!document.querySelector('[data-testid="composer-input"]')).catch(() => false)) return f;
    }
  }
  throw new Error(`no chat appeared within ${timeoutMs} ms`);
}

/**
 * A palette command, tried again when it fails: right after a long stream the busy workbench can close the
 * command palette between F1 and typing (seen once in round 2 of a 3-round run), which is not what is measured.
 * @param {import('playwright-core').Page} page @param {string} title
 */
async function palette(page, title) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runPaletteCommand(page, title);
    } catch (error) {
      // a modal dialog makes the rest of the workbench inert: say what it asked, then close it
      const dialog = page.locator('.monaco-dialog-box');
      const asked = await dialog.isVisible().catch(() => false) ? (await dialog.innerText().catch(() => '')).replace(/\s+/g, ' ') : '';
      process.stderr.write(`  … palette "${title}" failed (try ${attempt}${asked ? `; a dialog asked: ${asked}` : ''})\n`);
      await page.screenshot({ path: path.join(os.tmpdir(), `e2ebench-palette-${attempt}.png`) }).catch(() => {});
      if (attempt >= 3) throw error;
      if (asked) await dialog.locator('.dialog-buttons a, .dialog-buttons button').last().click().catch(() => {});
      await sleep(2000);
    }
  }
}

/**
 * Closes every editor and opens a new chat of `client`; resolves with its content frame.
 * @param {Workbench} w
 * @param {'ours' | 'naive'} client
 */
export async function openChat(w, client) {
  await palette(w.page, 'View: Close All Editors');
  await sleep(500);
  if (client === 'naive') {
    await palette(w.page, 'Naive Bench: Open Chat');
  } else {
    await palette(w.page, 'ACP: New Session…');
    await w.page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().waitFor({ timeout: 15_000 });
    await w.page.keyboard.type(AGENT);
    await w.page.keyboard.press('Enter');
  }
  const frame = await chatFrame(w.page);
  if (client === 'ours') await frame.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  return frame;
}

/** Long tasks (over 50 ms) of the workbench renderer between `from` and `to` (wall clock), merged over its frames. @param {Workbench} w */
async function longTasks(w, from, to) {
  /** @type {{ start: number, duration: number }[]} */
  const all = [];
  for (const f of w.page.frames()) {
    if (f.isDetached()) continue;
    all.push(...await f.evaluate(() => /** @type {any} */ (globalThis).__e2e?.longTasks ?? []).catch(() => []));
  }
  all.sort((a, b) => a.start - b.start);
  /** @type {number[]} */
  const out = [];
  let last = -Infinity;
  for (const t of all) {
    if (t.start < from || t.start > to) continue;
    if (t.start - last < 5) continue; // the same task, seen from another frame
    last = t.start;
    out.push(t.duration);
  }
  return out;
}

/**
 * One measured stream: a new chat of `client`, the prompt typed and sent, until the answer's end is painted.
 * Also read: the chat frame's DOM nodes at the end, and which renderer process did the work (the one whose
 * CPU time grew most: the chat's webview may be isolated in a process of its own), with its RSS.
 * `floor`: the chat is given no text to render (frameProbe.mjs), and the time ends when the last chunk reached
 * its window: the relay's floor, what the same stream costs before the chat does anything with it.
 * @param {Workbench} w
 * @param {{ client: 'ours' | 'naive', chunks: number, shape?: import('../render/chunks.mjs').Shape, rate?: number, capMs?: number, timeoutMs?: number, floor?: boolean }} o
 */
export async function measureStream(w, o) {
  fs.writeFileSync(w.control, JSON.stringify({ chunks: o.chunks, rate: o.rate ?? 0, shape: o.shape ?? 'bench' }));
  const frame = await openChat(w, o.client);
  await frame.evaluate(([paced, floor]) => /** @type {any} */ (globalThis).__e2e.reset(paced, 0, floor), [(o.rate ?? 0) > 0, o.floor === true]);
  await frame.locator('[data-testid="composer-input"]').click();
  await w.page.keyboard.type('go');
  await sleep(1000); // settle: the chat is idle before the measurement starts
  const rssBefore = rssMb(w.renderer);
  resetPeak(w.renderer);
  const hostCpu0 = cpuMs(w.exthost);
  const rendererCpu0 = cpuMs(w.renderer);
  const all0 = new Map(renderers().map((p) => [p, { cpu: cpuMs(p), rss: rssMb(p) }]));
  for (const p of all0.keys()) if (p !== w.renderer) resetPeak(p);
  await w.page.keyboard.press('Enter');
  const started = Date.now();
  const capMs = o.capMs ?? Infinity;
  const timeoutMs = o.timeoutMs ?? 300_000;
  /** @type {{ sendAt: number, endAt: number }} */
  let r = { sendAt: 0, endAt: 0 };
  for (;;) {
    await sleep(200);
    r = await frame.evaluate(() => { const s = /** @type {any} */ (globalThis).__e2e; return { sendAt: s.sendAt, endAt: s.endAt }; });
    if (r.endAt || Date.now() - started > Math.min(capMs, timeoutMs)) break;
  }
  const hostCpuMs = cpuMs(w.exthost) - hostCpu0;
  const rendererCpuMs = cpuMs(w.renderer) - rendererCpu0;
  const peakGrowthMb = peakMb(w.renderer) - rssBefore;
  // the renderer that did the work: if it is not the workbench's, its figures are the ones that count
  const worked = [...all0].map(([p, a]) => ({ pid: p, cpuMs: cpuMs(p) - a.cpu, peakGrowthMb: peakMb(p) - a.rss })).sort((a, b) => b.cpuMs - a.cpuMs);
  const busiest = worked[0];
  const chatRenderer = { pid: busiest?.pid, isWorkbench: busiest?.pid === w.renderer, cpuMs: busiest?.cpuMs ?? NaN, peakGrowthMb: busiest?.peakGrowthMb ?? NaN, renderers: worked.length };
  const finished = r.endAt > 0;
  const end = finished ? r.endAt : Date.now();
  const ms = end - r.sendAt;
  let projectedMs = ms;
  if (!finished) {
    if (Date.now() - started > timeoutMs && !Number.isFinite(capMs)) throw new Error(`${o.client}: the answer of ${o.chunks} chunks was not painted within ${timeoutMs} ms`);
    // stopped after the cap (the naive client is quadratic): project from the share of the text it painted
    const share = (await frame.evaluate(() => /** @type {any} */ (globalThis).__naive?.rendered ?? 0).catch(() => 0)) / o.chunks;
    projectedMs = share > 0 ? ms / share ** 2 : Infinity;
    // the naive client would go on re-rendering the whole message every frame, starving the next run's workbench
    await frame.evaluate(() => /** @type {any} */ (globalThis).__naive?.stop()).catch(() => {});
  }
  const tasks = await longTasks(w, r.sendAt, end);
  // when the chat's window got the stream's last message (the host's and the workbench's part), from Send
  const lastReceivedMs = await frame.evaluate(() => { const s = /** @type {any} */ (globalThis).__e2e; return s.lastMessageAt ? s.lastMessageAt - s.sendAt : NaN; }).catch(() => NaN);
  /** @type {number[]} */
  let lags = [];
  let lastLag = NaN;
  let stamped = 0;
  /** @type {number[]} agent write → the chat's window received it */
  let receiveLags = [];
  if ((o.rate ?? 0) > 0 && finished) {
    await sleep(300);
    /** @type {Record<string, [number, number]>} */
    const stamps = await frame.evaluate(() => /** @type {any} */ (globalThis).__e2e.stamps);
    const keys = Object.keys(stamps).map(Number).sort((a, b) => a - b);
    stamped = keys.length;
    lags = keys.map((k) => stamps[k][1] - stamps[k][0]);
    /** @type {Record<string, number>} */
    const received = await frame.evaluate(() => /** @type {any} */ (globalThis).__e2e.received);
    receiveLags = keys.filter((k) => received[k]).map((k) => received[k] - stamps[k][0]);
    lastLag = keys.at(-1) === o.chunks - 1 ? lags[lags.length - 1] : NaN;
  }
  const streamLog = fs.existsSync(w.streamLog) ? fs.readFileSync(w.streamLog, 'utf8').trim().split('\n').at(-1) : undefined;
  const agentWriteMs = streamLog ? JSON.parse(streamLog).writeMs : NaN;
  if (o.client === 'ours') await frame.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 120_000 }).catch(() => {});
  // the DOM the chat keeps: its frame's elements and text nodes, once the turn is over
  const domNodes = await frame.evaluate(() => {
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let n = 0;
    while (walker.nextNode()) n++;
    return n;
  }).catch(() => NaN);
  return { ...o, finished, ms, projectedMs, lastReceivedMs, longTasks: tasks, hostCpuMs, rendererCpuMs, rssBefore, peakGrowthMb, chatRenderer, domNodes, lags, receiveLags, lastLag, stamped, agentWriteMs, frame };
}

/**
 * CPU use of the renderer and the extension host over `ms` with nothing happening, in % of one core; first
 * the page settles and its garbage (of earlier streams) is collected, so that it does not count as idle work.
 * @param {Workbench} w
 */
export async function idleCpu(w, ms = 10_000) {
  await sleep(3000);
  const cdp = await w.page.context().newCDPSession(w.page);
  await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
  await cdp.detach().catch(() => {});
  await sleep(1000);
  const h0 = cpuMs(w.exthost);
  const r0 = cpuMs(w.renderer);
  await sleep(ms);
  return { renderer: ((cpuMs(w.renderer) - r0) / ms) * 100, host: ((cpuMs(w.exthost) - h0) / ms) * 100 };
}

/** Minified sizes of the product bundles (a production build into a temporary folder), in KB. */
export function bundleSizes() {
  // a staged extension as the .vsix installs it (scripts/package.mjs): the workbench runs the user's build
  const root = makeTmp('sb-e2ebench-ext-');
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) fs.copyFileSync(path.join(EXTENSION_ROOT, f), path.join(root, f));
  fs.cpSync(path.join(EXTENSION_ROOT, 'media'), path.join(root, 'media'), { recursive: true });
  const out = path.join(root, 'dist');
  execFileSync(process.execPath, [path.join(EXTENSION_ROOT, 'esbuild.mjs'), '--production', '--outdir', out], { cwd: EXTENSION_ROOT, stdio: 'ignore' });
  const kb = (/** @type {string} */ f) => (fs.existsSync(path.join(out, f)) ? fs.statSync(path.join(out, f)).size / 1024 : 0);
  const lazy = fs.readdirSync(out).filter((f) => f.endsWith('.js') && !['extension.js', 'core.js'].includes(f)).reduce((a, f) => a + kb(f), 0);
  return { root, extension: kb('extension.js'), core: kb('core.js'), lazy, webview: kb('webview/main.js') + kb('webview/main.css') };
}
