#!/usr/bin/env node
// @ts-check
// UI tests: Playwright drives the real VS Code web workbench (code-server) in Debian's chromium, as a
// person would, on every VS Code version we support.
//
//   node test/harness/runUi.mjs                       # every test/ui/*.ui.mjs on the newest version, the
//                                                     # compatibility subset (test/ui/compatSubset.mjs) on the oldest
//   node test/harness/runUi.mjs --all                 # every module on every version (or SWITCHBOARD_UI_FULL=1)
//   node test/harness/runUi.mjs --version 1.100.3     # one version (repeatable; or SWITCHBOARD_VERSIONS)
//   node test/harness/runUi.mjs --grep smoke          # only modules whose name matches
//   node test/harness/runUi.mjs --jobs 1              # tests at a time (default 2; or SWITCHBOARD_UI_JOBS)
//
// Build first: node esbuild.mjs (npm run test:ui does). The extension is loaded as a development
// extension through the URL payload on VS Code 1.100, and installed by symlink into the extensions dir on
// newer versions (there the payload needs the smoke-test driver, which hides notification toasts).
// SWITCHBOARD_UI_LOAD=dev|link forces one way; SWITCHBOARD_UI_VSIX=path.vsix installs that package instead.
//
// A UI module (test/ui/<name>.ui.mjs) exports:
//   export const name = 'sessions';                 // optional, default: the file name
//   export const settings = { 'switchboard.x': 1 }; // optional user settings (merged over quiet defaults)
//   export const env = { SOME_VAR: '1' };           // optional env for the server / extension host
//   export const files = { 'a.ts': '…' };           // optional workspace files (default: a sample project)
//   export const timeout = 120_000;                 // optional, ms for the whole module
//   export const trust = 'untrusted';               // optional: workspace trust on, the folder untrusted
//                                                   // (Restricted Mode); default: trust disabled
//   export const sharedWindow = true;               // optional: runs in a window that other modules used
//                                                   // (see sharedWindow.mjs), its settings in the folder's
//                                                   // .vscode/settings.json; default: a fresh window
//                                                   // (SWITCHBOARD_UI_SHARE=0: always a fresh one)
//   export async function run(t) { … }              // t: see UiTest below
// Modules with the same settings, env and trust share one server per version; each module gets a fresh browser
// context (page) and its own workspace folder. The `sharedWindow` modules with the same env and trust run in
// runs of 8 on one server, one after another in one window and folder, reset between them (a fresh
// window costs 20-26 CPU-seconds: test/harness/README.md); after a failure the next one gets a fresh window.
// Both versions' tests run in
// one queue, the longest first, on `--jobs` workers, each with its own browser (see Worker below).
// A module is one test: it passes if run() resolves. A failure saves
// test-results/screenshots/<version>/<name>-FAILED.png and prints the server log tail. Past
// SWITCHBOARD_LAYER_DEADLINE (epoch ms, set by test/runAll.mjs) no test starts, a running one is stopped, and
// the run fails with "the UI layer ran out of time after N of M tests". Closing line "N passed, N failed";
// exit 1 on any failure; JSON summary (with each test's time and set-up) to SWITCHBOARD_RESULTS_JSON.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  EXTENSION_ROOT, REPO_ROOT, SUBSET_VERSIONS, TEST_SHELL_ENV, ensureInstalled, installVsix, launchBrowser, linkExtension, log, makeTmp,
  makeWorkspace, payloadNeedsSmokeTestDriver, pollLocatorsFinely, removeTmpDirs, resolveVersions, sleep, startServer, TEST_SETTINGS,
} from './harness.mjs';
import { errorText, finishLayer, writeProgress } from './report.mjs';
import { TEST_KEYBINDINGS, resetWindow, restoreSampleProject, serverGroups, writeFolderSettings } from './sharedWindow.mjs';
import { recordTraffic, startTraffic } from './traffic.mjs';
import { SHOTS, fileSafe, makeT } from './uiTest.mjs';
import { UI_DIR, loadModules, loadSubset } from './uiModules.mjs';

/**
 * The user settings of a UI test's server. TypeScript runs only its syntax server: its full server (the one
 * that type-checks, started when a test opens a .ts file) took 5-6 of a test's 64-71 CPU-s on 2 cores, and no
 * test but editor-tools (which sets it back to `auto`) looks at what it gives.
 */
