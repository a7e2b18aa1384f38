#!/usr/bin/env node
// @ts-check
// `npm test`: every layer, in order, going on after a failing one.
//   setup        bash test/harness/setup.sh (apt packages, code-server per VS Code version; seconds when cached)
//   build        node esbuild.mjs; node esbuild.mjs --tests
//   static       tsc (host), tsc (webview), eslint, tsc (harness .mjs), README tables, layers (scripts/checkLayers.mjs),
//                doc references (scripts/checkDocRefs.mjs), schema drift
//   unit         mocha in plain node over out/test/unit
//   integration  mocha in the extension host, per VS Code version (test/harness/runIntegration.mjs)
//   ui           Playwright through the workbench, per VS Code version (test/harness/runUi.mjs)
//   package      npm run package + checks of the .vsix (test/harness/packageCheck.mjs), then the
//                person's-path UI test against the installed .vsix on every version
// Each setup step, build step and static check counts as one test. Prints a summary table and one
// closing line "N passed, N failed"; exit 1 if anything failed. Child output is shown with a
// "[layer] " prefix.
//
//   npm test
//   node test/runAll.mjs --only unit,static          # some layers (setup/build are added when needed)
//   SWITCHBOARD_VERSIONS=1.139.1 npm test            # one VS Code version
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const LAYERS = ['setup', 'build', 'static', 'unit', 'integration', 'ui', 'package'];

const { values } = parseArgs({ options: { only: { type: 'string' } } });
/** @type {Set<string>} */
let layers = new Set(LAYERS);
if (values.only) {
  layers = new Set(values.only.split(',').map((s) => s.trim()).filter(Boolean));
  const bad = [...layers].filter((l) => !LAYERS.includes(l));
  if (bad.length) {
    console.error(`unknown layer(s) ${bad.join(', ')}; layers: ${LAYERS.join(', ')}`);
    process.exit(2);
  }
  if (layers.has('unit') || layers.has('integration') || layers.has('ui')) layers.add('build');
  if (layers.has('integration') || layers.has('ui') || layers.has('package')) layers.add('setup');
}

// versions, checked early so that a typo fails at once
const versionsJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'harness', 'versions.json'), 'utf8'));
const versions = (process.env.SWITCHBOARD_VERSIONS || versionsJson.default.join(',')).split(/[\s,]+/).filter(Boolean);
for (const v of versions) {
  if (!versionsJson.versions[v]) {
    console.error(`SWITCHBOARD_VERSIONS: unknown VS Code version ${v}; known: ${Object.keys(versionsJson.versions).join(', ')}`);
    process.exit(2);
  }
}

/** @typedef {{ layer: string, version: string, passed: number, failed: number, seconds: number, failures: string[], flaky?: string[] }} Row */
/** @type {Row[]} */
const rows = [];
/** @type {{ layer: string, version: string, test: import('./harness/report.mjs').TestTime }[]} */
const testTimes = [];
/** @type {{ layer: string, seconds: number, cap: number }[]} wall time of each layer, and its cap (s) */
const layerTimes = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-runall-'));

/**
 * Runs a command with its output prefixed, bounded by a timeout (the whole process tree is killed then).
 * @param {string} prefix
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ timeoutMs: number, env?: Record<string, string> }} o
 * @returns {Promise<{ code: number, seconds: number, timedOut: boolean }>}
 */
