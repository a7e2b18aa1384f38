#!/usr/bin/env node
// @ts-check
// Ask Several Agents benchmark, part of `npm run bench` (issue 31's targets, docs/worktrees.md): in the real workbench
// (code-server + Chromium, 1400×900, the user's production build staged as the .vsix installs it), every window fresh,
// its workspace a git repository of a few hundred committed files (makeRepo), the agents scripted
// (test/fixtures/agents/scenarios/fanOutBench.json: each run edits two files through the client, writes a third
// itself, then streams a 3.5 KB Markdown answer in 200 chunks 15 ms apart).
//
// 1. No task over 50 ms in the workbench while a fan-out of 3 runs. ACP: Ask Several Agents… driven by keyboard as a
//    user does (three agents, the prompt, the check command `true`); from the last Enter (the check's input box) until
//    the compare view has painted its three checks passed, the long tasks (> 50 ms) of every frame of the page are
//    counted (e2e/frameProbe.mjs, merged over the frames: the workbench, the webview hosts, the compare view). The
//    baseline, in the same window afterwards: ACP: New Session… with one of the agents, then the same prompt typed into
//    the chat (one agent, no worktree, no check), counted the same way over what the user waits for: from the Enter on
//    the agent until the chat shows the session idle (the agent starts, the chat's webview is made, as the compare
//    view's is in the fan-out), and from the prompt's Enter until the answer's end is painted and the session is idle
//    again (the typing in between is not counted). Printed: count, longest and total of each, their ratios, the wall
//    times, and for each long task when it started and where (the frame whose own script ran it, from the long task's
//    attribution; the Long Animation Frame API's longest scripts of its frame). Target: 0 tasks over 50 ms.
// 2. Extension-host memory per extra worktree session. In a fresh window: a fan-out of 1 run, then a fan-out of 3 more
//    (4 sessions in worktrees); after each, once the checks passed: 3 s to settle, a full GC in the extension host, and
//    the median of 5 readings of its RSS (/proc: e2e/procStats.mjs; the pid is the one the helper extension below runs
//    in, checked to be one of the extension hosts below the server). The figure is
//    (RSS after 4 − RSS after 1) / 3. Baseline, in a fresh window of its own: the same for plain sessions (New Session
//    and the same prompt: 1, then 3 more; each has its chat open, as a plain session does). A fan-out of 1 run is not
//    offered by the pickers (one agent runs 2-4 times), so both windows are driven through Switchboard's API
//    (askSeveralAgents / newSession + prompt, the commands' own code below their pickers) by a small helper extension
//    installed next to Switchboard (HELPER below), which also runs the GC (`--expose-gc` set at run time).
//    Target: <= 20 MB per extra worktree session.
//
//   node test/bench/worktreeFanOutBench.mjs [--version 1.139.1] [--only longTasks|memory] [--rounds 1] [--memory-rounds 1]
//        [--files 300] [--git on|off] [--trace] [--dev] [--json out.json]
//
// --rounds: fresh windows for figure 1 (each: the fan-out, then the baseline); --memory-rounds: pairs of fresh windows
// for figure 2 (worktree and plain, in alternation). --git off turns VS Code's git extension off (it is on, as for a
// user, by default). --trace records a Chromium trace of the page during each measured run of figure 1 (written to the
// temp folder; it slows the page: its long tasks are not the figure's) and prints, for each task over 50 ms of the
// busiest renderer main thread, the trace events it spent its time in (e2e/trace.mjs). --dev runs dist/ instead of a
// production build. Needs `node esbuild.mjs --tests` (the scripted agent). Run it alone on the machine: a long task is
// a wall-clock figure. Exit code 1 when a target is missed or the run failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  EXTENSION_ROOT, KNOWN_VERSIONS, TEST_SETTINGS, ensureInstalled, launchBrowser, linkExtension, makeTmp, payloadNeedsSmokeTestDriver,
  removeTmpDirs, runPaletteCommand, sleep, startServer,
} from '../harness/harness.mjs';
import { scriptedAgent } from '../ui/scriptedSession.mjs';
import { frameProbe } from './e2e/frameProbe.mjs';
import { extensionHosts, rssMb } from './e2e/procStats.mjs';
import { median } from './e2e/report.mjs';
import { bundleSizes } from './e2e/workbench.mjs';
import { askSeveralAgents, checksPassed, singleSession, startTrace, webviewByTitle, withScreenshot } from './worktreeFanOutUi.mjs';
import { culpritProbe, installHelper, longTasks } from './worktreeFanOutProbes.mjs';