const UI_SETTINGS = {
  ...TEST_SETTINGS,
  'typescript.tsserver.useSyntaxServer': 'always',
  // the shared window's reset key and New Session's key (sharedWindow.mjs) reach the workbench from a terminal too
  'terminal.integrated.commandsToSkipShell': ['runCommands', 'switchboard.newSession'],
};

/** @typedef {import('./uiTest.mjs').UiTest} UiTest */
/** @typedef {import('./sharedWindow.mjs').SharedWindow} SharedWindow */
/** @typedef {import('./uiModules.mjs').UiModule} UiModule */

const { values } = parseArgs({
  options: {
    version: { type: 'string', multiple: true },
    grep: { type: 'string' },
    jobs: { type: 'string' },
    all: { type: 'boolean', default: false },
  },
});
/**
 * Tests at a time. On 2 cores two give about 1.4 times the throughput of one; three are no faster, the
 * layer being CPU-bound (test/harness/README.md has the measurements).
 */
const DEFAULT_JOBS = 2;

/**
 * One server (a distinct settings, env and trust) on one version, with the modules that share it.
 * @typedef {{ version: string, load: 'dev' | 'link' | 'vsix', mods: UiModule[], weight: number, firstTry?: string }} Task
 */
/**
 * A module that fails runs once more, at the end of the queue, on a fresh server in a fresh window
 * (SWITCHBOARD_UI_RETRIES, default 1; 0: no second try). It fails if it fails again. If it passes, the run
 * passes but names it, with its first failure, under "passed on a second try" (here and in npm test's summary):
 * a test that depends on the machine's load is visible and gets fixed, yet does not stop everything else
 * from landing.
 */
const RETRIES = Math.max(0, Math.floor(Number(process.env.SWITCHBOARD_UI_RETRIES ?? 1)) || 0);
/** @type {Task[]} */
const tasks = [];

// A promise of a test that has ended (a navigation, a wait) rejects once its page is closed. Left unhandled, it
// would end the whole layer in the middle of the queue: it is reported and the run goes on.
process.on('unhandledRejection', (e) => console.log(`warning: a promise rejected after its test ended (ignored): ${errorText(e).split('\n')[0]}`));

