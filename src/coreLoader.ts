/**
 * Loading Switchboard's core (src/core.ts, its own bundle) once, in two steps: compiling its bundle, then
 * building its services. Either on first use, synchronously (a command, a view, a restored panel, the API), or
 * at idle after activation, one step per task, so that the first New Session picker does not wait for it
 * (docs/performance.md, "Start fast, ship small"). No `vscode` here: src/extension.ts passes the steps in, and
 * the unit tests drive it with fake ones.
 */

/** The two steps of loading the core, and what to do when one throws. */
export interface CoreSteps<M, A> {
  /** Loads the module: the bundle is read and compiled (most of the time a load takes). */
  readonly require: () => M;
  /** Builds the services and registers the real commands: returns the API. */
  readonly activate: (module: M, how: string) => A;
  /** A step threw: say so (once per attempt). The caller of `load` gets the error thrown too. */
  readonly failed: (error: unknown) => void;
}

/** When the extension host counts as idle (whenIdle). */
export interface IdleOptions {
  /** Not before this long after the wait began. */
  readonly afterMs: number;
  /** How often the event loop is sampled. */
  readonly stepMs: number;
  /** A sample this late means the loop was busy (another extension activating, messages from the workbench). */
  readonly lateMs: number;
  /** The loop was on time for this long: idle. */
  readonly quietMs: number;
  /** At the latest this long after the wait began, busy or not. */
  readonly maxMs: number;
}

/** After activation: from 0.3 s on, once the extension host's event loop was on time for 0.2 s; by 5 s at the latest. */
export const coreIdleOptions: IdleOptions = { afterMs: 300, stepMs: 50, lateMs: 25, quietMs: 200, maxMs: 5000 };

/** The clock and timers (fake ones in the unit tests). */
export interface IdleTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: IdleTimers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Runs `run` once the event loop has been idle for `quietMs` (each sample, every `stepMs`, came within `lateMs`
 * of its time), not before `afterMs` and at the latest after `maxMs`. Node has no idle callback: a timer that
 * fires late is the sign that something else held the loop. Returns a function that cancels the wait.
 */
export function whenIdle(run: () => void, o: IdleOptions, timers: IdleTimers = realTimers): () => void {
  const start = timers.now();
  let quietSince = start + o.afterMs;
  let handle: unknown;
  const sample = (due: number) => {
    const now = timers.now();
    if (now - due > o.lateMs) quietSince = now;
    if (now - quietSince >= o.quietMs || now - start >= o.maxMs) {
      handle = undefined;
      run();
      return;
    }
    handle = timers.setTimeout(() => sample(now + o.stepMs), o.stepMs);
  };
  handle = timers.setTimeout(() => sample(start + o.afterMs), o.afterMs);
  return () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
}

/** Loads the core once; `load()` on first use, `loadAtIdle()` after activation. */
export class CoreLoader<M, A> {
  private _module: M | undefined;
  private _api: A | undefined;
  private _requireMs = 0;
  private _cancelIdle: (() => void) | undefined;

  constructor(private readonly steps: CoreSteps<M, A>, private readonly timers: IdleTimers = realTimers) {}

  /** The API, once the core is loaded. */
  get api(): A | undefined {
    return this._api;
  }

  /** The module, once it is loaded (its services may not be built yet). */
  get module(): M | undefined {
    return this._module;
  }

  /**
   * Loads what is left of the core now, synchronously (`how`: for what, for the log); throws what a step threw,
   * after reporting it (`failed`).
   */
  load(how: string): A {
    if (this._api) return this._api;
    this.dispose();
    try {
      const module = this.requireModule();
      this._api = this.steps.activate(module, `${how} (its bundle took ${Math.round(this._requireMs)} ms)`);
      return this._api;
    } catch (error) {
      this.steps.failed(error);
      throw error;
    }
  }

  /**
   * Loads the core once the extension host is idle after activation (whenIdle), one step per task: a use that
   * comes in between finds the stubs in place and loads the rest at once. A failure is reported (`failed`) and
   * not thrown: nothing waits for this load, and the next use tries again.
   */
  loadAtIdle(o: IdleOptions = coreIdleOptions): void {
    if (this._api || this._cancelIdle) return;
    this._cancelIdle = whenIdle(() => {
      this._cancelIdle = undefined;
      try {
        this.requireModule();
      } catch (error) {
        this.steps.failed(error);
        return;
      }
      // the services in a task of their own: a command that came in meanwhile runs first (and loads them)
      const handle = this.timers.setTimeout(() => {
        this._cancelIdle = undefined;
        try { this.load('at idle after activation'); } catch { /* load reported it */ }
      }, 0);
      this._cancelIdle = () => this.timers.clearTimeout(handle);
    }, o, this.timers);
  }

  /** Stops a wait for idle (deactivation, or a use that loads the core at once). */
  dispose(): void {
    this._cancelIdle?.();
    this._cancelIdle = undefined;
  }

  private requireModule(): M {
    if (this._module) return this._module;
    const t0 = this.timers.now();
    this._module = this.steps.require();
    this._requireMs = this.timers.now() - t0;
    return this._module;
  }
}
