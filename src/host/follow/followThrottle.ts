/**
 * A latest-wins throttle for Follow Agent (no vscode import: unit-tested in plain Node). The first item of a
 * burst starts a window; items pushed during it replace the waiting one; when the window ends the latest is
 * delivered. A continuous burst therefore delivers at most one item per window, always the newest.
 */

/** The timer functions the throttle uses (injectable for tests). */
export interface ThrottleTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ThrottleTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Default window of Follow Agent, ms. */
export const followThrottleMs = 150;

/** Delivers the latest pushed item at the end of each window. */
export class LatestWinsThrottle<T> {
  private _latest: { item: T } | undefined;
  private _timer: unknown;

  constructor(private readonly deliver: (item: T) => void, private readonly windowMs = followThrottleMs, private readonly timers: ThrottleTimers = realTimers) {}

  /** True while an item waits for the end of the window. */
  get isWaiting(): boolean {
    return this._latest !== undefined;
  }

  /** Queues `item`, replacing any item still waiting. */
  push(item: T): void {
    this._latest = { item };
    if (this._timer === undefined) this._timer = this.timers.setTimeout(() => this.flush(), this.windowMs);
  }

  /** Drops the waiting item, if any. */
  clear(): void {
    if (this._timer !== undefined) this.timers.clearTimeout(this._timer);
    this._timer = undefined;
    this._latest = undefined;
  }

  private flush(): void {
    this._timer = undefined;
    const latest = this._latest;
    this._latest = undefined;
    if (latest) this.deliver(latest.item);
  }

  /** Same as {@link clear}. */
  dispose(): void {
    this.clear();
  }
}