const startedAt = Date.now();
/** @type {import('./report.mjs').VersionResult[]} */
const results = [];
let planned = 0;
let done = 0;
/** Past this time (epoch ms, from test/runAll.mjs) no test starts and a running one is stopped. */
const deadline = Number(process.env.SWITCHBOARD_LAYER_DEADLINE) || Infinity;
class OutOfTime extends Error {}
try {
  const versions = resolveVersions(values.version?.flatMap((v) => v.split(',')));
  const jobs = Math.max(1, Math.floor(Number(values.jobs ?? process.env.SWITCHBOARD_UI_JOBS ?? DEFAULT_JOBS)) || 1);
  const full = values.all || process.env.SWITCHBOARD_UI_FULL === '1';
  const modules = await loadModules(values.grep);
  const subset = await loadSubset(modules, values.grep);
  if (!modules.length) console.log(`no UI tests (${path.relative(REPO_ROOT, UI_DIR)}/*.ui.mjs)${values.grep ? ` matching ${values.grep}` : ''}`);
  if (modules.length && !fs.existsSync(path.join(EXTENSION_ROOT, 'dist', 'extension.js'))) {
    console.log(`warning: ${path.join(EXTENSION_ROOT, 'dist', 'extension.js')} does not exist (run node esbuild.mjs)`);
  }
  const vsix = process.env.SWITCHBOARD_UI_VSIX;
  /** @type {Map<string, { r: import('./report.mjs').VersionResult, traffic: string, t0: number, left: number }>} */
  const perVersion = new Map();
  for (const version of modules.length ? versions : []) {
    /** @type {import('./report.mjs').VersionResult} */
    const r = { version, passed: 0, failed: 0, seconds: 0, failures: [], tests: [] };
    results.push(r);
    const onlySubset = !full && subset && SUBSET_VERSIONS.includes(version);
    const mods = onlySubset ? modules.filter((m) => m.name in /** @type {Record<string, string>} */ (subset)) : modules;
    if (onlySubset) {
      console.log(`VS Code ${version}: the compatibility subset, ${mods.length} of ${modules.length} modules (test/ui/compatSubset.mjs; --all runs every module)`);
    }
    if (!mods.length) continue;
    try {
      ensureInstalled(version);
    } catch (e) {
      r.failed += mods.length;
      r.failures.push(`harness error: ${errorText(e)}`);
      continue;
    }
    const envLoad = process.env.SWITCHBOARD_UI_LOAD;
    /** @type {'dev' | 'link' | 'vsix'} */
    const load = vsix ? 'vsix' : envLoad === 'dev' || envLoad === 'link' ? envLoad : payloadNeedsSmokeTestDriver(version) ? 'link' : 'dev';
    log(`VS Code ${version}: extension loaded by ${{ dev: 'extensionDevelopmentPath (URL payload)', link: 'symlink into the extensions dir', vsix: `installing ${vsix}` }[load]}`);
    perVersion.set(version, { r, traffic: startTraffic('ui', version), t0: 0, left: 0 });
    const runs = serverGroups(mods);
    for (const group of runs) tasks.push({ version, load, mods: group, weight: group.reduce((n, m) => n + m.timeout, 0) });
    planned += mods.length;
  }
  // the longest first, so that the last test to finish is a short one (module timeouts stand for durations)
  tasks.sort((a, b) => b.weight - a.weight);
  for (const t of tasks) /** @type {{ left: number }} */ (perVersion.get(t.version)).left++;
  if (tasks.length) console.log(`\n=== UI tests: ${planned} on ${[...perVersion.keys()].join(' and ')}, ${Math.min(jobs, tasks.length)} at a time ===`);

  // a browser per worker: with two pages in one headless browser, the one not in front gets no frames
  // (an IntersectionObserver never fires there, so a permission dialog never arms)
  /** @type {Set<Worker>} */
  const workers = new Set();
  const work = async () => {
    /** @type {Worker} */
    const w = {};
    workers.add(w);
    for (let task = tasks.shift(); task; task = tasks.shift()) {
      const v = /** @type {NonNullable<ReturnType<typeof perVersion.get>>} */ (perVersion.get(task.version));
      if (!v.t0) v.t0 = Date.now();
      const again = await runGroup(task, v.r, v.traffic, w);
      for (const m of again) {
        // alone on a server of its own: a fresh window; a `sharedWindow` module's settings stay in its folder's
        // settings (writeFolderSettings), where the first try had them (a test may say which scope a setting came from)
        tasks.push({ version: task.version, load: task.load, mods: [m.mod], weight: m.mod.timeout, firstTry: m.error });
        v.left++;
      }
      if (--v.left === 0) v.r.seconds = (Date.now() - v.t0) / 1000;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, () => work()));
  } finally {
    await Promise.all([...workers].map((w) => w.browser?.close()));
    removeTmpDirs();
  }
  for (const { r, traffic } of perVersion.values()) recordTraffic(traffic, r);
  if (done < planned) {
    const why = `the UI layer ran out of time after ${done} of ${planned} tests (its cap in test/runAll.mjs)`;
    console.log(`\n${why}`);
    results.push({ version: 'all', passed: 0, failed: 1, seconds: 0, failures: [why] });
  }
} catch (e) {
  console.error(errorText(e));
  results.push({ version: 'all', passed: 0, failed: 1, seconds: 0, failures: [`harness error: ${errorText(e)}`] });
}
const summary = finishLayer('ui', results, startedAt, { planned, done });
process.exit(summary.failed > 0 ? 1 : 0);

/**
 * A worker runs one test at a time, in a fresh context (profile) of its own browser.
 * @typedef {object} Worker
 * @property {import('playwright-core').Browser} [browser]
 */

/**
 * The worker's browser, launched again if it died.
 * @param {Worker} w
 */
async function browserOf(w) {
  if (w.browser?.isConnected()) return w.browser;
  await w.browser?.close();
  w.browser = await launchBrowser();
  return w.browser;
}

/**
 * One server and its modules, one after another.
 * @param {Task} task
 * @param {import('./report.mjs').VersionResult} r
 * @param {string} traffic
 * @param {Worker} w
 */