function run(prefix, cmd, args, o) {
  const t0 = Date.now();
  console.log(`\n[${prefix}] $ ${[cmd, ...args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0', ...(o.env ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: a timeout kills everything it started
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.log(`[${prefix}] TIMEOUT after ${o.timeoutMs / 1000}s: killing it`);
      try { process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM'); } catch { /* gone */ }
      setTimeout(() => { try { process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL'); } catch { /* gone */ } }, 5000).unref();
    }, o.timeoutMs);
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${prefix}] ${line}`));
    }
    const forward = (/** @type {NodeJS.Signals} */ sig) => { try { process.kill(-(/** @type {number} */ (child.pid)), sig); } catch { /* gone */ } };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (e) => console.log(`[${prefix}] could not start ${cmd}: ${e.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 128 : 1), seconds: (Date.now() - t0) / 1000, timedOut });
    });
  });
}

/**
 * A group of commands where each one is one test (setup, build, static).
 * @param {string} layer
 * @param {[string, string, string[], number][]} checks  [label, cmd, args, timeout ms]
 */
async function checks(layer, checks) {
  /** @type {Row} */
  const row = { layer, version: '-', passed: 0, failed: 0, seconds: 0, failures: [] };
  layerTimes.push({ layer, seconds: 0, cap: checks.reduce((n, c) => n + c[3] / 1000, 0) });
  for (const [label, cmd, args, timeoutMs] of checks) {
    const r = await run(`${layer}: ${label}`, cmd, args, { timeoutMs });
    row.seconds += r.seconds;
    layerTimes[layerTimes.length - 1].seconds += r.seconds;
    if (r.code === 0) row.passed++;
    else {
      row.failed++;
      row.failures.push(`${label}: ${r.timedOut ? 'timed out' : `exit ${r.code}`}`);
    }
  }
  rows.push(row);
  return row;
}

/**
 * A runner that writes a JSON summary (report.mjs) with per-version results.
 * @param {string} layer
 * @param {string} script
 * @param {string[]} args
 * @param {number} timeoutMs
 */
async function suite(layer, script, args, timeoutMs) {
  const json = path.join(tmp, `${layer}.json`);
  // the runner stops starting tests a minute before the cap and reports how far it got; the cap itself
  // kills whatever is left
  const deadline = Date.now() + timeoutMs - 60_000;
  const r = await run(layer, process.execPath, [script, ...args], {
    timeoutMs,
    env: {
      SWITCHBOARD_RESULTS_JSON: json, SWITCHBOARD_VERSIONS: versions.join(','), SWITCHBOARD_NO_AUTO_SETUP: '1',
      SWITCHBOARD_LAYER_DEADLINE: String(deadline),
    },
  });
  layerTimes.push({ layer, seconds: r.seconds, cap: timeoutMs / 1000 });
  /** @type {import('./harness/report.mjs').LayerSummary | undefined} */
  let summary;
  try { summary = JSON.parse(fs.readFileSync(json, 'utf8')); } catch { /* none */ }
  const capped = r.timedOut || Date.now() > deadline;
  const outOfTime = (/** @type {import('./harness/report.mjs').LayerSummary | undefined} */ s) =>
    `the ${layer} layer ran out of time after ${s?.done ?? s?.passed ?? 0}${s?.planned ? ` of ${s.planned}` : ''} tests (cap ${timeoutMs / 1000} s in test/runAll.mjs)`;
  if (!summary) {
    rows.push({ layer, version: '-', passed: 0, failed: 1, seconds: r.seconds, failures: [capped ? outOfTime(undefined) : `${layer}: exit ${r.code} without a results summary`] });
    return;
  }
  for (const v of summary.versions) {
    rows.push({ layer, version: v.version, passed: v.passed, failed: v.failed, seconds: v.seconds, failures: v.failures, flaky: v.flaky });
    for (const test of v.tests ?? []) testTimes.push({ layer, version: v.version, test });
  }
  const unfinished = summary.planned !== undefined && (summary.done ?? 0) < summary.planned;
  if (r.timedOut && !summary.versions.some((v) => v.failures.some((f) => f.includes('ran out of time')))) {
    // killed at the cap before it could say so itself
    rows.push({ layer, version: '-', passed: 0, failed: 1, seconds: 0, failures: [outOfTime(summary)] });
  } else if (unfinished && !capped) {
    // it ended before its last test without reaching the cap: a crash of the runner, not of a test
    rows.push({ layer, version: '-', passed: 0, failed: 1, seconds: 0, failures: [`the ${layer} layer stopped after ${summary.done ?? 0} of ${summary.planned} tests (exit ${r.code}; its log above says why)`] });
  } else if (r.code !== 0 && summary.failed === 0 && !unfinished) {
    rows.push({ layer, version: '-', passed: 0, failed: 1, seconds: 0, failures: [`${layer}: exit ${r.code}${r.timedOut ? ' (timed out)' : ''} although no test failed`] });
  }
}

const tAll = Date.now();
const tsc = path.join(BIN, 'tsc');
const MIN = 60_000;
/**
 * Each test layer's cap: at least twice its time on the slowest machine seen, a 2-core AMD EPYC VM like the
 * CI's (test/harness/README.md, "How the UI layer runs, and where its time goes"): integration 750 s for both
 * versions side by side, the UI layer 2,487 s (fresh clone, 11414cc). A layer that reaches its cap stops starting
 * tests a minute before it and reports how far it got.
 */
const CAPS = { unit: 5 * MIN, integration: 27 * MIN, ui: 80 * MIN, package: 10 * MIN, vsix: 10 * MIN };
const cpu = (() => { try { return /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1]; } catch { return undefined; } })();
const machine = `${os.cpus().length} cores (${cpu ?? os.cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
console.log(`[runAll] machine: ${machine}`);
if (layers.has('setup')) {
  await checks('setup', [['setup.sh', 'bash', [path.join(ROOT, 'test', 'harness', 'setup.sh'), ...versions], 30 * MIN]]);
}
if (layers.has('build')) {
  await checks('build', [
    ['esbuild', process.execPath, ['esbuild.mjs'], 5 * MIN],
    ['esbuild --tests', process.execPath, ['esbuild.mjs', '--tests'], 5 * MIN],
  ]);
}
// static and unit side by side: each is one process on one core (tsc, eslint; mocha), so together they take
// about as long as the unit layer alone on 2 cores
/** @type {Promise<unknown>[]} */
const firstLayers = [];
if (layers.has('static')) {
  /** @type {[string, string, string[], number][]} */
  const list = [
    ['tsc host', tsc, ['-p', 'tsconfig.json'], 5 * MIN],
    ['tsc webview', tsc, ['-p', 'webview/tsconfig.json'], 5 * MIN],
    ['eslint', path.join(BIN, 'eslint'), ['src', 'webview', 'test'], 5 * MIN],
    ['tsc harness', tsc, ['-p', 'test/harness/tsconfig.json'], 5 * MIN],
  ];
  list.push(['README settings table', process.execPath, ['scripts/settingsTable.mjs', '--check'], MIN]);
  list.push(['layers', process.execPath, ['scripts/checkLayers.mjs'], MIN]);
  list.push(['doc references', process.execPath, ['scripts/checkDocRefs.mjs'], MIN]);
  if (fs.existsSync(path.join(ROOT, 'src', 'acp', 'schema', 'generate.mjs'))) {
    list.push(['schema drift', process.execPath, ['src/acp/schema/generate.mjs', '--check'], 5 * MIN]);
    list.push(['schema drift (ACP v2)', process.execPath, ['src/acp/schema/generate.mjs', '--check', '--v2'], 5 * MIN]);
  }
  firstLayers.push(checks('static', list));
}
if (layers.has('unit')) firstLayers.push(suite('unit', path.join(ROOT, 'test', 'harness', 'runUnit.mjs'), [], CAPS.unit));
await Promise.all(firstLayers);
if (layers.has('integration')) await suite('integration', path.join(ROOT, 'test', 'harness', 'runIntegration.mjs'), [], CAPS.integration);
if (layers.has('ui')) await suite('ui', path.join(ROOT, 'test', 'harness', 'runUi.mjs'), [], CAPS.ui);
if (layers.has('package')) {
  // last: `npm run package` replaces dist/ with the production build; then the person's path runs against
  // the .vsix installed with --install-extension, not against the source folder
  await suite('package', path.join(ROOT, 'test', 'harness', 'packageCheck.mjs'), [], CAPS.package);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const vsix = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (fs.existsSync(vsix)) {
    process.env.SWITCHBOARD_UI_VSIX = vsix;
    await suite('ui (.vsix)', path.join(ROOT, 'test', 'harness', 'runUi.mjs'), ['--grep', '^new-session$'], CAPS.vsix);
    delete process.env.SWITCHBOARD_UI_VSIX;
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

// summary
const passed = rows.reduce((n, r) => n + r.passed, 0);
const failed = rows.reduce((n, r) => n + r.failed, 0);
const seconds = (Date.now() - tAll) / 1000;
const table = [['layer', 'version', 'passed', 'failed', 'seconds'],
  ...rows.map((r) => [r.layer, r.version, String(r.passed), String(r.failed), r.seconds.toFixed(1)]),
  ['total', '', String(passed), String(failed), seconds.toFixed(1)]];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
const fmt = (/** @type {string[]} */ row) => row.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
console.log(`\n${'='.repeat(widths.reduce((a, b) => a + b + 2, -2))}`);
console.log(fmt(table[0]));
for (const row of table.slice(1, -1)) console.log(fmt(row));
console.log(fmt(table[table.length - 1]));
console.log(`\nMachine: ${machine}`);
console.log(`Layer times (wall clock; share of the layer's cap): ${layerTimes.map((l) => `${l.layer} ${l.seconds.toFixed(0)} s (${Math.round((100 * l.seconds) / l.cap)}%)`).join(', ')}`);
if (testTimes.length) {
  console.log('\nThe 10 slowest tests (seconds; UI: set-up + own steps):');
  for (const { layer, version, test } of [...testTimes].sort((a, b) => b.test.seconds - a.test.seconds).slice(0, 10)) {
    const setup = test.setupSeconds !== undefined ? ` (${test.setupSeconds.toFixed(1)} + ${(test.seconds - test.setupSeconds).toFixed(1)})` : '';
    console.log(`  ${test.seconds.toFixed(1).padStart(6)}${setup}  ${layer} ${version}  ${test.name}`);
  }
  const ui = testTimes.filter((x) => x.test.setupSeconds !== undefined);
  if (ui.length) {
    const total = ui.reduce((n, x) => n + x.test.seconds, 0);
    const setup = ui.reduce((n, x) => n + (x.test.setupSeconds ?? 0), 0);
    console.log(`UI tests: ${total.toFixed(0)} s of test time, ${setup.toFixed(0)} s (${Math.round((100 * setup) / total)}%) in set-up ` +
      `(server start, window load until the folder is open), ${(total - setup).toFixed(0)} s in their own steps`);
  }
}
const flaky = rows.flatMap((r) => (r.flaky ?? []).map((f) => `${r.layer} ${r.version}: ${f}`));
if (flaky.length) {
  console.log('\nPassed on a second try (counted as passed; each depends on something it should not, and needs a fix):');
  for (const f of flaky) console.log(`  ${f}`);
}
const failures = rows.flatMap((r) => r.failures.map((f) => `${r.layer}${r.version !== '-' ? ` ${r.version}` : ''}: ${f.split('\n')[0]}`));
if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ${f}`);
}
try {
  fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'test-results', 'summary.json'), JSON.stringify({ machine, passed, failed, seconds, rows, layerTimes, testTimes }, null, 2));
} catch { /* not essential */ }
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
