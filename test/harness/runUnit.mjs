#!/usr/bin/env node
// @ts-check
// Unit tests: mocha in plain node (no `vscode` module) over out/test/unit/**/*.test.js, compiled from
// test/unit/**/*.test.ts by `node esbuild.mjs --tests`. Spec reporter output, 10 s per test, and the
// counts as JSON in SWITCHBOARD_RESULTS_JSON (for test/runAll.mjs).
//
//   node test/harness/runUnit.mjs [--grep PATTERN] [--timeout MS]
//
// (`npm run test:unit` runs the mocha CLI directly, which is the same minus the JSON.)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Mocha from 'mocha';
import { REPO_ROOT } from './harness.mjs';
import { errorText, finishLayer } from './report.mjs';

const { values } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string', default: '10000' },
  },
});
const DIR = path.join(REPO_ROOT, 'out', 'test', 'unit');
const startedAt = Date.now();
/** @type {import('./report.mjs').VersionResult} */
const r = { version: 'node', passed: 0, failed: 0, pending: 0, seconds: 0, failures: [], tests: [] };
try {
  const files = fs.existsSync(DIR)
    ? fs.readdirSync(DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.js')).sort().map((f) => path.join(DIR, f))
    : [];
  if (!files.length) console.log(`no unit tests in ${path.relative(REPO_ROOT, DIR)} (build them with node esbuild.mjs --tests)`);
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: Number(values.timeout), color: process.stdout.isTTY, ...(values.grep ? { grep: values.grep } : {}) });
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();
  await new Promise((resolve) => {
    const runner = mocha.run(() => resolve(undefined));
    runner.on('pass', (test) => {
      r.passed++;
      r.tests?.push({ name: test.fullTitle(), seconds: (test.duration ?? 0) / 1000 });
    });
    runner.on('pending', () => { r.pending = (r.pending ?? 0) + 1; });
    runner.on('fail', (test, err) => {
      r.failed++;
      r.failures.push(`${test.fullTitle()}: ${err?.message ?? err}`);
    });
  });
} catch (e) {
  // a test file that does not load (syntax error, missing module) is one failure
  r.failed++;
  r.failures.push(`loading the unit tests: ${errorText(e)}`);
  console.error(errorText(e));
}
r.seconds = (Date.now() - startedAt) / 1000;
const summary = finishLayer('unit', [r], startedAt);
// like mocha --exit: a test that leaves a handle open must not hang the run
process.exit(summary.failed > 0 ? 1 : 0);
