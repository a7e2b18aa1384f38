#!/usr/bin/env node
// @ts-check
// Extension-host benchmarks (out/test/bench/extensionHost/index.js) in the real VS Code, like the
// integration tests but without mocha: the module prints its figures, and writes them as `lines` to
// the results file. Called by `npm run bench` (test/bench/hostBench.ts), or directly:
//
//   node test/harness/runHostBench.mjs                      # the newest VS Code version
//   node test/harness/runHostBench.mjs --version 1.100.3    # another (repeatable; or SWITCHBOARD_VERSIONS)
//
// Build first: node esbuild.mjs --tests. With SWITCHBOARD_BENCH_JSON=file it writes
// `{ versions: [{ version, code, lines }] }` there. Exit 1 if a benchmark failed or could not run.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EXTENSION_ROOT, KNOWN_VERSIONS, REPO_ROOT, ensureInstalled, makeTmp, makeWorkspace, removeTmpDirs, resolveVersions, runExtensionTests } from './harness.mjs';

const { values } = parseArgs({ options: { version: { type: 'string', multiple: true } } });
const spec = values.version?.flatMap((v) => v.split(',')) ?? (process.env.SWITCHBOARD_VERSIONS ? undefined : [KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1]]);
const versions = resolveVersions(spec);
const TESTS = path.join(REPO_ROOT, 'out', 'test', 'bench', 'extensionHost', 'index.js');

/** @type {{ version: string, code: number, lines: string[] }[]} */
const out = [];
for (const version of versions) {
  /** @type {string[]} */
  let lines = [];
  let code = 1;
  try {
    if (!fs.existsSync(TESTS)) throw new Error(`${path.relative(REPO_ROOT, TESTS)} does not exist: run node esbuild.mjs --tests first`);
    ensureInstalled(version);
    const tmp = makeTmp(`sb-bench-${version}-`);
    const workspace = makeWorkspace(path.join(tmp, 'workspace'));
    const resultsFile = path.join(tmp, 'results.json');
    const r = await runExtensionTests({
      version,
      extensionDevelopmentPaths: [EXTENSION_ROOT],
      extensionTestsPath: TESTS,
      workspace,
      resultsFile,
      env: { SWITCHBOARD_TEST_RESULTS: resultsFile, SWITCHBOARD_TEST_WORKSPACE: workspace },
    });
    code = r.code;
    try { lines = JSON.parse(fs.readFileSync(resultsFile, 'utf8')).lines ?? []; } catch { /* none */ }
    if (code !== 0 && !lines.length) lines = [`FAIL the extension-host benchmarks did not run: ${r.reason || `exit ${code}`}`];
  } catch (e) {
    lines = [`FAIL the extension-host benchmarks could not start: ${e instanceof Error ? e.message : String(e)}`];
  } finally {
    removeTmpDirs();
  }
  out.push({ version, code, lines });
}

console.log('\n=== extension-host benchmarks ===');
for (const v of out) for (const l of v.lines) console.log(l);
if (process.env.SWITCHBOARD_BENCH_JSON) fs.writeFileSync(process.env.SWITCHBOARD_BENCH_JSON, JSON.stringify({ versions: out }, null, 2));
process.exit(out.every((v) => v.code === 0) ? 0 : 1);
