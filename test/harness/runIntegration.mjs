#!/usr/bin/env node
// @ts-check
// Integration tests: mocha inside VS Code's real extension host, on every VS Code version we support.
// For each version it calls @vscode/test-electron's runTests() with vscodeExecutablePath = codeShim.mjs
// (which runs the tests in code-server + headless chromium), the repo as extensionDevelopmentPath, and
// out/test/integration/index.js as extensionTestsPath, in a fresh workspace folder with a few files.
//
//   node test/harness/runIntegration.mjs                      # both versions
//   node test/harness/runIntegration.mjs --version 1.139.1    # one (repeatable; or SWITCHBOARD_VERSIONS)
//   node test/harness/runIntegration.mjs --grep activation    # only tests whose full title matches
//   node test/harness/runIntegration.mjs --all                # every suite on every version (or
//                                                             # SWITCHBOARD_INTEGRATION_FULL=1); by default the
//                                                             # oldest version runs test/integration/compatSubset.mjs
//
// Build first: node esbuild.mjs && node esbuild.mjs --tests (npm run test:integration does the second).
// Prints per-version results and a closing line "N passed, N failed"; exit 1 on any failure. Writes a
// JSON summary to SWITCHBOARD_RESULTS_JSON if set. Env SWITCHBOARD_EXTENSION_ROOT tests another folder.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import testElectron from '@vscode/test-electron';
import { EXTENSION_ROOT, HARNESS_DIR, REPO_ROOT, SUBSET_VERSIONS, ensureInstalled, killTree, makeTmp, makeWorkspace, processTree, readCompatSubset, removeTmpDirs, resolveVersions, sleep } from './harness.mjs';
import { errorText, finishLayer } from './report.mjs';
import { recordTraffic, startTraffic } from './traffic.mjs';

