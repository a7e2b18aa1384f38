#!/usr/bin/env node
// @ts-check
// First permission card benchmark, part of `npm run bench` (docs/performance.md "The first permission card"): how
// long the user waits for the FIRST permission card of a window, against a later card of the same window, in the
// real workbench (code-server + Chromium, the production bundles staged as the .vsix installs them, 1400×900, the
// chat in an editor tab). A card offers rules, which needs the shell parser (dist/shellParser.js); the first turn
// takes the folder's first checkpoint. Both are warmed a second after a session opens (src/core.ts).
//
// Every window is fresh (a new code-server, a new browser): New Session with a scripted agent once the window
// settled (--settle-ms); the user types for --typing-ms once the chat is ready, then "first" + Enter: the agent
// starts a tool call (`printf first-card`) and asks at once. The clock runs in the chat's frame (an init script,
// not polling over CDP) from the Enter key until the card's dialog is painted (a task after the frame that drew
// it). The card is answered, the turn ends, and "second" does the same: a later card (the baseline, same window).
//   typed (--rounds windows): target, first card's median − later card's <= 50 ms; sent at once (--hurried): none.
// The target counts the whole wait, the checkpoint before the turn included; the figures less the logged
// checkpoints are printed too. The agent runs behind a pass-through that stamps every ACP line (the page's clock),
// so Enter → the agent has the prompt and the agent asks → the card painted are told apart.
//
//   node test/bench/firstCardBench.mjs [--version 1.139.1] [--rounds 5] [--hurried 3] [--typing-ms 1500]
//        [--settle-ms 3000] [--against DIR] [--dev] [--setting key=json ...] [--json out.json]
//
// --against DIR: also measures the checkout in DIR (with its node_modules), window by window in alternation, for a
// before/after in one run; --dev runs each checkout's dist/. The agent is this checkout's (esbuild.mjs --tests).
// --setting key=json adds a user setting (e.g. switchboard.checkpoints.enabled=false). Run it alone: every figure
// is a wall-clock time. Exit code 1 when the target is missed or the run failed.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EXTENSION_ROOT, KNOWN_VERSIONS, ensureInstalled, makeTmp, removeTmpDirs, runPaletteCommand, sleep } from '../harness/harness.mjs';
import { openBenchWindow } from './benchWindow.mjs';
import { median } from './e2e/report.mjs';

const SELF = fileURLToPath(import.meta.url);
/** Set in the agent's environment: this script is then the pass-through in front of the scripted agent. */
const SHIM_LOG = 'FIRST_CARD_AGENT_LOG';
const shim = !!process.env[SHIM_LOG];

const { values } = parseArgs({
  args: shim ? [] : process.argv.slice(2),
  options: {
    version: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    hurried: { type: 'string', default: '3' },
    'typing-ms': { type: 'string', default: '1500' },
    'settle-ms': { type: 'string', default: '3000' },
    against: { type: 'string' },
    dev: { type: 'boolean', default: false },
    setting: { type: 'string', multiple: true },
    json: { type: 'string' },
  },
});
const version = values.version ?? KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1];
const typingMs = Number(values['typing-ms']);
const settleMs = Number(values['settle-ms']);
const targetMs = 50;
/** --setting key=json */
const extraSettings = Object.fromEntries((values.setting ?? []).map((kv) => {
  const i = kv.indexOf('=');
  const raw = kv.slice(i + 1);
  let value;
  try { value = JSON.parse(raw); } catch { value = raw; }
  return [kv.slice(0, i), value];
}));
const AGENT = 'First card bench agent';
/** The two prompts: each one's tool call and command. */
const CARDS = /** @type {const} */ ({ first: { id: 'tc-first-card', command: 'printf first-card' }, second: { id: 'tc-second-card', command: 'printf second-card' } });

/** @param {string} s */
const say = (s) => process.stderr.write(`  … ${s}\n`);

