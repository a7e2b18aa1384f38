// @ts-check
// Running extension tests (an extensionTestsPath module) inside the real extension host.
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { log, TEST_SHELL_ENV } from './base.mjs';
import { sleep } from './processes.mjs';
import { startServer, TEST_SETTINGS } from './server.mjs';
import { launchBrowser } from './browser.mjs';

// ------------------------------------------------------------------------------------------------
// running extension tests (extensionTestsPath) inside the extension host

/**
 * @typedef {object} ExtensionTestOptions
 * @property {string} version
 * @property {string[]} extensionDevelopmentPaths
 * @property {string} extensionTestsPath    a module exporting run(): Promise<void>
 * @property {string} [workspace]           folder to open (default: a sample workspace)
 * @property {Record<string, string>} [env] env for the server/extension host
 * @property {Record<string, unknown>} [settings]
 * @property {string} [resultsFile]         JSON the runner writes (see test/integration/index.ts); if it
 *   appears and the exit never comes, the run still ends
 * @property {number} [timeoutMs]           whole run; default SWITCHBOARD_TEST_TIMEOUT s or 1500 s
 * @property {string} [screenshotOnFailure] PNG path
 */

const VERBOSE = process.env.SWITCHBOARD_VERBOSE === '1';
/** Workbench console lines that say nothing about the tests (SWITCHBOARD_VERBOSE=1 shows them). */
const WORKBENCH_NOISE = new RegExp([
  /^Resolv(ing|ed) connection token/, /^Creating a socket/, /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/, /^\[Service Worker\]/, /^ChatSessionStore:/,
  /^Creation of workbench contribution/, /vsda/, /^Started local extension host/,
  /^\[(LocalProcess|Remote)ExtensionHost\]/, /^Settings Sync:/, /^Overwriting grammar scope name/,
  /^\[reconnection-grace-time\]/, /^\[AgentHost:/, /^\[AccountPolicyGate\]/,
].map((r) => r.source).join('|'));

/**
 * Opens the workbench with extensionDevelopmentPath + extensionTestsPath in the URL payload; VS Code runs
 * the tests in the extension host and calls window.codeAutomationExit(code). Extension host console
 * output is printed as it arrives.
 * @param {ExtensionTestOptions} o
 * @returns {Promise<{ code: number, reason: string, timings: Record<string, number> }>}
 */
export async function runExtensionTests(o) {
  /** @type {Record<string, number>} */
  const timings = {};
  const t0 = Date.now();
  const mark = (/** @type {string} */ k) => { timings[k] = Date.now() - t0; };
  /** @type {import('./server.mjs').Server | undefined} */
  let server;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  let code = 1;
  let reason = '';
  try {
    const srv = await startServer({ version: o.version, forPayload: true, workspace: o.workspace, env: { ...TEST_SHELL_ENV, ...o.env }, settings: { ...TEST_SETTINGS, ...o.settings } });
    server = srv;
    mark('serverReady');
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    /** @type {(v: number) => void} */
    let onExit = () => {};
    const exitCode = new Promise((r) => { onExit = r; });
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ type, /** @type {unknown[]} */ args) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      if (!VERBOSE && WORKBENCH_NOISE.test(text)) return;
      (type === 'error' ? console.error : console.log)(text);
    });
    await page.exposeFunction('codeAutomationExit', (/** @type {number} */ c) => onExit(Number(c)));
    page.on('pageerror', (e) => console.log('[page error]', e.message));
    page.on('crash', () => { reason = 'the page crashed'; onExit(1); });

    const payload = /** @type {[string, string][]} */ ([
      ...o.extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', srv.remote(p)]),
      ['extensionTestsPath', srv.remote(o.extensionTestsPath)],
    ]);
    await page.goto(srv.url({ payload }), { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    mark('workbench');

    const timeoutMs = o.timeoutMs ?? Number(process.env.SWITCHBOARD_TEST_TIMEOUT || 1500) * 1000;
    // second channel: the results file (in case codeAutomationExit never arrives)
    const resultsSeen = new Promise((resolve) => {
      if (!o.resultsFile) return;
      const f = o.resultsFile;
      const iv = setInterval(() => {
        if (fs.existsSync(f)) { clearInterval(iv); setTimeout(() => resolve('results'), 5000); }
      }, 500);
      iv.unref();
    });
    const timedOut = sleep(timeoutMs).then(() => 'timeout');
    const first = await Promise.race([exitCode, resultsSeen, timedOut]);
    mark('done');
    if (first === 'timeout') {
      reason = `timed out after ${timeoutMs / 1000}s waiting for the extension host to finish the tests`;
      if (o.screenshotOnFailure) await page.screenshot({ path: o.screenshotOnFailure }).catch(() => {});
    } else if (first === 'results') {
      const r = JSON.parse(fs.readFileSync(/** @type {string} */ (o.resultsFile), 'utf8'));
      code = r.failed > 0 ? 1 : 0;
      reason = 'results file written, but VS Code never called codeAutomationExit';
    } else {
      code = Number(first);
      if (code !== 0 && !reason) reason = `extension host exited with code ${code}`;
    }
  } catch (e) {
    reason = e instanceof Error ? e.message : String(e);
    code = 1;
  } finally {
    await browser?.close();
    // the server log helps when the harness failed, not when a test did (its FAIL line says why)
    /** @type {{ failed?: number } | undefined} */
    let res;
    try { res = o.resultsFile ? JSON.parse(fs.readFileSync(o.resultsFile, 'utf8')) : undefined; } catch { /* none */ }
    if (code !== 0 && server && !(res?.failed)) {
      console.log(`--- server log tail (${server.serverLog}) ---\n${server.logTail(40)}\n--- end of server log ---`);
    }
    await server?.stop();
  }
  return { code, reason, timings };
}
