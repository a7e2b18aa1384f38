// @ts-check
// Process trees and temporary dirs the harness makes: killing and removing them, and a reaper process that
// does it if the node process that made them dies without cleaning up, even by SIGKILL.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// ------------------------------------------------------------------------------------------------
// process-tree cleanup

/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


/** @returns {Map<number, number[]>} ppid -> child pids, read from /proc */
export function processChildren() {
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
export const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

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
export let reaper;
/** @type {Set<number>} process trees we own (pids) */
const owned = new Set();
/** @type {Set<() => Promise<void>>} async cleanups (servers, browsers) for signal handlers */
export const cleanups = new Set();
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