async function runGroup({ version, load, mods, firstTry }, r, traffic, w) {
  /** @type {{ mod: UiModule, error: string }[]} the modules to try once more */
  const again = [];
  if (Date.now() > deadline) return again;
  const t0 = Date.now();
  /** @type {import('./harness.mjs').Server | undefined} */
  let server;
  const tmp = makeTmp(`sb-ui-${version}-`);
  try {
    const extensionsDir = path.join(tmp, 'extensions');
    if (load === 'link') linkExtension(extensionsDir);
    if (load === 'vsix') installVsix(version, /** @type {string} */ (process.env.SWITCHBOARD_UI_VSIX), extensionsDir);
    const { env, trust } = mods[0];
    server = await startServer({ version, forPayload: load === 'dev', settings: { ...UI_SETTINGS, ...(mods[0].sharedWindow ? {} : mods[0].settings) }, env: { ...TEST_SHELL_ENV, ...env, SWITCHBOARD_TRAFFIC_DIR: traffic }, trust, extensionsDir });
    fs.writeFileSync(path.join(server.dirs.userData, 'User', 'keybindings.json'), JSON.stringify(TEST_KEYBINDINGS, null, 2));
  } catch (e) {
    for (const m of mods) {
      r.failed++;
      done++;
      r.failures.push(`${m.name}: the server did not start: ${errorText(e)}`);
    }
    return again;
  }
  let serverSeconds = (Date.now() - t0) / 1000;
  /** @type {{ window?: SharedWindow }} */
  const shared = {};
  try {
    for (const m of mods) {
      if (Date.now() > deadline) return again;
      const error = await runModule(m, version, load, server, tmp, r, serverSeconds, w, m.sharedWindow ? shared : undefined, firstTry);
      if (error) again.push({ mod: m, error });
      serverSeconds = 0;
    }
  } finally {
    await shared.window?.context.close().catch(() => {});
    await server.stop();
  }
  return again;
}

/**
 * One module in a fresh browser context and workspace folder: one test.
 * @param {UiModule} m
 * @param {string} version
 * @param {'dev' | 'link' | 'vsix'} load
 * @param {import('./harness.mjs').Server} server
 * @param {string} tmp
 * @param {import('./report.mjs').VersionResult} r
 * @param {number} serverSeconds  the server's start, counted as this module's set-up
 * @param {Worker} w
 * @param {{ window?: SharedWindow }} [shared]  a `sharedWindow` module: the window it may take over, and leaves
 * @param {string} [firstTry]  this is the second try: how the first one failed
 * @returns {Promise<string | undefined>} the first try failed and the module gets a second (its error)
 */
