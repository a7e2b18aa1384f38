/**
 * TurnEnd: a prompt turn always ends, even when the agent ignores `session/cancel`
 * (docs/errors-and-cancellation.md#a-turn-always-ends). After Stop the client waits {@link cancelGraceMs} for the agent's
 * `stopReason: "cancelled"` (https://agentclientprotocol.com/protocol/prompt-turn#cancellation); then, or at
 * once on a second Stop, the turn is abandoned: its request is no longer awaited, and the answer that comes
 * late is logged and ignored. Updates of the abandoned turn that arrive late are filtered by
 * {@link TurnEnd.dropsUpdate}. No vscode import: unit-tested in plain node.
 */
import type { SessionUpdate } from '../../acp/schema/types.gen';
import type { AcpThread } from '../../thread/model/thread';
import { isTurnContent } from '../../thread/model/updateKinds';

/** How long after Stop the client waits for the agent to confirm the cancel before it ends the turn itself (ms). */
export const cancelGraceMs = 3000;

/** How a turn's request ended: the agent answered, or the client stopped waiting. */
export type TurnOutcome<T> = { readonly kind: 'answered'; readonly value: T } | { readonly kind: 'abandoned'; readonly afterMs: number };

/** What a Stop did: nothing (no turn), asked the agent and waits, or ended the turn here. */
export type CancelStep = 'none' | 'waiting' | 'ended';

/** Where TurnEnd logs the late answers and dropped updates. */
export interface TurnEndLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** A timer (tests pass a manual clock). */
export type Schedule = (fn: () => void, ms: number) => { cancel(): void };

const realSchedule: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  return { cancel: () => clearTimeout(t) };
};


interface Running {
  readonly abandon: (afterMs: number) => void;
  timer?: { cancel(): void };
  stopAt?: number;
}

/** The end of the turns of one session. */
export class TurnEnd {
  private _running: Running | undefined;
  /** Between an abandoned turn and the next prompt: its late updates are dropped. */
  private _quiet = false;
  private _dropped = 0;

  constructor(
    private readonly log: TurnEndLogger,
    private readonly graceMs = cancelGraceMs,
    private readonly schedule: Schedule = realSchedule,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while Stop was pressed and the agent has not answered yet (the grace period). */
  get isStopping(): boolean {
    return this._running?.stopAt !== undefined;
  }

  /**
   * Waits for the answer to a turn's request (`session/prompt`), or until the turn is abandoned. A rejection
   * of `answer` rejects as before; an answer or error after the abandonment is only logged.
   */
  run<T>(answer: Promise<T>, what = 'session/prompt'): Promise<TurnOutcome<T>> {
    this.finish();
    this._quiet = false;
    return new Promise<TurnOutcome<T>>((resolve, reject) => {
      let abandoned = false;
      const running: Running = {
        abandon: (afterMs) => {
          abandoned = true;
          this._quiet = true;
          this._dropped = 0;
          resolve({ kind: 'abandoned', afterMs });
        },
      };
      this._running = running;
      const settle = (fn: () => void) => {
        if (abandoned) return;
        if (this._running === running) this.finish();
        fn();
      };
      answer.then(
        (value) => (abandoned ? this.log.warn(`ignored the late answer to the abandoned ${what}: ${describe(value)}`) : settle(() => resolve({ kind: 'answered', value }))),
        (error: unknown) => (abandoned ? this.log.info(`the abandoned ${what} failed late: ${error instanceof Error ? error.message : String(error)}`) : settle(() => reject(error))),
      );
    });
  }

  /**
   * Stop (button, Esc, Cancel Turn). The first one starts the grace period and returns `waiting` (the caller
   * sends `session/cancel`); when the grace period runs out, or on a second Stop, the turn is abandoned and
   * the second Stop returns `ended`.
   */
  cancel(): CancelStep {
    const running = this._running;
    if (!running) return 'none';
    if (running.stopAt === undefined) {
      running.stopAt = this.now();
      running.timer = this.schedule(() => this.abandon(running, true), this.graceMs);
      return 'waiting';
    }
    this.abandon(running);
    return 'ended';
  }

  /**
   * Ends an abandoned turn in the thread: its unfinished tool calls show as cancelled (the thread keeps a
   * cancelled call cancelled, whatever the agent sends for it later), a notice
   * says why, and the session is idle again (the caller answers pending permissions `cancelled` first).
   */
  endAbandoned(thread: Pick<AcpThread, 'cancelUnfinishedToolCalls' | 'addNotice' | 'setStatus'>, agentName: string, afterMs: number): void {
    thread.cancelUnfinishedToolCalls();
    const seconds = `${Math.round(this.graceMs / 100) / 10} s`;
    thread.addNotice('warning', afterMs >= this.graceMs
      ? `${agentName} did not confirm the cancel within ${seconds}. The turn was ended here; what the agent still sends for it is ignored.`
      : `The turn was ended here without waiting for ${agentName} to confirm the cancel; what the agent still sends for it is ignored.`);
    thread.setStatus('idle');
  }

  /**
   * Whether a late update of an abandoned turn is dropped: turn content (messages, thoughts, tool calls,
   * plan) from the abandonment until the next prompt starts. Session-level updates (title, commands, config,
   * modes, usage) always pass. After the next prompt, updates carry nothing that tells the turns apart.
   */
  dropsUpdate(update: SessionUpdate): boolean {
    const drop = this._quiet && isTurnContent(update.sessionUpdate); // src/thread/model/updateKinds.ts `turn`
    if (drop && ++this._dropped === 1) this.log.info(`dropped a late '${update.sessionUpdate}' of the abandoned turn (and drops what follows of it, until the next prompt)`);
    return drop;
  }

  /** Releases the timer. */
  dispose(): void {
    this.finish();
  }

  /**
   * `waited`: the grace period's timer ended it. Node's timers keep their own clock, and one may fire a millisecond
   * before `Date.now()` says the period is over: the turn still waited the whole grace period.
   */
  private abandon(running: Running, waited = false): void {
    if (this._running !== running) return;
    const elapsed = this.now() - (running.stopAt ?? this.now());
    const afterMs = waited ? Math.max(elapsed, this.graceMs) : elapsed;
    this.finish();
    this.log.warn(`the agent did not answer the cancelled turn within ${afterMs} ms: the turn was ended by the client`);
    running.abandon(afterMs);
  }

  private finish(): void {
    this._running?.timer?.cancel();
    this._running = undefined;
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
