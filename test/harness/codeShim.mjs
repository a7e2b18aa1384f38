#!/usr/bin/env node
// @ts-check
// A stand-in for the VS Code desktop executable (`code`), so that
//   @vscode/test-electron  runTests({ vscodeExecutablePath: '<repo>/test/harness/codeShim.mjs', ... })
// runs the extension tests in the real VS Code server (code-server) + headless chromium instead of
// a downloaded VS Code (which cannot be downloaded here).
//
// It accepts the arguments test-electron passes: --extensionDevelopmentPath=DIR (repeatable),
// --extensionTestsPath=FILE, an optional folder to open, and flags it ignores (--no-sandbox,
// --disable-gpu-sandbox, --disable-updates, --skip-welcome, --skip-release-notes,
// --disable-workspace-trust, --user-data-dir=, --extensions-dir=: it always uses throwaway dirs).
// The environment it gets (test-electron's extensionTestsEnv included) reaches the extension host.
// Exit code = test result.
//
// Env:
//   SWITCHBOARD_VSCODE_VERSION  VS Code version to run: 1.100.3 | 1.139.1 (default: the newest known)
//   SWITCHBOARD_TEST_RESULTS    results JSON the in-host runner writes (also ends a run whose exit is lost)
//   SWITCHBOARD_TEST_TIMEOUT    seconds for the whole run (default 1500)
//   SWITCHBOARD_SCREENSHOT      PNG path for a screenshot when the run times out
import fs from 'node:fs';
import path from 'node:path';
import { KNOWN_VERSIONS, removeTmpDirs, resolveVersions, runExtensionTests } from './harness.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--version') || argv.includes('-v')) {
  console.log(`${process.env.SWITCHBOARD_VSCODE_VERSION || KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1]}\nswitchboard-code-shim\nx64`);
  process.exit(0);
}

/** @type {string[]} */
const dev = [];
/** @type {string | undefined} */
let tests;
/** @type {string | undefined} */
let workspace;
const valueFlags = /^--(user-data-dir|extensions-dir|locale|log|folder-uri|file-uri|profile|inspect-extensions|inspect-brk-extensions|crash-reporter-directory)$/;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  /** @param {string} name */
  const val = (name) => (a.startsWith(`${name}=`) ? a.slice(name.length + 1) : a === name ? argv[++i] : undefined);
  let v;
  if ((v = val('--extensionDevelopmentPath')) !== undefined) dev.push(path.resolve(v));
  else if ((v = val('--extensionTestsPath')) !== undefined) tests = path.resolve(v);
  else if (valueFlags.test(a)) i++;
  else if (a.startsWith('-')) { /* a flag without a value: ignored */ }
  else if (fs.existsSync(a) && fs.statSync(a).isDirectory()) workspace = path.resolve(a);
  else console.error(`code-shim: ignoring argument ${a}`);
}
if (!tests || !dev.length) {
  console.error(`code-shim: this stand-in for VS Code only runs extension tests; it needs --extensionDevelopmentPath and --extensionTestsPath. Got: ${argv.join(' ')}`);
  process.exit(2);
}
if (!fs.existsSync(tests)) {
  console.error(`code-shim: extensionTestsPath ${tests} does not exist (build the tests first: node esbuild.mjs --tests)`);
  process.exit(2);
}

let code = 1;
try {
  const [version] = resolveVersions(process.env.SWITCHBOARD_VSCODE_VERSION || KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1]);
  console.log(`code-shim: running ${path.relative(process.cwd(), tests) || tests} in VS Code ${version} (code-server) + chromium`);
  const r = await runExtensionTests({
    version,
    extensionDevelopmentPaths: dev,
    extensionTestsPath: tests,
    workspace,
    resultsFile: process.env.SWITCHBOARD_TEST_RESULTS,
    screenshotOnFailure: process.env.SWITCHBOARD_SCREENSHOT,
  });
  code = r.code;
  const t = r.timings;
  console.log(`code-shim: VS Code ${version}: exit ${code}${r.reason ? ` (${r.reason})` : ''}; server ${t.serverReady ?? '-'} ms, workbench ${t.workbench ?? '-'} ms, done ${t.done ?? '-'} ms`);
} catch (e) {
  console.error(`code-shim: ${e instanceof Error ? e.message : e}`);
  code = 1;
} finally {
  removeTmpDirs();
}
process.exit(code);
