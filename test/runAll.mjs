#!/usr/bin/env node
// @ts-check
// `npm test`: every layer, in order, going on after a failing one.
//   setup        bash test/harness/setup.sh (apt packages, code-server per VS Code version; seconds when cached)
//   build        node esbuild.mjs; node esbuild.mjs --tests
//   static       tsc (host), tsc (webview), eslint, tsc (harness .mjs), README tables, layers (scripts/checkLayers.mjs), schema drift
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

/** @typedef {{ layer: string, version: string, passed: number, failed: number, seconds: number, failures: string[] }} Row */
/** @type {Row[]} */
const rows = [];
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
  for (const [label, cmd, args, timeoutMs] of checks) {
    const r = await run(`${layer}: ${label}`, cmd, args, { timeoutMs });
    row.seconds += r.seconds;
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
  const r = await run(layer, process.execPath, [script, ...args], {
    timeoutMs,
    env: { SWITCHBOARD_RESULTS_JSON: json, SWITCHBOARD_VERSIONS: versions.join(','), SWITCHBOARD_NO_AUTO_SETUP: '1' },
  });
  /** @type {import('./harness/report.mjs').LayerSummary | undefined} */
  let summary;
  try { summary = JSON.parse(fs.readFileSync(json, 'utf8')); } catch { /* none */ }
  if (!summary) {
    rows.push({ layer, version: '-', passed: 0, failed: 1, seconds: r.seconds, failures: [`${layer}: ${r.timedOut ? 'timed out' : `exit ${r.code}`} without a results summary`] });
    return;
  }
  for (const v of summary.versions) {
    rows.push({ layer, version: v.version, passed: v.passed, failed: v.failed, seconds: v.seconds, failures: v.failures });
  }
  if (r.code !== 0 && summary.failed === 0) {
    rows.push({ layer, version: '-', passed: 0, failed: 1, seconds: 0, failures: [`${layer}: exit ${r.code}${r.timedOut ? ' (timed out)' : ''} although no test failed`] });
  }
}

const tAll = Date.now();
const tsc = path.join(BIN, 'tsc');
const MIN = 60_000;
if (layers.has('setup')) {
  await checks('setup', [['setup.sh', 'bash', [path.join(ROOT, 'test', 'harness', 'setup.sh'), ...versions], 30 * MIN]]);
}
if (layers.has('build')) {
  await checks('build', [
    ['esbuild', process.execPath, ['esbuild.mjs'], 5 * MIN],
    ['esbuild --tests', process.execPath, ['esbuild.mjs', '--tests'], 5 * MIN],
  ]);
}
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
  if (fs.existsSync(path.join(ROOT, 'src', 'acp', 'schema', 'generate.mjs'))) {
    list.push(['schema drift', process.execPath, ['src/acp/schema/generate.mjs', '--check'], 5 * MIN]);
  }
  await checks('static', list);
}
if (layers.has('unit')) await suite('unit', path.join(ROOT, 'test', 'harness', 'runUnit.mjs'), [], 15 * MIN);
if (layers.has('integration')) await suite('integration', path.join(ROOT, 'test', 'harness', 'runIntegration.mjs'), [], 30 * MIN);
if (layers.has('ui')) await suite('ui', path.join(ROOT, 'test', 'harness', 'runUi.mjs'), [], 30 * MIN);
if (layers.has('package')) {
  // last: `npm run package` replaces dist/ with the production build; then the person's path runs against
  // the .vsix installed with --install-extension, not against the source folder
  await suite('package', path.join(ROOT, 'test', 'harness', 'packageCheck.mjs'), [], 10 * MIN);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const vsix = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (fs.existsSync(vsix)) {
    process.env.SWITCHBOARD_UI_VSIX = vsix;
    await suite('ui (.vsix)', path.join(ROOT, 'test', 'harness', 'runUi.mjs'), ['--grep', '^new-session$'], 15 * MIN);
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
const failures = rows.flatMap((r) => r.failures.map((f) => `${r.layer}${r.version !== '-' ? ` ${r.version}` : ''}: ${f.split('\n')[0]}`));
if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ${f}`);
}
try {
  fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'test-results', 'summary.json'), JSON.stringify({ passed, failed, seconds, rows }, null, 2));
} catch { /* not essential */ }
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
