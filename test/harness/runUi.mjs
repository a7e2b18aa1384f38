#!/usr/bin/env node
// @ts-check
// UI tests: Playwright drives the real VS Code web workbench (code-server) in Debian's chromium, as a
// person would, on every VS Code version we support.
//
//   node test/harness/runUi.mjs                       # every test/ui/*.ui.mjs on both versions
//   node test/harness/runUi.mjs --version 1.100.3     # one version (repeatable; or SWITCHBOARD_VERSIONS)
//   node test/harness/runUi.mjs --grep smoke          # only modules whose name matches
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
//   export async function run(t) { … }              // t: see UiTest below
// Modules with the same settings, env and trust share one server per version; each module gets a fresh browser
// context (page) and its own workspace folder. A module is one test: it passes if run() resolves. A
// failure saves test-results/screenshots/<version>/<name>-FAILED.png and prints the server log tail.
// Closing line "N passed, N failed"; exit 1 on any failure; JSON summary to SWITCHBOARD_RESULTS_JSON.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  EXTENSION_ROOT, REPO_ROOT, extensionManifest, ensureInstalled, installVsix, launchBrowser, linkExtension, log, makeTmp,
  makeWorkspace, payloadNeedsSmokeTestDriver, removeTmpDirs, resolveVersions, runPaletteCommand, sleep, startServer,
} from './harness.mjs';
import { errorText, finishLayer } from './report.mjs';
import { recordTraffic, startTraffic } from './traffic.mjs';

const { values } = parseArgs({
  options: {
    version: { type: 'string', multiple: true },
    grep: { type: 'string' },
  },
});
/** SWITCHBOARD_UI_DIR runs the modules of another folder (the harness's own checks use it). */
const UI_DIR = path.resolve(process.env.SWITCHBOARD_UI_DIR || path.join(REPO_ROOT, 'test', 'ui'));
const SHOTS = path.join(REPO_ROOT, 'test-results', 'screenshots');

/**
 * @typedef {object} UiModule
 * @property {string} name
 * @property {string} file
 * @property {(t: UiTest) => Promise<void>} run
 * @property {Record<string, unknown>} settings
 * @property {Record<string, string>} env
 * @property {Record<string, string> | undefined} files
 * @property {number} timeout
 * @property {'disabled' | 'untrusted'} trust
 */

/**
 * What a UI module's run(t) gets.
 * @typedef {object} UiTest
 * @property {string} name
 * @property {string} version                     VS Code version
 * @property {import('playwright-core').Page} page
 * @property {import('./harness.mjs').Server} server
 * @property {string} workspace                   the folder that is open
 * @property {'dev' | 'link' | 'vsix'} load       how the extension was loaded
 * @property {ReturnType<typeof extensionManifest>} extension
 * @property {(cond: unknown, msg: string) => void} expect      counts an assertion; throws if cond is falsy
 * @property {(name: string) => Promise<string>} screenshot      saves test-results/screenshots/<version>/<name>.png
 * @property {(...a: unknown[]) => void} log
 * @property {(title: string, o?: { timeoutMs?: number }) => Promise<void>} runCommand
 *   F1, type the command's title ("Category: Title"), run it; retries while the command is not in the list
 * @property {(id: string) => string} commandTitle "Category: Title" of a command the extension contributes
 * @property {(o?: { timeoutMs?: number }) => Promise<import('playwright-core').FrameLocator>} webview
 *   the content frame of the visible webview (the only one, else the first visible)
 * @property {(title: string | RegExp, o?: { timeoutMs?: number }) => Promise<import('playwright-core').FrameLocator>} webviewByTitle
 *   the content frame of the webview with this title (panel or view title; a RegExp tests it), visible or not
 * @property {(text: string | RegExp, o?: { timeoutMs?: number }) => Promise<void>} notification
 *   waits for a notification (toast, or else in the notification center when toasts are hidden)
 * @property {(text: string | RegExp, o?: { timeoutMs?: number }) => Promise<void>} waitForText
 *   waits until the workbench (outside webviews) shows the text
 */

/** @param {string} s */
const fileSafe = (s) => s.replace(/[^\w.-]+/g, '_');

async function loadModules() {
  if (!fs.existsSync(UI_DIR)) return [];
  const files = fs.readdirSync(UI_DIR).filter((f) => f.endsWith('.ui.mjs')).sort();
  /** @type {UiModule[]} */
  const mods = [];
  for (const f of files) {
    const file = path.join(UI_DIR, f);
    const m = await import(pathToFileURL(file).href);
    if (typeof m.run !== 'function') throw new Error(`${file} does not export async function run(t)`);
    mods.push({
      name: String(m.name ?? f.replace(/\.ui\.mjs$/, '')),
      file, run: m.run, settings: m.settings ?? {}, env: m.env ?? {}, files: m.files,
      timeout: Number(m.timeout ?? 120_000),
      trust: m.trust === 'untrusted' ? 'untrusted' : 'disabled',
    });
  }
  const grep = values.grep ? new RegExp(values.grep) : undefined;
  return mods.filter((m) => !grep || grep.test(m.name));
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string} version
 * @param {string} name
 * @param {import('./harness.mjs').Server} server
 * @param {string} workspace
 * @param {'dev' | 'link' | 'vsix'} load
 * @param {{ assertions: number }} counter
 * @returns {UiTest}
 */
