/** The outcome of a step that talks to the client, recorded under the step's `as` name. */
export interface StepResult {
  /** `ok` / `error`, a permission optionId or `cancelled`, `exited` / `timeout` for terminals. */
  readonly outcome: string;
  /** Text for templates and echoes: file content, error `code message`, JSON of a result, … */
  readonly text: string;
}

/** A client request started with `wait: false`. */
export interface PendingRequest {
  readonly controller: AbortController;
  readonly promise: Promise<StepResult>;
  readonly echo: boolean;
}

/**
 * Cancellation state of one prompt turn (or hook run): `session/cancel` (or `$/cancel_request`
 * for the prompt, or `session/close`) calls `cancel()`, which interrupts sleeps and streaming
 * and, with `cancelPending`, sends `$/cancel_request` for the turn's in-flight client requests.
 */
export class TurnControl {
  /** Requests started with `wait: false`, by name. */
  readonly pending = new Map<string, PendingRequest>();
  private readonly inflight = new Set<AbortController>();
  private readonly abortController = new AbortController();
  private cancelReason: string | undefined;
  /** Messages steered into the turn (`_session/steering`) that no `awaitSteer` step took yet, and the step waiting. */
  private readonly steers: string[] = [];
  private steerArrived: (() => void) | undefined;

  /** A message steered into this turn. */
  steer(text: string): void {
    this.steers.push(text);
    this.steerArrived?.();
  }

  /** The oldest steered message not taken yet (`steered`), else `timeout` after `timeoutMs` or `cancelled`. */
  async nextSteer(timeoutMs: number): Promise<StepResult> {
    if (!this.steers.length && !this.cancelled) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.steerArrived?.(), timeoutMs);
        const onAbort = (): void => this.steerArrived?.();
        this.signal.addEventListener('abort', onAbort, { once: true });
        this.steerArrived = () => {
          this.steerArrived = undefined;
          clearTimeout(timer);
          this.signal.removeEventListener('abort', onAbort);
          resolve();
        };
      });
    }
    const text = this.steers.shift();
    return text !== undefined ? { outcome: 'steered', text } : { outcome: this.cancelled ? 'cancelled' : 'timeout', text: '' };
  }

  constructor(private readonly cancelPending = false) {}

  /** Whether the turn was cancelled. */
  get cancelled(): boolean {
    return this.cancelReason !== undefined;
  }

  /** What cancelled the turn (`session/cancel`, `$/cancel_request`, `session/close`, …). */
  get reason(): string | undefined {
    return this.cancelReason;
  }

  /** Aborts when the turn is cancelled. */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Cancels the turn (idempotent). */
  cancel(reason: string): void {
    if (this.cancelReason !== undefined) {
      return;
    }
    this.cancelReason = reason;
    this.abortController.abort(new Error(`turn cancelled by ${reason}`));
    if (this.cancelPending) {
      for (const controller of this.inflight) {
        controller.abort();
      }
    }
  }

  /** A controller for one client request; aborting it sends `$/cancel_request`. */
  track(): { controller: AbortController; done: () => void } {
    const controller = new AbortController();
    this.inflight.add(controller);
    return { controller, done: () => this.inflight.delete(controller) };
  }
}

/** Waits `ms` milliseconds, or less if `signal` aborts. Never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
