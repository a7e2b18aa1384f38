/**
 * The end of a prompt's turn in ACP v2. The answer to `session/prompt` only says the message was inserted; the turn
 * ends with an `idle` `state_update` (docs/acp-v2.md "Turns"). An idle snapshot can repeat, and is sent again on
 * resume: the one that ends a turn is the first idle after the agent reported the work running (or blocked on the
 * user), or, for an agent that never reports it running, the first idle with a stop reason after the answer.
 */
import { AcpError, AcpErrorCodes } from '../errors';
import type { PromptResponse, StopReason } from '../schema/types.gen';

const v1StopReasons = new Set<string>(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);

class Turn {
  running = false;
  acked = false;
  resolve!: (r: PromptResponse) => void;
  reject!: (e: Error) => void;
  readonly done = new Promise<PromptResponse>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

/** The turns of our prompts that have not ended, per session, oldest first. */
export class V2Turns {
  private readonly _turns = new Map<string, Turn[]>();

  /** A prompt was sent: its turn, to end on the idle that follows. */
  start(sessionId: string): { acked(): Promise<PromptResponse>; failed(): void } {
    const turn = new Turn();
    const list = this._turns.get(sessionId) ?? [];
    list.push(turn);
    this._turns.set(sessionId, list);
    return {
      acked: () => {
        turn.acked = true;
        return turn.done;
      },
      failed: () => this.drop(sessionId, turn),
    };
  }

  /** A `state_update` of the session. */
  onState(sessionId: string, state: string, stopReason: string | undefined, error: { message: string; code?: number; data?: unknown } | undefined, usage?: unknown): void {
    const turn = this._turns.get(sessionId)?.[0];
    if (!turn) return;
    if (state === 'running' || state === 'requires_action') turn.running = true;
    if (state !== 'idle' || !(turn.running || (turn.acked && stopReason))) return;
    this.drop(sessionId, turn);
    if (stopReason === 'error') {
      // with its code: `auth_required` (-32000) offers the login, as a v1 prompt's error does
      const message = error ? `The agent reported an error: ${error.message}` : 'The agent reported an error and ended the turn.';
      turn.reject(new AcpError('remote', message, error?.code ?? AcpErrorCodes.InternalError, error?.data));
      return;
    }
    const reason: StopReason = stopReason && v1StopReasons.has(stopReason) ? (stopReason as StopReason) : 'end_turn';
    turn.resolve({ stopReason: reason, ...(usage && typeof usage === 'object' ? { usage: usage as PromptResponse['usage'] } : {}) });
  }

  /** The connection closed: every turn fails with `reason`. */
  close(reason: Error): void {
    for (const list of this._turns.values()) for (const turn of list) turn.reject(reason);
    this._turns.clear();
  }

  private drop(sessionId: string, turn: Turn): void {
    const list = this._turns.get(sessionId)?.filter((t) => t !== turn) ?? [];
    if (list.length) this._turns.set(sessionId, list);
    else this._turns.delete(sessionId);
  }
}