const { values } = parseArgs({
  options: {
    version: { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'memory-rounds': { type: 'string', default: '1' },
    files: { type: 'string', default: '300' },
    git: { type: 'string', default: 'on' },
    trace: { type: 'boolean', default: false },
    dev: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const version = values.version ?? KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1];
const fileCount = Math.max(10, Number(values.files));
const gitOn = values.git !== 'off';
const target = { longTaskMs: 50, longTasks: 0, mbPerSession: 20 };
/** The last chunk of the scenario's answer. */
const MARKER = 'END-OF-FANOUT-BENCH';
const AGENTS = [
  { id: 'bench-a', name: 'Bench Agent A', letter: 'A' },
  { id: 'bench-b', name: 'Bench Agent B', letter: 'B' },
  { id: 'bench-c', name: 'Bench Agent C', letter: 'C' },
];
const PROMPT = 'Add the feature with an options object';
const CHECK = 'true';

/** @param {string} s */
const say = (s) => process.stderr.write(`  … ${s}\n`);

/** The window's user settings; `delayScale` scales the scenario's chunk delays (0: at once). @param {string} delayScale */
function settingsFor(delayScale) {
  return {
    ...TEST_SETTINGS,
    'switchboard.agents': AGENTS.map((a) => {
      const s = scriptedAgent(a.id, a.name, 'fanOutBench', delayScale);
      return { ...s, env: { ...s.env, NAME: a.letter } };
    }),
    'switchboard.chat.openIn': 'editor',
    'git.enabled': gitOn,
  };
}

/**
 * A git repository on main with one commit of `count` TypeScript modules (in packages of 10) and a few project files.
 * @param {string} dir @param {number} count
 */
function makeRepo(dir, count) {
  const write = (/** @type {string} */ rel, /** @type {string} */ text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('README.md', '# Bench project\n\nA generated repository for the Ask Several Agents benchmark.\n');
  write('package.json', `${JSON.stringify({ name: 'bench-project', version: '1.0.0', private: true, scripts: { test: 'true' } }, null, 2)}\n`);
  write('tsconfig.json', `${JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'nodenext' }, include: ['src'] }, null, 2)}\n`);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, '0');
    const lines = [`// module ${i}`, `import type { Options } from '../types';`, ''];
    for (let f = 0; f < 8; f++) {
      lines.push(`/** Step ${f} of module ${i}. */`, `export function step${f}(o: Options): number {`, `  return o.strict ? o.size * ${f + 1} : o.size + ${i};`, '}', '');
    }
    write(`src/pkg${String(Math.floor(i / 10)).padStart(2, '0')}/module${n}.ts`, lines.join('\n'));
  }
  write('src/types.ts', 'export interface Options { size: number; strict?: boolean }\n');
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('-c', 'init.defaultBranch=main', 'init', '-q');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.invalid');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return dir;
}

// ------------------------------------------------------------------------------------------------
// a fresh window

/**
 * A fresh code-server and browser window on a new git repository, Switchboard from `extRoot` (and the helper
 * extension when `helper`), `settings` as the user's; resolves once the explorer lists the folder.
 * @param {{ extRoot: string, settings: Record<string, unknown>, helper?: boolean, tmpPrefix: string }} o
 */
async function openWindow(o) {
  const tmp = makeTmp(o.tmpPrefix);
  const load = payloadNeedsSmokeTestDriver(version) ? 'link' : 'dev';
  const extensionsDir = path.join(tmp, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  if (load === 'link') linkExtension(extensionsDir, o.extRoot);
  const control = path.join(tmp, 'control.json');
  if (o.helper) installHelper(extensionsDir);
  const repo = makeRepo(path.join(tmp, 'repo'), fileCount);
  const server = await startServer({ version, forPayload: load === 'dev', settings: { ...o.settings, 'worktreeBench.control': control }, extensionsDir, quiet: true });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // frameProbe: the long tasks of every frame, a chat's Send and its answer's end painted; culpritProbe: where from
    await context.addInitScript(frameProbe, MARKER);
    await context.addInitScript(culpritProbe);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const payload = /** @type {[string, string][]} */ (load === 'dev' ? [['extensionDevelopmentPath', server.remote(o.extRoot)]] : []);
    await page.goto(server.url({ payload, folder: repo }), { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 30_000 }).catch(() => {});
    return { tmp, repo, control, server, browser, page, close: async () => { await browser.close(); await server.stop(); } };
  } catch (error) {
    await browser.close();
    await server.stop();
    throw error;
  }
}

/** @typedef {Awaited<ReturnType<typeof openWindow>>} Window */

async function longTaskWindow(extRoot) {
  const w = await openWindow({ extRoot, settings: settingsFor('1'), tmpPrefix: 'sb-fanoutbench-lt-' });
  try {
    await sleep(5000); // the window settles: the core loads at idle, git looks at the repository
    const names = AGENTS.map((a) => a.name);
    /** @type {() => Promise<string[]>} */
    let stopTrace = async () => [];
    const sentAt = await askSeveralAgents(w.page, names, PROMPT, CHECK, async () => { stopTrace = await startTrace(w, 'fan-out'); });
    const compare = await webviewByTitle(w.page, /^Compare: /);
    const doneAt = await checksPassed(compare, names.length);
    const fanOut = { wallMs: doneAt - sentAt, tasks: await longTasks(w.page, sentAt, doneAt), trace: await stopTrace() };
    const rows = (await compare.locator('[data-testid="compare-row"]').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    await sleep(2000);
    await runPaletteCommand(w.page, 'View: Close All Editors');
    await sleep(3000);
    stopTrace = async () => [];
    const s = await singleSession(w.page, names[0], PROMPT, async () => { stopTrace = await startTrace(w, 'single session'); });
    const single = {
      wallMs: (s.readyAt - s.openAt) + (s.idleAt - s.sendAt), openMs: s.readyAt - s.openAt, turnMs: s.idleAt - s.sendAt,
      tasks: [
        ...(await longTasks(w.page, s.openAt, s.readyAt)).map((t) => ({ ...t, phase: 'New Session' })),
        ...(await longTasks(w.page, s.sendAt, s.idleAt)).map((t) => ({ ...t, phase: 'the prompt' })),
      ],
      trace: await stopTrace(),
    };
    return { fanOut, single, rows };
  } catch (error) {
    throw await withScreenshot(w, 'longtasks', error);
  } finally {
    await w.close();
  }
}

// ------------------------------------------------------------------------------------------------
// figure 2: extension-host memory

/**
 * Runs the helper's command with `op` (the control file) and waits for its answer.
 * @param {Window} w @param {Record<string, unknown>} op
 */
async function helper(w, op, timeoutMs = 120_000) {
  const out = path.join(w.tmp, `out-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(w.control, JSON.stringify({ ...op, out }));
  await runPaletteCommand(w.page, 'Worktree Bench: Run');
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
    if (!fs.existsSync(out)) continue;
    /** @type {{ ok: boolean, error?: string, pid?: number, memory?: NodeJS.MemoryUsage }} */
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    if (!r.ok) throw new Error(`the helper's ${op.op} failed: ${r.error}`);
    return r;
  }
  throw new Error(`the helper's ${op.op} did not answer within ${timeoutMs} ms`);
}

/**
 * The extension host's memory once settled: 3 s, a full GC (in the extension host), 1 s, then the median of 5
 * readings of its RSS 300 ms apart; also its V8 heap after the GC. The extension host is the process the helper
 * runs in (it reports its pid), one of the extension hosts below the server.
 * @param {Window} w
 */
async function settledMemory(w) {
  await sleep(3000);
  const gc = await helper(w, { op: 'gc' });
  const hosts = extensionHosts(w.server.proc.pid ?? 0);
  const pid = gc.pid ?? NaN;
  if (!hosts.includes(pid)) throw new Error(`the helper runs in pid ${pid}, not in an extension host below the server (${hosts.join(', ')})`);
  await sleep(1000);
  /** @type {number[]} */
  const samples = [];
  for (let i = 0; i < 5; i++) { samples.push(rssMb(pid)); await sleep(300); }
  return {
    pid, rss: median(samples), samples, heapUsed: (gc.memory?.heapUsed ?? NaN) / 1024 / 1024, external: (gc.memory?.external ?? NaN) / 1024 / 1024,
    /** other extension hosts below the server, if any (pid and RSS) */
    others: hosts.filter((h) => h !== pid).map((h) => `${h} (${rssMb(h).toFixed(0)} MB)`),
  };
}

/**
 * One fresh window of figure 2: 1 session, then 3 more, in worktrees (fan-outs) or plain (New Session + the prompt).
 * @param {string} extRoot @param {'worktree' | 'plain'} kind
 */
async function memoryWindow(extRoot, kind) {
  const w = await openWindow({ extRoot, settings: settingsFor('0'), helper: true, tmpPrefix: `sb-fanoutbench-mem-${kind}-` });
  try {
    await sleep(5000);
    const start = await settledMemory(w);
    const [a, b, c] = AGENTS.map((x) => x.id);
    if (kind === 'worktree') {
      await helper(w, { op: 'fanOut', request: { agents: [a], runsPerAgent: 1, prompt: `One run: ${PROMPT}`, check: CHECK } });
      await checksPassed(await webviewByTitle(w.page, /^Compare: One run/), 1);
    } else {
      await helper(w, { op: 'sessions', agents: [a], prompt: PROMPT });
    }
    const one = await settledMemory(w);
    if (kind === 'worktree') {
      await helper(w, { op: 'fanOut', request: { agents: [a, b, c], runsPerAgent: 1, prompt: `Three runs: ${PROMPT}`, check: CHECK } });
      await checksPassed(await webviewByTitle(w.page, /^Compare: Three runs/), 3);
    } else {
      await helper(w, { op: 'sessions', agents: [a, b, c], prompt: PROMPT });
    }
    const four = await settledMemory(w);
    if (one.pid !== four.pid || start.pid !== one.pid) throw new Error(`the extension host changed: pid ${start.pid}, ${one.pid}, ${four.pid}`);
    const pid = four.pid;
    const others = [...start.others.map((o) => `${o} at the start`), ...four.others.map((o) => `${o} at the end`)];
    const worktrees = execFileSync('git', ['worktree', 'list'], { cwd: w.repo, encoding: 'utf8' }).trim().split('\n').length - 1;
    return { kind, pid, others, start, one, four, perExtra: (four.rss - one.rss) / 3, heapPerExtra: (four.heapUsed - one.heapUsed) / 3, worktrees };
  } catch (error) {
    throw await withScreenshot(w, `memory-${kind}`, error);
  } finally {
    await w.close();
  }
}

// ------------------------------------------------------------------------------------------------

async function main() {
  ensureInstalled(version);
  if (!fs.existsSync(path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'))) throw new Error('out/test/fixtures/agents/scriptedAgent.js is missing: node esbuild.mjs --tests');
  const load = os.loadavg();
  const extRoot = values.dev ? EXTENSION_ROOT : bundleSizes().root;
  const started = Date.now();
  /** @type {Awaited<ReturnType<typeof longTaskWindow>>[]} */
  const lt = [];
  /** @type {Awaited<ReturnType<typeof memoryWindow>>[]} */
  const mem = [];
  if (values.only !== 'memory') {
    for (let i = 1; i <= Number(values.rounds); i++) {
      say(`long tasks, window ${i}: a fan-out of 3, then one session`);
      const r = await longTaskWindow(extRoot);
      say(`  fan-out ${r.fanOut.tasks.length} long tasks in ${r.fanOut.wallMs} ms; single session ${r.single.tasks.length} in ${r.single.wallMs} ms`);
      lt.push(r);
    }
  }
  const ltSeconds = (Date.now() - started) / 1000;
  if (values.only !== 'longTasks') {
    for (let i = 1; i <= Number(values['memory-rounds']); i++) {
      /** @type {('worktree' | 'plain')[]} */
      const order = i % 2 ? ['worktree', 'plain'] : ['plain', 'worktree'];
      for (const kind of order) {
        say(`memory, round ${i}: ${kind} sessions, a fresh window`);
        const r = await memoryWindow(extRoot, kind);
        say(`  RSS ${r.start.rss.toFixed(1)} → ${r.one.rss.toFixed(1)} → ${r.four.rss.toFixed(1)} MB; ${r.perExtra.toFixed(1)} MB per extra session`);
        mem.push(r);
      }
    }
  }
  return { load, loadAfter: os.loadavg(), lt, mem, ltSeconds, memSeconds: (Date.now() - started) / 1000 - ltSeconds };
}

main().then(({ load, loadAfter, lt, mem, ltSeconds, memSeconds }) => {
  let ok = true;
  const check = (/** @type {boolean} */ met) => { ok &&= met; return met ? 'met' : 'MISSED'; };
  const ms = (/** @type {number} */ x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a');
  const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? `${(a / b).toFixed(2)}x` : a > 0 ? 'n/a (baseline 0)' : '1.00x (both 0)');
  const loads = `load average ${load.map((x) => x.toFixed(2)).join(' ')} → ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`;
  console.log(`Benchmark: Ask Several Agents in the workbench (VS Code ${version}, code-server + Chromium, 1400×900, ${values.dev ? 'dist/' : 'production build'}, ${os.cpus().length} cores, a git repository of ${fileCount + 4} committed files, VS Code's git ${gitOn ? 'on' : 'off'}; ${loads})`);
  if (lt.length) {
    console.log(`  1. a fan-out of 3 scripted agents (200 chunks in 3 s each, writes 3 files, check \`${CHECK}\`), the first thing a fresh window does; ${lt.length} window${lt.length > 1 ? 's' : ''}, ${ltSeconds.toFixed(0)} s`);
    const stat = (/** @type {{ tasks: { duration: number }[] }[]} */ runs) => {
      const counts = runs.map((r) => r.tasks.length);
      const max = Math.max(0, ...runs.flatMap((r) => r.tasks.map((t) => t.duration)));
      return { count: median(counts), counts, max, total: median(runs.map((r) => r.tasks.reduce((s, t) => s + t.duration, 0))) };
    };
    const f = stat(lt.map((r) => r.fanOut));
    const s = stat(lt.map((r) => r.single));
    const wall = median(lt.map((r) => r.fanOut.wallMs));
    console.log(`     long tasks (> ${target.longTaskMs} ms) from Send until the 3 checks passed: ${f.count} (${f.counts.join(', ')}), longest ${ms(f.max)}, ${ms(f.total)} in all; wall time ${(wall / 1000).toFixed(2)} s   target ${target.longTasks}: ${check(Math.max(...f.counts) <= target.longTasks)}`);
    const phase = (/** @type {string} */ p) => lt.map((r) => r.single.tasks.filter((t) => t.phase === p).length).join(', ');
    console.log(`     baseline, the same window after it: New Session + the same prompt (one agent, no worktree, no check): ${s.count} (${s.counts.join(', ')}: New Session ${phase('New Session')}, the prompt ${phase('the prompt')}), longest ${ms(s.max)}, ${ms(s.total)} in all; Enter on the agent → chat idle ${(median(lt.map((r) => r.single.openMs)) / 1000).toFixed(2)} s + Send → idle ${(median(lt.map((r) => r.single.turnMs)) / 1000).toFixed(2)} s`);
    console.log(`     fan-out / single session: long tasks ${ratio(f.count, s.count)}, longest ${ratio(f.max, s.max)}, time in long tasks ${ratio(f.total, s.total)}; wall time ${ratio(wall, median(lt.map((r) => r.single.wallMs)))}`);
    for (const [i, r] of lt.entries()) {
      console.log(`       window ${i + 1}, the compare view at the end: ${r.rows.map((x) => x.slice(0, 140)).join(' | ')}`);
      for (const [what, run] of /** @type {const} */ ([['fan-out', r.fanOut], ['single', r.single]])) {
        for (const t of /** @type {(typeof run.tasks[number] & { phase?: string })[]} */ (run.tasks)) {
          const after = t.phase === 'New Session' ? 'the Enter on the agent' : 'Send';
          console.log(`       window ${i + 1}, ${what}${t.phase ? ` (${t.phase})` : ''}: ${t.duration} ms at +${Math.round(t.start)} ms after ${after}, in the ${t.ranIn}${t.scripts.length ? `; its animation frame's longest scripts: ${t.scripts.join('; ')}` : ''}`);
        }
        for (const l of run.trace) console.log(`       window ${i + 1}, ${what}: ${l}`);
      }
    }
  }
  if (mem.length) {
    console.log(`  2. extension-host memory per extra worktree session (RSS after 4 sessions − after 1, / 3; a full GC, then the median of 5 readings); ${mem.length} fresh windows, ${memSeconds.toFixed(0)} s`);
    const line = (/** @type {'worktree' | 'plain'} */ kind) => {
      const rs = mem.filter((m) => m.kind === kind);
      for (const m of rs) {
        console.log(`     ${kind === 'worktree' ? 'in worktrees (a fan-out of 1, then one of 3)' : 'plain sessions (New Session + the prompt, chats open), baseline'}: RSS ${m.start.rss.toFixed(1)} MB settled → ${m.one.rss.toFixed(1)} MB after 1 → ${m.four.rss.toFixed(1)} MB after 4 = ${m.perExtra.toFixed(1)} MB per extra session (V8 heap after GC ${m.one.heapUsed.toFixed(1)} → ${m.four.heapUsed.toFixed(1)} MB, ${m.heapPerExtra.toFixed(2)} MB per extra; pid ${m.pid}${m.others.length ? `; other extension hosts below the server, not counted: ${m.others.join(', ')}` : ''}${kind === 'worktree' ? `; ${m.worktrees} worktrees` : ''})`);
      }
      return median(rs.map((m) => m.perExtra));
    };
    const wt = line('worktree');
    const plain = line('plain');
    console.log(`     MB per extra worktree session ${wt.toFixed(1)} MB   target <= ${target.mbPerSession} MB: ${check(wt <= target.mbPerSession)}; plain sessions ${plain.toFixed(1)} MB; worktree / plain ${plain > 0 ? `${(wt / plain).toFixed(2)}x` : `n/a (plain ${plain.toFixed(1)} MB)`}`);
  }
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ version, load, loadAfter, longTasks: lt, memory: mem, target, met: ok }, null, 2));
  removeTmpDirs();
  process.exit(ok ? 0 : 1);
}, (error) => {
  console.error(`FAIL the Ask Several Agents benchmark did not run: ${error instanceof Error ? error.stack : String(error)}`);
  removeTmpDirs();
  process.exit(1);
});
