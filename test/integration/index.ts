/**
 * The integration test runner that VS Code loads in the extension host (`extensionTestsPath`):
 * VS Code calls `run()`, and its promise decides the exit code (rejected = failure).
 *
 * It runs every `*.test.js` below this folder (compiled from test/integration/**\/*.test.ts by
 * `node esbuild.mjs --tests`) with mocha (BDD, 30 s per test), prints plain PASS/FAIL lines with full
 * titles and stacks, and writes `{ passed, failed, pending, lines, durationMs }` as JSON to the file named
 * by SWITCHBOARD_TEST_RESULTS (the extension host inherits the server's environment), so that the
 * harness gets the counts even if the exit code were lost. SWITCHBOARD_TEST_GREP filters tests by title,
 * SWITCHBOARD_TEST_FILES (comma-separated base names) the test files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface IntegrationResults {
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  lines: string[];
}

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

/** Collects plain lines: PASS/FAIL/SKIP with the full title (and the stack of a failure). */
function plainReporter(lines: string[]): Mocha.ReporterConstructor {
  const out = (s: string): void => {
    lines.push(s);
    console.log(s);
  };
  return class PlainReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => out(`PASS ${t.fullTitle()} (${t.duration ?? 0} ms)`));
      runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => out(`SKIP ${t.fullTitle()}`));
      runner.on(EVENT_TEST_FAIL, (t: Mocha.Test, err: unknown) => out(`FAIL ${t.fullTitle()}\n${errorText(err).replace(/^/gm, '    ')}`));
    }
  };
}

/**
 * Every file below dir whose name ends in .test.js, sorted, activation.test.js first: it checks what the
 * extension does after activation before any test used it (the core loads at idle).
 */
function testFiles(dir: string): string[] {
  // SWITCHBOARD_TEST_FILES: the base names to run (the oldest version's subset, test/integration/compatSubset.mjs)
  const only = process.env.SWITCHBOARD_TEST_FILES?.split(',').map((n) => `${n}.test.js`);
  const first = (f: string) => (path.basename(f) === 'activation.test.js' ? 0 : 1);
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js') && (!only || only.includes(path.basename(f))))
    .map((f) => path.join(dir, f))
    .sort((a, b) => first(a) - first(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function writeResults(results: IntegrationResults): void {
  const file = process.env.SWITCHBOARD_TEST_RESULTS;
  if (!file) return;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(results, null, 2));
  } catch (e) {
    console.error(`could not write ${file}: ${errorText(e)}`);
  }
}

export async function run(): Promise<void> {
  const lines: string[] = [];
  const started = Date.now();
  const grep = process.env.SWITCHBOARD_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: plainReporter(lines), ...(grep ? { grep } : {}) });
  let passed = 0;
  let failed = 0;
  let pending = 0;
  try {
    for (const f of testFiles(__dirname)) mocha.addFile(f);
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on(EVENT_TEST_PASS, () => { passed++; });
      runner.on(EVENT_TEST_FAIL, () => { failed++; });
      runner.on(EVENT_TEST_PENDING, () => { pending++; });
    });
  } catch (e) {
    // a test file that does not load, or mocha itself failing, is one failure
    failed++;
    const line = `FAIL loading the integration tests\n${errorText(e).replace(/^/gm, '    ')}`;
    lines.push(line);
    console.log(line);
  }
  const durationMs = Date.now() - started;
  console.log(`Extension host tests: ${passed} passing, ${failed} failing, ${pending} pending (${(durationMs / 1000).toFixed(1)} s)`);
  writeResults({ passed, failed, pending, durationMs, lines });
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
}
