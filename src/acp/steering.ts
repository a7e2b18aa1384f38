/**
 * Steering: a message into the turn that is running. An agent extension, not part of the ACP schema (docs/chat.md,
 * "Send now"; the standard candidate is `session/inject`, an open RFD). claude-agent-acp and codex-acp advertise it
 * with `steering: { supported: true }` in the top-level `_meta` of their `initialize` answer, and take the request
 * `_session/steering` `{ sessionId, prompt: ContentBlock[], _meta: { steering: { idleBehavior: 'promptRequired' } } }`.
 * They answer `{ outcome }`: `injected` (it joined the running turn, whose `session/prompt` still ends it),
 * `promptRequired` (no turn was running: nothing was taken; the idle behaviour asked for), `startedNewTurn` (an agent
 * that ignores the idle behaviour started a turn of its own with it) or `failed`. Pure: no vscode.
 */
import * as z from 'zod/mini';
import type { ContentBlock } from './schema/types.gen';

/** The request's method. */
export const steeringMethod = '_session/steering';

/** What an answer can say; `unknown`: an outcome this client does not know (the message may or may not have been taken). */
export type SteeringOutcome = 'injected' | 'promptRequired' | 'startedNewTurn' | 'failed' | 'unknown';

/** An agent's answer, checked. */
export interface SteeringAnswer {
  readonly outcome: SteeringOutcome;
  /** The outcome as the agent wrote it (for an `unknown` one), and its `reason`, if any. */
  readonly said: string;
  readonly reason?: string;
}

const known = new Set<string>(['injected', 'promptRequired', 'startedNewTurn', 'failed']);

/** The answer's schema: an object with a string `outcome` (other fields pass); a bad one is a protocol error. */
export const steeringAnswerSchema = z.pipe(
  z.looseObject({ outcome: z.string().check(z.maxLength(200)), reason: z.catch(z.optional(z.string().check(z.maxLength(1000))), undefined) }),
  z.transform((a): SteeringAnswer => ({
    outcome: known.has(a.outcome) ? (a.outcome as SteeringOutcome) : 'unknown',
    said: a.outcome,
    ...(a.reason ? { reason: a.reason } : {}),
  })),
);

const advertised = z.looseObject({ _meta: z.looseObject({ steering: z.looseObject({ supported: z.literal(true) }) }) });

/** True when the agent's `initialize` answer advertises steering (`_meta.steering.supported === true`, and nothing else). */
export function advertisesSteering(initialize: unknown): boolean {
  return advertised.safeParse(initialize).success;
}

/** The request's params: the message, and "tell me when no turn runs" instead of starting one. */
export function steeringParams(sessionId: string, prompt: readonly ContentBlock[]): Record<string, unknown> {
  return { sessionId, prompt: [...prompt], _meta: { steering: { idleBehavior: 'promptRequired' } } };
}