const { runTests } = testElectron;
const { values } = parseArgs({
  options: {
    version: { type: 'string', multiple: true },
    grep: { type: 'string' },
    timeout: { type: 'string', default: '1500' }, // seconds per version, the whole shim run (2x the slowest seen: test/harness/README.md)
    serial: { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
  },
});

const SHIM = path.join(HARNESS_DIR, 'codeShim.mjs');
const TESTS = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
const SHOTS = path.join(REPO_ROOT, 'test-results', 'screenshots');
const SUITES = path.join(REPO_ROOT, 'test', 'integration');

/**
 * The test files (base names) the oldest version runs (compatSubset.mjs), or undefined: all of them. A name
 * that is no test file is an error, so that a renamed suite does not silently leave the subset.
 * @param {string} version
 * @returns {Promise<string[] | undefined>}
 */
async function filesFor(version) {
  if (values.all || process.env.SWITCHBOARD_INTEGRATION_FULL === '1' || !SUBSET_VERSIONS.includes(version)) return undefined;
  const subset = await readCompatSubset(path.join(SUITES, 'compatSubset.mjs'), (n) => fs.existsSync(path.join(SUITES, `${n}.test.ts`)));
  return subset && Object.keys(subset);
}

const startedAt = Date.now();
/** @type {import('./report.mjs').VersionResult[]} */
const results = [];
const versions = resolveVersions(values.version?.flatMap((v) => v.split(',')));

// test-electron spawns the shim directly: it must be executable (git keeps the mode, a copy may not)
try { fs.accessSync(SHIM, fs.constants.X_OK); } catch { fs.chmodSync(SHIM, 0o755); }

/**
 * One version's run: its own shim process, server, browser and workspace, so that versions run side by side.
 * @param {string} version
 * @returns {Promise<import('./report.mjs').VersionResult>}
 */
async function runVersion(version) {
  const t0 = Date.now();
  /** @type {import('./report.mjs').VersionResult} */
  const r = { version, passed: 0, failed: 0, pending: 0, seconds: 0, failures: [], tests: [] };
  const traffic = startTraffic('integration', version);
  console.log(`\n=== integration tests on VS Code ${version} ===`);
  try {
    if (!fs.existsSync(TESTS)) throw new Error(`${path.relative(REPO_ROOT, TESTS)} does not exist: run node esbuild.mjs --tests first`);
    if (!fs.existsSync(path.join(EXTENSION_ROOT, 'dist', 'extension.js'))) {
      console.log(`warning: ${path.join(EXTENSION_ROOT, 'dist', 'extension.js')} does not exist (run node esbuild.mjs): the extension cannot activate`);
    }
    ensureInstalled(version);
    const files = await filesFor(version);
    if (files) {
      const all = fs.readdirSync(SUITES).filter((f) => f.endsWith('.test.ts')).length;
      console.log(`VS Code ${version}: the compatibility subset, ${files.length} of ${all} test files (test/integration/compatSubset.mjs; --all runs every file)`);
    }
    const tmp = makeTmp(`sb-it-${version}-`);
    const workspace = makeWorkspace(path.join(tmp, 'workspace'));
    const resultsFile = path.join(tmp, 'results.json');
    fs.mkdirSync(path.join(SHOTS, version), { recursive: true });
    const run = runTests({
      vscodeExecutablePath: SHIM,
      extensionDevelopmentPath: EXTENSION_ROOT,
      extensionTestsPath: TESTS,
      launchArgs: [workspace],
      extensionTestsEnv: {
        SWITCHBOARD_VSCODE_VERSION: version,
        SWITCHBOARD_TEST_RESULTS: resultsFile,
        SWITCHBOARD_TEST_WORKSPACE: workspace,
        SWITCHBOARD_TRAFFIC_DIR: traffic,
        SWITCHBOARD_SCREENSHOT: path.join(SHOTS, version, 'integration-FAILED.png'),
        ...(values.grep ? { SWITCHBOARD_TEST_GREP: values.grep } : {}),
        ...(files ? { SWITCHBOARD_TEST_FILES: files.join(',') } : {}),
      },
    }).then(() => 0, (/** @type {{ code?: number, signal?: string }} */ e) => {
      if (typeof e?.code === 'number' || e?.signal) return e.code ?? 1;
      throw e;
    });
    // the layer's deadline (test/runAll.mjs) ends the run too, as running out of time
    const deadline = Number(process.env.SWITCHBOARD_LAYER_DEADLINE) || Infinity;
    const limit = Math.min(Number(values.timeout) * 1000, deadline - Date.now());
    const outOfTime = limit < Number(values.timeout) * 1000;
    const exit = await Promise.race([run, sleep(Math.max(0, limit)).then(() => 'timeout')]);
    if (exit === 'timeout') {
      // the shim hung: kill its process tree (the shim is the child of ours whose arguments name this run's
      // workspace; it cleans up its server and browser itself when killed)
      for (const pid of processTree(process.pid).slice(1)) {
        let cmd = '';
        try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { /* gone */ }
        if (cmd.includes(SHIM) && cmd.includes(workspace)) await killTree(pid, { graceMs: 3000 });
      }
      throw new Error(outOfTime
        ? `the integration layer ran out of time on VS Code ${version} (its cap in test/runAll.mjs)`
        : `the test run did not finish within ${limit / 1000}s`);
    }
    /** @type {{ passed: number, failed: number, pending: number, lines: string[] } | undefined} */
    let res;
    try { res = JSON.parse(fs.readFileSync(resultsFile, 'utf8')); } catch { /* none */ }
    if (res) {
      r.passed = res.passed;
      r.failed = res.failed;
      r.pending = res.pending;
      r.failures.push(...res.lines.filter((l) => l.startsWith('FAIL')));
      for (const l of res.lines) {
        const pass = /^PASS (.*) \((\d+) ms\)$/.exec(l);
        if (pass) r.tests?.push({ name: pass[1], seconds: Number(pass[2]) / 1000 });
      }
    }
    if (exit !== 0 && r.failed === 0) {
      r.failed = 1;
      r.failures.push(`the test run failed (exit ${exit})${res ? '' : ' before the runner wrote any results'}; see the output above`);
    }
  } catch (e) {
    r.failed += 1;
    r.failures.push(`harness error: ${errorText(e)}`);
    console.error(errorText(e));
  } finally {
    recordTraffic(traffic, r);
    r.seconds = (Date.now() - t0) / 1000;
  }
  return r;
}

// the versions side by side (--serial: one after the other): the extension host mostly waits on the agent
// processes and the workbench, and the two runs share the 2 cores well (see test/harness/README.md)
if (values.serial) {
  for (const version of versions) results.push(await runVersion(version));
} else {
  results.push(...await Promise.all(versions.map(runVersion)));
}
removeTmpDirs();

const summary = finishLayer('integration', results, startedAt);
process.exit(summary.failed > 0 ? 1 : 0);