function makeT(page, version, name, server, workspace, load, counter) {
  const extension = extensionManifest();
  const say = (/** @type {unknown[]} */ ...a) => log(`[${version} ${name}]`, ...a);
  const outerFrames = page.locator('iframe.webview.ready');

  /** @type {UiTest['runCommand']} */
  const runCommand = async (title, o = {}) => {
    await runPaletteCommand(page, title, o);
    say(`ran command "${title}"`);
  };

  /** @type {UiTest['webview']} */
  const webview = async (o = {}) => {
    const visible = outerFrames.filter({ visible: true });
    await visible.first().waitFor({ timeout: o.timeoutMs ?? 30_000 });
    return visible.first().contentFrame().locator('#active-frame').contentFrame();
  };

  /** @type {UiTest['webviewByTitle']} */
  const webviewByTitle = async (title, o = {}) => {
    const deadline = Date.now() + (o.timeoutMs ?? 30_000);
    /** @type {string[]} */
    let seen = [];
    while (Date.now() < deadline) {
      seen = [];
      const n = await outerFrames.count();
      for (let i = 0; i < n; i++) {
        const inner = outerFrames.nth(i).contentFrame().locator('#active-frame');
        const t = await inner.getAttribute('title', { timeout: 1000 }).catch(() => null);
        if (t !== null) seen.push(t);
        // a chat's title may start with its session's state mark (⟳ streaming, ‖ waiting, ✖ failed, ● unread)
        const bare = t?.replace(/^[\u27F3\u2016\u2716\u25CF] /, '');
        const matches = (/** @type {string} */ s) => (typeof title === 'string' ? s === title : title.test(s));
        if (t != null && bare != null && (matches(t) || matches(bare))) return inner.contentFrame();
      }
      await sleep(250);
    }
    throw new Error(`no webview titled "${title}"; webviews: ${JSON.stringify(seen)}`);
  };

  /** @type {UiTest['notification']} */
  const notification = async (text, o = {}) => {
    const timeout = o.timeoutMs ?? 15_000;
    try {
      await page.locator('.notifications-toasts .notification-toast', { hasText: text }).first().waitFor({ timeout: server.smokeTestDriver ? 1000 : timeout });
    } catch {
      // toasts are hidden with the smoke-test driver; the notification center still has them
      const center = page.locator('.notifications-center');
      if (!(await center.isVisible())) await page.locator('[id="status.notifications"]').click();
      await center.locator('.notification-list-item', { hasText: text }).first().waitFor({ timeout });
      await page.locator('[id="status.notifications"]').click().catch(() => {});
    }
  };

  return {
    name, version, page, server, workspace, load, extension,
    log: say,
    expect(cond, msg) {
      if (!cond) throw new Error(`expectation failed: ${msg}`);
      counter.assertions++;
      say(`ok - ${msg}`);
    },
    async screenshot(shot) {
      const file = path.join(SHOTS, version, `${fileSafe(shot)}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      say(`screenshot ${path.relative(REPO_ROOT, file)}`);
      return file;
    },
    runCommand,
    commandTitle(id) {
      const cmds = /** @type {{ contributes?: { commands?: { command: string, title: string, category?: string }[] } }} */ (extension).contributes?.commands ?? [];
      const c = cmds.find((x) => x.command === id);
      if (!c) throw new Error(`package.json contributes no command ${id}`);
      return c.category ? `${c.category}: ${c.title}` : c.title;
    },
    webview, webviewByTitle, notification,
    async waitForText(text, o = {}) {
      await page.locator('.monaco-workbench').getByText(text).first().waitFor({ timeout: o.timeoutMs ?? 15_000 });
    },
  };
}

const startedAt = Date.now();
/** @type {import('./report.mjs').VersionResult[]} */
const results = [];
let exitCode = 0;
try {
  const versions = resolveVersions(values.version?.flatMap((v) => v.split(',')));
  const modules = await loadModules();
  if (!modules.length) console.log(`no UI tests (${path.relative(REPO_ROOT, UI_DIR)}/*.ui.mjs)${values.grep ? ` matching ${values.grep}` : ''}`);
  if (modules.length && !fs.existsSync(path.join(EXTENSION_ROOT, 'dist', 'extension.js'))) {
    console.log(`warning: ${path.join(EXTENSION_ROOT, 'dist', 'extension.js')} does not exist (run node esbuild.mjs)`);
  }
  for (const version of versions) {
    if (!modules.length) break;
    const t0 = Date.now();
    /** @type {import('./report.mjs').VersionResult} */
    const r = { version, passed: 0, failed: 0, seconds: 0, failures: [] };
    results.push(r);
    const traffic = startTraffic('ui', version);
    console.log(`\n=== UI tests on VS Code ${version} ===`);
    /** @type {import('playwright-core').Browser | undefined} */
    let browser;
    try {
      ensureInstalled(version);
      const envLoad = process.env.SWITCHBOARD_UI_LOAD;
      const vsix = process.env.SWITCHBOARD_UI_VSIX;
      /** @type {'dev' | 'link' | 'vsix'} */
      const load = vsix ? 'vsix' : envLoad === 'dev' || envLoad === 'link' ? envLoad : payloadNeedsSmokeTestDriver(version) ? 'link' : 'dev';
      log(`VS Code ${version}: extension loaded by ${{ dev: 'extensionDevelopmentPath (URL payload)', link: 'symlink into the extensions dir', vsix: `installing ${vsix}` }[load]}`);
      browser = await launchBrowser();
      // one server per distinct (settings, env, trust)
      /** @type {Map<string, UiModule[]>} */
      const groups = new Map();
      for (const m of modules) {
        const key = JSON.stringify([m.settings, m.env, m.trust]);
        groups.set(key, [...(groups.get(key) ?? []), m]);
      }
      for (const group of groups.values()) {
        /** @type {import('./harness.mjs').Server | undefined} */
        let server;
        const tmp = makeTmp(`sb-ui-${version}-`);
        try {
          const extensionsDir = path.join(tmp, 'extensions');
          if (load === 'link') linkExtension(extensionsDir);
          if (load === 'vsix') installVsix(version, /** @type {string} */ (vsix), extensionsDir);
          server = await startServer({ version, forPayload: load === 'dev', settings: group[0].settings, env: group[0].env, trust: group[0].trust, extensionsDir });
        } catch (e) {
          for (const m of group) {
            r.failed++;
            r.failures.push(`${m.name}: the server did not start: ${errorText(e)}`);
          }
          continue;
        }
        try {
          for (const m of group) {
            const tm = Date.now();
            const counter = { assertions: 0 };
            const failedShot = path.join(SHOTS, version, `${fileSafe(m.name)}-FAILED.png`);
            fs.rmSync(failedShot, { force: true });
            const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
            const page = await context.newPage();
            page.setDefaultTimeout(15_000);
            page.setDefaultNavigationTimeout(60_000);
            /** @type {string[]} */
            const pageErrors = [];
            page.on('pageerror', (e) => pageErrors.push(e.message));
            let error;
            try {
              const workspace = makeWorkspace(path.join(tmp, `ws-${fileSafe(m.name)}`), m.files);
              const payload = /** @type {[string, string][]} */ (load === 'dev' ? [['extensionDevelopmentPath', server.remote(EXTENSION_ROOT)]] : []);
              const t = makeT(page, version, m.name, server, workspace, load, counter);
              const body = async () => {
                await page.goto(server.url({ payload, folder: workspace }));
                await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
                // the folder is open once the explorer lists it (not fatal: a module may hide the explorer)
                await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 30_000 }).catch(() => {});
                await m.run(t);
              };
              let timer;
              const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${m.timeout / 1000}s`)), m.timeout); });
              const running = body();
              running.catch(() => {}); // after a timeout it rejects once the page closes: not unhandled
              try { await Promise.race([running, timeout]); } finally { clearTimeout(timer); }
            } catch (e) {
              error = e;
            }
            const secs = ((Date.now() - tm) / 1000).toFixed(1);
            if (error) {
              r.failed++;
              await page.screenshot({ path: failedShot }).then(() => {}, () => {});
              const msg = `${m.name}: ${errorText(error)}\n  screenshot: ${path.relative(REPO_ROOT, failedShot)}`;
              r.failures.push(msg);
              console.log(`FAIL ${m.name} (${secs} s, ${counter.assertions} assertions passed before)\n${errorText(error).replace(/^/gm, '    ')}`);
              if (pageErrors.length) console.log(`  page errors:\n${pageErrors.slice(-5).map((x) => `    ${x}`).join('\n')}`);
              console.log(`  screenshot: ${failedShot}\n--- server log tail (${server.serverLog}) ---\n${server.logTail(30)}\n--- end of server log ---`);
            } else {
              r.passed++;
              console.log(`PASS ${m.name} (${secs} s, ${counter.assertions} assertions)`);
            }
            await Promise.race([context.close().catch(() => {}), sleep(10_000)]);
          }
        } finally {
          await server.stop();
        }
      }
    } catch (e) {
      r.failed++;
      r.failures.push(`harness error: ${errorText(e)}`);
      console.error(errorText(e));
    } finally {
      await browser?.close();
      removeTmpDirs();
      recordTraffic(traffic, r);
      r.seconds = (Date.now() - t0) / 1000;
    }
  }
} catch (e) {
  console.error(errorText(e));
  results.push({ version: 'all', passed: 0, failed: 1, seconds: 0, failures: [`harness error: ${errorText(e)}`] });
}
const summary = finishLayer('ui', results, startedAt);
exitCode = summary.failed > 0 ? 1 : 0;
process.exit(exitCode);
