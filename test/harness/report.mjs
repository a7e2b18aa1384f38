// @ts-check
// The machine-readable summary that runIntegration.mjs, runUi.mjs and runUnit.mjs write (to the path in
// SWITCHBOARD_RESULTS_JSON, if set) so that test/runAll.mjs can add up the counts.
import fs from 'node:fs';
import path from 'node:path';

/**
 * @typedef {object} VersionResult
 * @property {string} version     VS Code version, or "node" for the unit layer
 * @property {number} passed
 * @property {number} failed
 * @property {number} [pending]
 * @property {number} seconds
 * @property {string[]} failures  one entry per failed test: its title and error
 * @property {TestTime[]} [tests] how long each test took
 * @property {string[]} [flaky]   tests that failed once and passed on a second try, with the first failure
 */
/**
 * @typedef {object} TestTime
 * @property {string} name
 * @property {number} seconds       the whole test, its set-up included
 * @property {number} [setupSeconds] of that, before the test's own steps (UI: the server's start, shared by
 *   the modules of one server and counted on the first, and loading the window until the folder is open)
 */
/**
 * @typedef {object} LayerSummary
 * @property {string} layer
 * @property {number} passed
 * @property {number} failed
 * @property {number} seconds
 * @property {VersionResult[]} versions
 * @property {number} [planned]   tests the layer set out to run (when it knows in advance)
 * @property {number} [done]      of those, the tests that ran to an end
 */

/**
 * Adds up per-version results, writes the JSON summary if SWITCHBOARD_RESULTS_JSON is set, and prints the
 * per-version lines, the failures, and the closing line "N passed, N failed".
 * @param {string} layer
 * @param {VersionResult[]} versions
 * @param {number} startedAt Date.now() at the start
 * @param {{ planned?: number, done?: number }} [progress]
 * @returns {LayerSummary}
 */
export function finishLayer(layer, versions, startedAt, progress = {}) {
  const summary = writeProgress(layer, versions, startedAt, progress);
  console.log(`\n=== ${layer} results ===`);
  for (const v of versions) {
    console.log(`  ${v.version.padEnd(8)} ${v.passed} passed, ${v.failed} failed${v.pending ? `, ${v.pending} pending` : ''} (${v.seconds.toFixed(1)} s)`);
  }
  const flaky = versions.flatMap((v) => (v.flaky ?? []).map((f) => `[${v.version}] ${f}`));
  if (flaky.length) {
    console.log('\nPassed on a second try (they depend on something they should not; fix them):');
    for (const f of flaky) console.log(`  ${f}`);
  }
  const failures = versions.flatMap((v) => v.failures.map((f) => `[${v.version}] ${f}`));
  if (failures.length) {
    console.log('\nFailures:');
    for (const f of failures) console.log(`  ${f.replace(/\n/g, '\n  ')}`);
  }
  console.log(`${summary.passed} passed, ${summary.failed} failed`);
  return summary;
}

/**
 * Writes the summary so far (if SWITCHBOARD_RESULTS_JSON is set): a layer that is killed at its cap still
 * leaves how far it got for test/runAll.mjs.
 * @param {string} layer
 * @param {VersionResult[]} versions
 * @param {number} startedAt
 * @param {{ planned?: number, done?: number }} [progress]
 * @returns {LayerSummary}
 */
export function writeProgress(layer, versions, startedAt, progress = {}) {
  /** @type {LayerSummary} */
  const summary = {
    layer,
    passed: versions.reduce((n, v) => n + v.passed, 0),
    failed: versions.reduce((n, v) => n + v.failed, 0),
    seconds: Math.round((Date.now() - startedAt) / 100) / 10,
    versions,
    ...progress,
  };
  const out = process.env.SWITCHBOARD_RESULTS_JSON;
  if (out) {
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    const tmp = `${out}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(summary, null, 2));
    fs.renameSync(tmp, out);
  }
  return summary;
}

/** @param {unknown} e */
export const errorText = (e) => (e instanceof Error ? e.stack ?? e.message : String(e));
