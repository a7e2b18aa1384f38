/** Options of a {@link RestartPolicy}. */
export interface RestartPolicyOptions {
  /** Automatic restarts allowed within {@link windowMs}. Default 3. */
  readonly maxRestarts?: number;
  /** Sliding window. Default 3 minutes. */
  readonly windowMs?: number;
  /** Clock, injectable for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** What to do after a crash. */
export type RestartDecision =
  /** Restart; `attempt` counts the restarts within the window, this one included (1-based). */
  | { readonly restart: true; readonly attempt: number }
  /** Give up; `reason` is a user-facing sentence to show with the last stderr lines. */
  | { readonly restart: false; readonly reason: string };

/** Default automatic restarts per window (LSP's DefaultErrorHandler allows 4 in 3 minutes). */
export const defaultMaxRestarts = 3;
/** Default restart window. */
export const defaultRestartWindowMs = 3 * 60 * 1000;

/**
 * Decides whether a crashed agent is restarted automatically, like vscode-languageclient's
 * `DefaultErrorHandler`: at most `maxRestarts` restarts within a sliding `windowMs`, then stop, so a
 * broken install or a missing login does not loop. The host calls {@link record} for every
 * unexpected exit and asks {@link shouldRestart}; exits it requested itself are not recorded.
 */
export class RestartPolicy {
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private crashes: number[] = [];

  constructor(options: RestartPolicyOptions = {}) {
    this.maxRestarts = Math.max(0, Math.floor(options.maxRestarts ?? defaultMaxRestarts));
    this.windowMs = Math.max(0, options.windowMs ?? defaultRestartWindowMs);
    this.now = options.now ?? Date.now;
  }

  /** Crashes recorded within the window. */
  get crashCount(): number {
    this.prune();
    return this.crashes.length;
  }

  /** Records an unexpected exit now. */
  record(): void {
    this.prune();
    this.crashes.push(this.now());
  }

  /** Whether the agent may be restarted after the crashes recorded so far. */
  shouldRestart(): RestartDecision {
    this.prune();
    const count = this.crashes.length;
    if (count <= this.maxRestarts) return { restart: true, attempt: Math.max(1, count) };
    return {
      restart: false,
      reason: `it crashed ${count} times within ${describeDuration(this.windowMs)}, so it is not restarted automatically (limit: ${this.maxRestarts} restarts); fix the cause shown in its log, then start it again`,
    };
  }

  /** Forgets all crashes (after the user restarts the agent by hand, or changes its settings). */
  reset(): void {
    this.crashes = [];
  }

  private prune(): void {
    const since = this.now() - this.windowMs;
    this.crashes = this.crashes.filter((t) => t > since);
  }
}

function describeDuration(ms: number): string {
  if (ms % 60000 === 0 && ms >= 60000) return ms === 60000 ? '1 minute' : `${ms / 60000} minutes`;
  if (ms % 1000 === 0 && ms >= 1000) return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
