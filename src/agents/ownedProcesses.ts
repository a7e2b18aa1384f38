/**
 * The process groups this extension host started (agents and `terminal/*` commands) and that may still
 * run. Each {@link AgentProcess} and {@link TerminalProcess} adds itself once spawned and removes itself
 * once its group is gone, so that:
 * - shutting the window down can end them all quickly ({@link OwnedProcesses.stopAll}), and
 * - a watchdog that outlives the extension host can end them when the host dies first (an observer,
 *   see `processWatchdog.ts`).
 * One registry per process: the children of this process are a fact about the process, whatever owns
 * them. See docs/process-lifetime.md.
 */

/**
 * The grace of each polite step when the window closes: stdin EOF, wait, SIGTERM, wait, SIGKILL (and up to
 * 1 s for SIGKILL to take) stays within the 3 s budget of docs/process-lifetime.md, also
 * on a loaded machine where timers and process-table reads run late (measured: 2.3 s with 500 ms).
 */
export const shutdownGraceMs = 400;

/** A process group started by this process (spawned `detached`: its leader's pid is the group id). */
export interface OwnedProcessGroup {
  /** The group id, which is the leader's pid. */
  readonly pgid: number;
  /** The leader's start time (Linux clock ticks since boot): tells it from a later process that reuses the pid. */
  readonly startTime: string | undefined;
  /** What it is, for logs: `agent` or `terminal`. */
  readonly kind: 'agent' | 'terminal';
  /** Ends the group's processes with `graceMs` for each polite step; resolves when they are gone. */
  stop(graceMs: number): Promise<void>;
}

/** Told about every group added and removed. */
export interface OwnedProcessObserver {
  added(group: OwnedProcessGroup): void;
  removed(pgid: number): void;
}

/** A registry of running process groups. */
export class OwnedProcesses {
  private readonly groups = new Map<number, OwnedProcessGroup>();
  private readonly observers = new Set<OwnedProcessObserver>();

  /** The groups registered now. */
  get all(): readonly OwnedProcessGroup[] {
    return [...this.groups.values()];
  }

  /** True while a group with this id is registered. */
  has(pgid: number): boolean {
    return this.groups.has(pgid);
  }

  /** Registers a running group. */
  add(group: OwnedProcessGroup): void {
    this.groups.set(group.pgid, group);
    for (const o of this.observers) o.added(group);
  }

  /** Unregisters a group that is gone (only the same object: a reused id registered since stays). */
  remove(group: OwnedProcessGroup): void {
    if (this.groups.get(group.pgid) !== group) return;
    this.groups.delete(group.pgid);
    for (const o of this.observers) o.removed(group.pgid);
  }

  /** Tells `observer` about every group registered now and every later change, until disposed. */
  observe(observer: OwnedProcessObserver): { dispose(): void } {
    this.observers.add(observer);
    for (const g of this.groups.values()) observer.added(g);
    return { dispose: () => this.observers.delete(observer) };
  }

  /** Stops every registered group at once, each with `graceMs` per step; resolves when all are done. */
  async stopAll(graceMs: number): Promise<void> {
    await Promise.all(this.all.map((g) => g.stop(graceMs).catch(() => undefined)));
  }
}

/** The process groups of this process. */
export const ownedProcesses = new OwnedProcesses();