async function runModule(m, version, load, server, tmp, r, serverSeconds, w, shared, firstTry) {
  const tm = Date.now();
  let ready = 0;
  const counter = { assertions: 0 };
  const failedShot = path.join(SHOTS, version, `${fileSafe(m.name)}-FAILED.png`);
  fs.rmSync(failedShot, { force: true });
  /** @type {import('playwright-core').BrowserContext} */
  let context;
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {string[]} */
  let pageErrors = [];
  const reused = shared?.window;
  if (shared) shared.window = undefined; // given back below if the module passes
  try {
    if (reused) {
      ({ context, page, pageErrors } = reused);
      pageErrors.length = 0;
    } else {
      context = await (await browserOf(w)).newContext({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { 'Accept-Encoding': 'identity' } });
      page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
    }
  } catch (e) {
    // no page to run in: the test fails, and the worker's browser starts again for the next one
    r.failed++;
    done++;
    r.failures.push(`${m.name}: could not open a page: ${errorText(e)}`);
    console.log(`FAIL ${m.name} on ${version}: could not open a page: ${errorText(e)}`);
    await w.browser?.close();
    w.browser = undefined;
    return undefined;
  }
  page.setDefaultTimeout(15_000);
  page.setDefaultNavigationTimeout(60_000);
  pollLocatorsFinely(page);
  let error;
  const workspace = reused?.workspace ?? path.join(tmp, `ws-${fileSafe(shared ? 'shared' : m.name)}`);
  try {
    if (!reused) {
      // a shared folder that a module which failed leaves: as a fresh one
      if (shared && fs.existsSync(workspace)) restoreSampleProject(workspace, m.files);
      else makeWorkspace(workspace, m.files);
      if (shared) writeFolderSettings(workspace, m);
    }
    const payload = /** @type {[string, string][]} */ (load === 'dev' ? [['extensionDevelopmentPath', server.remote(EXTENSION_ROOT)]] : []);
    const t = makeT(page, version, m.name, server, workspace, load, counter);
    const body = async () => {
      await page.bringToFront(); // the page in front gets frames (a permission dialog arms when it is seen)
      if (reused) {
        await resetWindow(page, workspace, m);
      } else {
        await page.goto(server.url({ payload, folder: workspace }));
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      }
      // the folder is open once the explorer lists it (not fatal: a module may hide the explorer)
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 30_000 }).catch(() => {});
      ready = Date.now();
      await m.run(t);
    };
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    /** @type {NodeJS.Timeout | undefined} */
    let cap;
    const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${m.timeout / 1000}s`)), m.timeout); });
    const outOfTime = new Promise((_, reject) => {
      if (deadline !== Infinity) cap = setTimeout(() => reject(new OutOfTime('the UI layer ran out of time')), Math.max(0, deadline - Date.now()));
    });
    const running = body();
    running.catch(() => {}); // after a timeout it rejects once the page closes: not unhandled
    try { await Promise.race([running, timeout, outOfTime]); } finally { clearTimeout(timer); clearTimeout(cap); }
  } catch (e) {
    error = e;
  }
  const seconds = (Date.now() - tm) / 1000;
  const secs = seconds.toFixed(1);
  // a first failure gets a second try (its error goes back to runGroup)
  const retry = error && !(error instanceof OutOfTime) && firstTry === undefined && RETRIES > 0 ? errorText(error) : undefined;
  if (error instanceof OutOfTime) {
    console.log(`STOPPED ${m.name} on ${version} after ${secs} s: the UI layer ran out of time`);
  } else if (retry) {
    await page.screenshot({ path: failedShot.replace(/-FAILED\.png$/, '-FAILED-first-try.png') }).then(() => {}, () => {});
    console.log(`FAILED ON THE FIRST TRY ${m.name} on ${version} (${secs} s, ${counter.assertions} assertions passed before): tried again at the end\n${errorText(error).replace(/^/gm, '    ')}`);
    console.log(`--- server log tail (${server.serverLog}) ---\n${server.logTail(30)}\n--- end of server log ---`);
  } else if (error) {
    r.failed++;
    await page.screenshot({ path: failedShot }).then(() => {}, () => {});
    const msg = `${m.name}: ${errorText(error)}\n  screenshot: ${path.relative(REPO_ROOT, failedShot)}`;
    r.failures.push(msg);
    console.log(`FAIL ${m.name} on ${version} (${secs} s, ${counter.assertions} assertions passed before)\n${errorText(error).replace(/^/gm, '    ')}`);
    if (pageErrors.length) console.log(`  page errors:\n${pageErrors.slice(-5).map((x) => `    ${x}`).join('\n')}`);
    console.log(`  screenshot: ${failedShot}\n--- server log tail (${server.serverLog}) ---\n${server.logTail(30)}\n--- end of server log ---`);
  } else {
    r.passed++;
    console.log(`PASS ${m.name} on ${version} (${secs} s, ${counter.assertions} assertions)${firstTry !== undefined ? ' on the second try' : ''}`);
    if (firstTry !== undefined) (r.flaky ??= []).push(`${m.name}: passed on the second try; the first failed with ${firstTry.split('\n')[0]}`);
  }
  if (!(error instanceof OutOfTime)) {
    // a first try's time counts too (the summary's test time is what the layer spent), under its own name
    if (!retry) done++;
    const setupSeconds = serverSeconds + (ready ? (ready - tm) / 1000 : seconds);
    r.tests?.push({ name: retry ? `${m.name} (first try)` : m.name, seconds: seconds + serverSeconds, setupSeconds });
    writeProgress('ui', results, startedAt, { planned, done });
  }
  // a module that shared its window and passed gives it to the next; after a failure the next gets a fresh one
  if (shared && !error && !page.isClosed()) {
    shared.window = { context, page, pageErrors, workspace };
    return undefined;
  }
  await Promise.race([context.close().catch(() => {}), sleep(10_000)]);
  return retry;
}
