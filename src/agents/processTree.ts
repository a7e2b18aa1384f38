import { execFile } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** One row of the process table. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Process group id. */
  readonly pgid: number;
  /** Linux start time in clock ticks since boot: tells a process from a later one that reuses its pid. */
  readonly startTime?: string;
}

/** Options of {@link terminateProcessTree} and {@link killProcessTree}. */
export interface TerminateProcessTreeOptions {
  /** Time between SIGTERM and SIGKILL. Default 2000 ms. */
  readonly graceMs?: number;
  /** `pid` leads its own process group (spawned `detached`): signal the whole group as well. Default false. */
  readonly group?: boolean;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /**
   * Processes found earlier by {@link snapshotProcessTree}, e.g. before asking the root to exit:
   * children that left the group are found only through their parent, and lose it when it exits.
   * Included while they still run (a reused pid is recognised on Linux and skipped).
   */
  readonly known?: readonly ProcessInfo[];
}

/** What {@link terminateProcessTree} did. */
export interface TerminateProcessTreeResult {
  /** Every pid that was signalled. */
  readonly signalled: readonly number[];
  /** Pids that ignored SIGTERM and got SIGKILL. */
  readonly killed: readonly number[];
  /** Pids still alive at the end (uninterruptible sleep, or no permission). Normally empty. */
  readonly survivors: readonly number[];
}

/** Default time a process tree gets between SIGTERM and SIGKILL. */
export const defaultGraceMs = 2000;
const pollMs = 25;
const killWaitMs = 1000;

/**
 * Ends `pid` and every process below it: SIGTERM to all, then after `graceMs` SIGKILL to whatever is
 * left. The tree is read before the first signal (once a parent dies its children are re-parented and
 * can no longer be found), from the process group when `group` is set and through parent links, so
 * children that left the group with setsid are found too. POSIX reads /proc (Linux) or `ps`; Windows
 * runs `taskkill /pid <pid> /T /F`, which has no graceful step for console programs. Always resolves,
 * after at most about `graceMs` + 1 s.
 */
export async function terminateProcessTree(pid: number, options: TerminateProcessTreeOptions = {}): Promise<TerminateProcessTreeResult> {
  return endTree(pid, options, Math.max(0, options.graceMs ?? defaultGraceMs));
}

/**
 * The processes of the tree below `pid` (and of its process group with `group`), read now: pass it as
 * `known` to a later {@link terminateProcessTree} so children that escape through a dying parent are
 * still found.
 */
export async function snapshotProcessTree(pid: number, options: Pick<TerminateProcessTreeOptions, 'group' | 'platform'> = {}): Promise<ProcessInfo[]> {
  if ((options.platform ?? process.platform) === 'win32' || pid <= 1) return [];
  return collectTree(await listProcesses(), [pid], options.group ? pid : undefined);
}

/** Ends `pid` and every process below it with SIGKILL at once (`taskkill /T /F` on Windows). Always resolves. */
export async function killProcessTree(pid: number, options: Omit<TerminateProcessTreeOptions, 'graceMs'> = {}): Promise<TerminateProcessTreeResult> {
  return endTree(pid, options, undefined);
}

async function endTree(pid: number, options: TerminateProcessTreeOptions, graceMs: number | undefined): Promise<TerminateProcessTreeResult> {
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) return { signalled: [], killed: [], survivors: [] };
  if ((options.platform ?? process.platform) === 'win32') return taskkill(pid);

  const table = await listProcesses();
  // never signal our own process group, whatever the caller believes pid leads
  const group = (options.group ?? false) && table.find((p) => p.pid === process.pid)?.pgid !== pid;
  const current = new Map(table.map((p) => [p.pid, p]));
  const known = (options.known ?? []).filter((k) => {
    const now = current.get(k.pid);
    return now !== undefined && (k.startTime === undefined || now.startTime === k.startTime);
  });
  let targets = collectTree(table, [pid, ...known.map((k) => k.pid)], group ? pid : undefined);
  if (targets.every((t) => t.pid === pid) && !isProcessAlive(pid)) return { signalled: [], killed: [], survivors: [] };
  const signalled = new Set(targets.map((t) => t.pid));
  if (graceMs !== undefined) {
    signalAll(targets, group ? pid : undefined, 'SIGTERM');
    targets = await waitForExit(targets, graceMs);
    if (targets.length === 0) return { signalled: [...signalled], killed: [], survivors: [] };
    // look again: survivors may have started new children meanwhile
    const again = collectTree(await listProcesses(), targets.map((t) => t.pid), group ? pid : undefined);
    targets = mergeTargets(targets, again);
  }
  targets.forEach((t) => signalled.add(t.pid));
  const killed = targets.map((t) => t.pid);
  signalAll(targets, group ? pid : undefined, 'SIGKILL');
  const survivors = await waitForExit(targets, killWaitMs);
  return { signalled: [...signalled], killed, survivors: survivors.map((t) => t.pid) };
}

