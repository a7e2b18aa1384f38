/**
 * The watchdog's logic (it runs as its own small process, `watchdogMain.ts`; the extension host side is
 * `processWatchdog.ts`). The host writes one line per process group it started or lost:
 *
 *     +<pgid> <pid> <startTime or ->
 *     -<pgid>
 *
 * When its stdin closes (the host exited or was killed) or the host's pid is gone, the watchdog ends
 * every group still registered: SIGTERM to the group and the tree below its leader, SIGKILL to what is
 * left after the grace time, then it exits. A group is ended only while it is still the one registered:
 * its leader runs with the registered start time (Linux), or the leader is gone but the group still has
 * members (a group id is not reused while it has members). Never its own group or the host's.
 * See docs/process-lifetime.md.
 */
import type { Readable } from 'node:stream';
import { isProcessAlive, listProcesses, type ProcessInfo, terminateProcessTree } from './processTree';

/** One registered group. */
export interface WatchedGroup {
  readonly pgid: number;
  readonly pid: number;
  readonly startTime: string | undefined;
}

/** Parses one line of the host's protocol; undefined for anything else. */
export function parseWatchdogLine(line: string): { add: WatchedGroup } | { remove: number } | undefined {
  const add = /^\+(\d+) (\d+) (\S+)$/.exec(line.trim());
  if (add) return { add: { pgid: Number(add[1]), pid: Number(add[2]), startTime: add[3] === '-' ? undefined : add[3] } };
  const remove = /^-(\d+)$/.exec(line.trim());
  return remove ? { remove: Number(remove[1]) } : undefined;
}

/** The groups the watchdog may still end, read from the process table now. */
export function groupsToEnd(groups: Iterable<WatchedGroup>, table: readonly ProcessInfo[], protectedGroups: ReadonlySet<number>): WatchedGroup[] {
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const withMembers = new Set(table.map((p) => p.pgid));
  return [...groups].filter((g) => {
    if (g.pgid <= 1 || protectedGroups.has(g.pgid)) return false;
    const leader = byPid.get(g.pid);
    // a running leader with another start time is a later process that reuses the pid: not ours
    if (leader) return g.startTime === undefined || leader.startTime === undefined || leader.startTime === g.startTime;
    return withMembers.has(g.pgid);
  });
}

/** Options of {@link runWatchdog}. */
export interface WatchdogOptions {
  /** The extension host's pid: its death ends the groups too, even if the pipe stays open. */
  readonly hostPid: number;
  /** SIGTERM → SIGKILL grace. Default 800 ms (the whole sequence must fit the 3 s budget). */
  readonly graceMs?: number;
  /** How often the host's pid is checked. Default 1000 ms. */
  readonly pollMs?: number;
}

/**
 * Reads the host's lines from `input` until it closes or the host is gone, then ends the registered
 * groups. Resolves with the pgids it signalled.
 */
export async function runWatchdog(input: Readable, options: WatchdogOptions): Promise<number[]> {
  const groups = new Map<number, WatchedGroup>();
  const table = await listProcesses();
  const self = table.find((p) => p.pid === process.pid);
  const host = table.find((p) => p.pid === options.hostPid);
  const protectedGroups = new Set([process.pid, self?.pgid ?? process.pid, host?.pgid ?? options.hostPid, options.hostPid]);
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    let buffered = '';
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const message = parseWatchdogLine(line);
        if (message && 'add' in message) groups.set(message.add.pgid, message.add);
        else if (message) groups.delete(message.remove);
      }
    });
    input.once('end', resolve);
    input.once('close', resolve);
    input.once('error', () => resolve());
    timer = setInterval(() => {
      if (!isProcessAlive(options.hostPid, host?.startTime)) resolve();
    }, options.pollMs ?? 1000);
  });
  clearInterval(timer);
  input.destroy();
  const targets = groupsToEnd(groups.values(), await listProcesses(), protectedGroups);
  await Promise.all(targets.map((g) => terminateProcessTree(g.pgid, { group: true, graceMs: options.graceMs ?? 800 })));
  return targets.map((g) => g.pgid);
}