/** The scenario: "first" and "second", each a tool call that asks for permission at once, then a line of text. */
function scenario() {
  const options = [
    { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
    { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  ];
  const turn = (/** @type {keyof typeof CARDS} */ name) => ({
    match: `^${name}$`,
    steps: [
      { step: 'toolCall', toolCallId: CARDS[name].id, title: `Run ${CARDS[name].command}`, kind: 'execute', status: 'pending', rawInput: { command: CARDS[name].command } },
      { step: 'permission', as: name, toolCall: { toolCallId: CARDS[name].id }, options },
      { step: 'text', text: `Done with ${name}.` },
    ],
  });
  return { name: 'firstCardBench', description: 'two prompts, each a tool call that asks for permission (first permission card benchmark)', turns: [turn('first'), turn('second')] };
}

/**
 * The agent's pass-through (this script, run by the extension host with FIRST_CARD_AGENT_LOG set): runs the
 * scripted agent with the same arguments, passes its stdin and stdout through unchanged, and appends one line per
 * ACP message to the log: when it passed (Date.now()), which way (in: to the agent), and what it was.
 */
function agentShim() {
  const log = /** @type {string} */ (process.env[SHIM_LOG]);
  const child = spawn(process.execPath, [path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'), ...process.argv.slice(2)], { stdio: ['pipe', 'pipe', 'inherit'] });
  /** the requests of each side, by id, to name the answers */
  const asked = { in: new Map(), out: new Map() };
  /** @param {'in' | 'out'} dir */
  const splitter = (dir) => {
    let carry = '';
    return (/** @type {Buffer} */ chunk) => {
      const t = Date.now();
      const lines = (carry + chunk.toString('utf8')).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        /** @type {any} */ let m;
        try { m = JSON.parse(line); } catch { continue; }
        const id = m.id === undefined ? undefined : JSON.stringify(m.id);
        /** @type {Record<string, unknown>} */
        const rec = { t, dir };
        if (typeof m.method === 'string') {
          rec.method = m.method;
          if (id !== undefined) asked[dir].set(id, m.method);
          const u = m.params?.update;
          if (u) Object.assign(rec, { update: u.sessionUpdate, toolCallId: u.toolCallId });
          if (m.params?.toolCall?.toolCallId) rec.toolCallId = m.params.toolCall.toolCallId;
        } else if (id !== undefined) {
          const other = dir === 'in' ? 'out' : 'in';
          rec.method = `answer:${asked[other].get(id) ?? '?'}`;
          asked[other].delete(id);
        }
        fs.appendFileSync(log, `${JSON.stringify(rec)}\n`);
      }
    };
  };
  const toAgent = splitter('in');
  const fromAgent = splitter('out');
  process.stdin.on('data', (chunk) => { child.stdin.write(chunk); toAgent(chunk); });
  process.stdin.on('end', () => child.stdin.end());
  child.stdout.on('data', (chunk) => { process.stdout.write(chunk); fromAgent(chunk); });
  child.stdin.on('error', () => {});
  process.stdout.on('error', () => {});
  child.on('exit', (code) => process.exit(code ?? 1));
  for (const sig of /** @type {NodeJS.Signals[]} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.on(sig, () => { child.kill(sig); process.exit(0); });
}

/**
 * Runs in every frame from its creation (an init script). In a chat's frame (a webview's content frame) it records,
 * once `__firstCard.expect` names a tool call: the Enter key in the composer (a capture listener, before the chat
 * handles it), and when the new prompt, the tool call's card and the card's permission dialog were first painted.
 * "Painted": a change is seen by a MutationObserver; the frame that paints it is the one whose callbacks made it
 * (the page's frame callbacks are wrapped, their changes taken right after them), or else the next one; a task
 * posted from that frame runs after its paint. Times are ms since the epoch (performance.timeOrigin + now()).
 */
function cardProbe() {
  if (window === window.top || window.parent === window.top) return;
  /** @type {{ chat: boolean, expect: string, users: number, enter: number, user: number, tool: number, card: number }} */
  const state = { chat: false, expect: '', users: 0, enter: 0, user: 0, tool: 0, card: 0 };
  Object.assign(globalThis, { __firstCard: state });
  const now = () => performance.timeOrigin + performance.now();
  /** @type {MutationObserver | undefined} */
  let observer;
  const nativeFrame = window.requestAnimationFrame.bind(window);
  /** @param {'user' | 'tool' | 'card'} key @param {boolean} inFrame */
  const stampAfterPaint = (key, inFrame) => {
    state[key] = -1;
    const stamp = () => { setTimeout(() => { state[key] = now(); }, 0); };
    if (inFrame) stamp(); else nativeFrame(stamp);
  };
  /** @param {boolean} inFrame */
  const check = (inFrame) => {
    if (!state.enter || !state.expect) return;
    if (!state.user && document.querySelectorAll('[data-testid="user-message"]').length > state.users) stampAfterPaint('user', inFrame);
    const tool = document.querySelector(`[data-testid="tool-call"][data-tool-call-id="${state.expect}"]`);
    if (!state.tool && tool) stampAfterPaint('tool', inFrame);
    if (!state.card && tool?.querySelector('[data-testid="permission"]')) stampAfterPaint('card', inFrame);
  };
  window.requestAnimationFrame = (callback) => nativeFrame((t) => {
    try { callback(t); } finally { if (observer && observer.takeRecords().length) check(true); }
  });
  const watch = () => {
    state.chat = true;
    observer = new MutationObserver(() => check(false));
    observer.observe(document.documentElement, { childList: true, subtree: true });
    document.addEventListener('keydown', (e) => {
      const t = /** @type {Element | null} */ (e.target);
      if (e.key === 'Enter' && !e.shiftKey && state.expect && !state.enter && t?.closest?.('[data-testid="composer-input"]')) state.enter = now();
    }, true);
  };
  // the webview host writes the chat into this frame with document.open(), which drops earlier listeners and
  // observers: they are installed once the chat is there
  const started = Date.now();
  const poll = setInterval(() => {
    const chat = !!document.getElementById('transcript') && !!document.querySelector('[data-testid="composer-input"]');
    if (chat) watch();
    if (chat || Date.now() - started > 30_000) clearInterval(poll);
  }, 20);
}

/** The content frame of the chat. @param {import('playwright-core').Page} page */
async function chatFrame(page, timeoutMs = 60_000) {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
    for (const f of page.frames()) {
      if (f.isDetached()) continue;
      if (await f.evaluate(() => /** @type {any} */ (globalThis).__firstCard?.chat === true).catch(() => false)) return f;
    }
  }
  throw new Error(`no chat appeared within ${timeoutMs} ms`);
}

/** The text of the logs in a window's user data (Switchboard's output channel is one of them). @param {string} userData */
function windowLogs(userData) {
  const dir = path.join(userData, 'logs');
  if (!fs.existsSync(dir)) return '';
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.log'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

/** The production build of the checkout at `root`, staged as the .vsix installs it (scripts/package.mjs). @param {string} root */
function stage(root) {
  const dir = makeTmp('sb-firstcard-ext-');
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) if (fs.existsSync(path.join(root, f))) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  fs.cpSync(path.join(root, 'media'), path.join(dir, 'media'), { recursive: true });
  execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production', '--outdir', path.join(dir, 'dist')], { cwd: root, stdio: 'ignore' });
  return dir;
}

/** The checkout's commit, and whether its src/ or webview/ differ from it. @param {string} root */
function describe(root) {
  try {
    const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', 'src', 'webview'], { encoding: 'utf8' }).trim();
    return `${head}${dirty ? ' + uncommitted changes in src/ or webview/' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}

/**
 * @typedef {{ enterToCard: number, enterToUser: number, enterToTool: number, enterToPrompt: number, askToCard: number,
 *   toolToCard: number, openToAsk: number, checkpoint: number }} Card
 * @typedef {{ typingMs: number, first: Card, later: Card }} Window
 */

/**
 * One fresh window: New Session once the window settled, then the two prompts, each sent `typing` ms after the
 * chat is ready; resolves with each card's times.
 * @param {string} extRoot the extension to load
 * @param {string} scenarioFile
 * @param {number} typing
 * @returns {Promise<Window>}
 */
async function oneWindow(extRoot, scenarioFile, typing) {
  const files = makeTmp('sb-firstcard-');
  const agentLog = path.join(files, 'agent.jsonl');
  const settings = {
    'switchboard.agents': [{
      id: 'first-card-bench', name: AGENT, command: process.execPath, args: [SELF, scenarioFile],
      env: { SCRIPTED_AGENT_DELAY_SCALE: '0', [SHIM_LOG]: agentLog, SWITCHBOARD_EXTENSION_ROOT: EXTENSION_ROOT },
    }],
    ...extraSettings,
  };
  const w = await openBenchWindow({ version, settings, root: extRoot, viewport: { width: 1400, height: 900 }, init: cardProbe, initArg: undefined, tmpPrefix: 'sb-firstcard-win-' });
  const page = w.page;
  try {
    await sleep(settleMs); // the window settles after activation
    for (let attempt = 1; ; attempt++) {
      await runPaletteCommand(page, 'ACP: New Session…');
      try {
        await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().waitFor({ timeout: 15_000 });
        await page.locator('.quick-input-widget input').fill(AGENT, { timeout: 5000 });
        await page.keyboard.press('Enter');
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    const frame = await chatFrame(page);
    const idle = frame.locator('[data-testid="session-status"][data-status="idle"]');
    /** @param {keyof typeof CARDS} name */
    const prompt = async (name) => {
      await idle.waitFor({ timeout: 60_000 });
      const ready = Date.now();
      await frame.evaluate((id) => {
        Object.assign(/** @type {any} */ (globalThis).__firstCard, { expect: id, users: document.querySelectorAll('[data-testid="user-message"]').length, enter: 0, user: 0, tool: 0, card: 0 });
      }, CARDS[name].id);
      await frame.locator('[data-testid="composer-input"]').click();
      await page.keyboard.type(name);
      await sleep(ready + typing - Date.now());
      await page.keyboard.press('Enter');
      /** @type {{ enter: number, user: number, tool: number, card: number }} */
      let s = { enter: 0, user: 0, tool: 0, card: 0 };
      for (const end = Date.now() + 60_000; !(s.card > 0) && Date.now() < end; await sleep(50)) {
        s = await frame.evaluate(() => ({ .../** @type {any} */ (globalThis).__firstCard }));
      }
      if (!(s.card > 0) || !s.enter) throw new Error(`"${name}": the permission card was not painted within 60 s of Enter (${JSON.stringify(s)})`);
      // a card takes no click until it is armed (webview/views/permissionGuard.ts)
      const dialog = frame.locator(`[data-testid="tool-call"][data-tool-call-id="${CARDS[name].id}"] [data-testid="permission"][data-armed="true"]`);
      await dialog.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
      await frame.locator('[data-testid="agent-message"]', { hasText: `Done with ${name}.` }).waitFor({ timeout: 30_000 });
      await idle.waitFor({ timeout: 30_000 });
      return s;
    };
    const first = await prompt('first');
    await sleep(1500); // the transcript store writes; the workbench settles
    const later = await prompt('second');
    // the agent's side, from its pass-through's log
    /** @type {{ t: number, dir: 'in' | 'out', method?: string, update?: string, toolCallId?: string }[]} */
    const log = fs.readFileSync(agentLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const opened = log.find((l) => l.dir === 'out' && l.method === 'answer:session/new')?.t ?? NaN;
    const prompts = log.filter((l) => l.dir === 'in' && l.method === 'session/prompt').map((l) => l.t);
    const asks = log.filter((l) => l.dir === 'out' && l.method === 'session/request_permission').map((l) => l.t);
    // the checkpoint before each turn, as Switchboard's log says (src/host/files/turnCheckpoints.ts)
    const checkpoints = [...windowLogs(w.server.dirs.userData).matchAll(/checkpoints: \S+ before \S+ in (\d+) ms/g)].map((m) => Number(m[1]));
    /** @param {typeof first} s @param {number} k @returns {Card} */
    const card = (s, k) => ({
      enterToCard: s.card - s.enter, enterToUser: s.user > 0 ? s.user - s.enter : NaN, enterToTool: s.tool > 0 ? s.tool - s.enter : NaN,
      enterToPrompt: (prompts[k] ?? NaN) - s.enter, askToCard: s.card - (asks[k] ?? NaN), toolToCard: s.tool > 0 ? s.card - s.tool : NaN,
      openToAsk: (asks[k] ?? NaN) - opened, checkpoint: checkpoints[k] ?? NaN,
    });
    return { typingMs: typing, first: card(first, 0), later: card(later, 1) };
  } finally {
    await w.close();
  }
}

async function main() {
  ensureInstalled(version);
  if (!fs.existsSync(path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'))) throw new Error('out/test/fixtures/agents/scriptedAgent.js is missing: node esbuild.mjs --tests');
  const load = os.loadavg();
  const tmp = makeTmp('sb-firstcard-scenario-');
  const scenarioFile = path.join(tmp, 'firstCard.json');
  fs.writeFileSync(scenarioFile, JSON.stringify(scenario()));
  const against = values.against && path.resolve(values.against);
  const roots = [EXTENSION_ROOT, ...(against ? [against] : [])];
  /** @type {{ root: string, label: string, ext: string, windows: Window[] }[]} */
  const subjects = roots.map((root) => {
    if (!values.dev) say(`staging the production build of ${root}`);
    return { root, label: describe(root), ext: values.dev ? root : stage(root), windows: [] };
  });
  // typed and hurried windows alternate (and so do the subjects), so that a change of the machine's load over the
  // run falls on all of them
  /** @type {number[]} */
  const plan = [];
  for (let i = 0; i < Math.max(Number(values.rounds), Number(values.hurried)); i++) {
    if (i < Number(values.rounds)) plan.push(typingMs);
    if (i < Number(values.hurried)) plan.push(0);
  }
  const started = Date.now();
  for (const [i, typing] of plan.entries()) {
    for (const subject of subjects) {
      say(`window ${i + 1} of ${plan.length}: typed for ${typing} ms${against ? `, ${subject.root === against ? against : 'this checkout'}` : ''}`);
      const w = await oneWindow(subject.ext, scenarioFile, typing);
      say(`  first card ${Math.round(w.first.enterToCard)} ms (the agent asked ${Math.round(w.first.openToAsk)} ms after the session opened), later card ${Math.round(w.later.enterToCard)} ms`);
      subject.windows.push(w);
    }
  }
  return { load, loadAfter: os.loadavg(), subjects, seconds: (Date.now() - started) / 1000, windows: plan.length * subjects.length };
}

if (shim) {
  agentShim();
} else {
  main().then(({ load, loadAfter, subjects, seconds, windows }) => {
    const ms = (/** @type {number} */ x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a');
    const figure = (/** @type {number[]} */ xs) => (xs.length ? `median ${ms(median(xs)).padStart(7)}, ${ms(Math.min(...xs))}–${ms(Math.max(...xs))} (${xs.map((x) => Math.round(x)).join(', ')})` : 'n/a');
    /** @param {Window[]} ws @param {number} typing @param {'first' | 'later'} which @param {keyof Card} key */
    const of = (ws, typing, which, key) => ws.filter((w) => w.typingMs === typing).map((w) => w[which][key]).filter(Number.isFinite);
    const series = [typingMs, ...(Number(values.hurried) > 0 ? [0] : [])];
    let ok = true;
    console.log(`Benchmark: the first permission card of a fresh window (VS Code ${version}, code-server + Chromium, 1400×900, ${values.dev ? 'dist/' : 'production build'}${values.setting?.length ? `, ${values.setting.join(', ')}` : ''}, ${windows} fresh windows, ${seconds.toFixed(0)} s; load average ${load.map((x) => x.toFixed(2)).join(' ')} → ${loadAfter.map((x) => x.toFixed(2)).join(' ')})`);
    console.log('  Enter on a prompt → the permission card painted in the chat (the agent asks at once; the card offers rules: the shell parser)');
    for (const [k, subject] of subjects.entries()) {
      if (k > 0) console.log(`  measured in the same run, in alternation: ${subject.root} (${subject.label})`);
      else console.log(`  this checkout (${subject.label})`);
      for (const typing of series) {
        const first = of(subject.windows, typing, 'first', 'enterToCard');
        const later = of(subject.windows, typing, 'later', 'enterToCard');
        if (!first.length) continue;
        const diff = median(first) - median(later);
        const held = k === 0 && typing === typingMs;
        if (held) ok &&= diff <= targetMs;
        console.log(`    ${typing ? `typed for ${typing / 1000} s` : 'sent at once'}: first card of the window  ${figure(first)}`);
        console.log(`    ${' '.repeat(typing ? `typed for ${typing / 1000} s`.length : 'sent at once'.length)}  a later card (baseline)  ${figure(later)}`);
        console.log(`      first − later = ${ms(diff)}, first / later = ${(median(first) / median(later)).toFixed(2)}x${held ? `   target first − later <= ${targetMs} ms: ${diff <= targetMs ? 'met' : 'MISSED'}` : ''}`);
        const part = (/** @type {keyof Card} */ key) => `${ms(median(of(subject.windows, typing, 'first', key)))} (later ${ms(median(of(subject.windows, typing, 'later', key)))})`;
        const less = (/** @type {'first' | 'later'} */ which) => subject.windows.filter((w) => w.typingMs === typing).map((w) => w[which].enterToCard - w[which].checkpoint).filter(Number.isFinite);
        if (less('first').length) console.log(`      less the checkpoint before each turn (as Switchboard logs it): first ${ms(median(less('first')))}, later ${ms(median(less('later')))}, first − later = ${ms(median(less('first')) - median(less('later')))}`);
        console.log(`      where it goes, first card (later card): Enter → the agent has the prompt ${part('enterToPrompt')}; the agent asks → the card painted ${part('askToCard')}; the tool call's card painted → the permission card painted ${part('toolToCard')}; the checkpoint before the turn ${part('checkpoint')}; the agent asked ${ms(median(of(subject.windows, typing, 'first', 'openToAsk')))} after it opened the session (the warm-up starts 1 s after it)`);
      }
    }
    if (subjects.length > 1) {
      const [a, b] = subjects;
      const m = (/** @type {typeof a} */ s, /** @type {number} */ typing) => median(of(s.windows, typing, 'first', 'enterToCard'));
      console.log(`  the first card, this checkout vs ${b.root}: ${series.map((t) => `${t ? `typed ${t / 1000} s` : 'sent at once'} ${ms(m(a, t))} vs ${ms(m(b, t))} (${ms(m(a, t) - m(b, t))})`).join('; ')}`);
    }
    if (values.json) fs.writeFileSync(values.json, JSON.stringify({ version, typingMs, settleMs, settings: extraSettings, load, loadAfter, subjects: subjects.map(({ root, label, windows: ws }) => ({ root, label, windows: ws })), targetMs, met: ok }, null, 2));
    removeTmpDirs();
    process.exit(ok ? 0 : 1);
  }, (error) => {
    console.error(`FAIL the first permission card benchmark did not run: ${error instanceof Error ? error.stack : String(error)}`);
    removeTmpDirs();
    process.exit(1);
  });
}