/**
 * The processes of a tree: every process whose parent chain reaches one of `roots`, the roots
 * themselves, and (when `pgid` is given) the members of that process group and their descendants.
 * Never includes this process, its ancestors or pid 1.
 */
export function collectTree(processes: readonly ProcessInfo[], roots: readonly number[], pgid?: number): ProcessInfo[] {
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const children = new Map<number, ProcessInfo[]>();
  for (const p of processes) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const protectedPids = new Set<number>([0, 1]);
  for (let p = byPid.get(process.pid); p && !protectedPids.has(p.pid); p = byPid.get(p.ppid)) protectedPids.add(p.pid);
  protectedPids.add(process.pid);

  const found = new Map<number, ProcessInfo>();
  const queue: ProcessInfo[] = roots.map((pid) => byPid.get(pid) ?? { pid, ppid: -1, pgid: -1 });
  if (pgid !== undefined) queue.push(...processes.filter((p) => p.pgid === pgid));
  while (queue.length > 0) {
    const p = queue.shift();
    if (!p || found.has(p.pid) || protectedPids.has(p.pid)) continue;
    found.set(p.pid, p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return [...found.values()];
}

function mergeTargets(a: readonly ProcessInfo[], b: readonly ProcessInfo[]): ProcessInfo[] {
  const out = new Map(a.map((p) => [p.pid, p]));
  for (const p of b) if (!out.has(p.pid)) out.set(p.pid, p);
  return [...out.values()];
}

function signalAll(targets: readonly ProcessInfo[], pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid !== undefined) trySignal(-pgid, signal);
  for (const t of targets) if (isProcessAlive(t.pid, t.startTime)) trySignal(t.pid, signal);
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone; EPERM: not ours to kill
  }
}

async function waitForExit(targets: readonly ProcessInfo[], timeoutMs: number): Promise<ProcessInfo[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = targets.filter((t) => isProcessAlive(t.pid, t.startTime));
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, deadline - Date.now()))));
    alive = alive.filter((t) => isProcessAlive(t.pid, t.startTime));
  }
  return alive;
}

/** Parses one `/proc/<pid>/stat` line (the command name may contain spaces and parentheses). */
export function parseProcStat(text: string): (ProcessInfo & { readonly state: string }) | undefined {
  const close = text.lastIndexOf(')');
  const open = text.indexOf('(');
  if (open === -1 || close === -1) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const pid = Number(text.slice(0, open).trim());
  // fields after "(comm)": state(3) ppid(4) pgrp(5) … starttime(22)
  return { pid, state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: fields[19] };
}

/**
 * True while `pid` runs. On Linux a zombie counts as gone (an orphan may wait long to be reaped when
 * pid 1 is not a real init), and a `startTime` that differs means the pid was reused.
 */
export function isProcessAlive(pid: number, startTime?: string): boolean {
  if (process.platform === 'linux') {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return false;
    }
    const stat = parseProcStat(text);
    if (!stat) return false;
    return stat.state !== 'Z' && stat.state !== 'X' && (startTime === undefined || stat.startTime === startTime);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (ex) {
    return (ex as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The start time of `pid` (Linux, from /proc; undefined elsewhere or when it is gone). */
export function processStartTime(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.startTime;
  } catch {
    return undefined;
  }
}

/** Reads the process table: /proc on Linux, `ps` elsewhere on POSIX; empty when neither works. */
export async function listProcesses(): Promise<ProcessInfo[]> {
  if (process.platform === 'linux') {
    try {
      const names = await fsp.readdir('/proc');
      const rows = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map(async (n) => {
        try {
          return parseProcStat(await fsp.readFile(`/proc/${n}/stat`, 'utf8'));
        } catch {
          return undefined; // exited while we were reading
        }
      }));
      return rows.filter((r): r is ProcessInfo & { state: string } => r !== undefined && r.state !== 'Z' && r.state !== 'X');
    } catch {
      // no /proc (unusual container): fall through to ps
    }
  }
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { timeout: 2000 }, (error, stdout) => {
      if (error) return resolve([]);
      const rows: ProcessInfo[] = [];
      for (const line of stdout.split('\n')) {
        const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
        if (pid && !stat?.startsWith('Z')) rows.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid) });
      }
      resolve(rows);
    });
  });
}

function taskkill(pid: number): Promise<TerminateProcessTreeResult> {
  const exe = path.win32.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'taskkill.exe');
  return new Promise((resolve) => {
    execFile(exe, ['/pid', String(pid), '/T', '/F'], { timeout: 5000, windowsHide: true }, () => {
      resolve({ signalled: [pid], killed: [pid], survivors: isProcessAlive(pid) ? [pid] : [] });
    });
  });
}
