/**
 * W3C Trace Context ids on the client's requests (https://www.w3.org/TR/trace-context/), for a user who traces the
 * protocol: with the agent's log at Trace level, every request the client sends carries
 * `_meta: { traceparent: "00-<trace id>-<span id>-01" }` (merged with any `_meta` it has; ACP reserves `_meta` for
 * such data: https://agentclientprotocol.com/protocol/extensibility), and the trace log names it with the request,
 * so the agent's own traces can be matched with the client's log (docs/errors-and-cancellation.md "Trace ids").
 *
 * One trace id per session: a request with a `sessionId` uses its session's trace, every other request
 * (`initialize`, `authenticate`, `session/new`, `session/list`, …) the connection's. Each request gets a fresh span
 * id. The flags are `01` (sampled): the user asked for the trace.
 */
import { randomBytes } from 'node:crypto';

/** `version-traceid-parentid-flags`, lowercase hex, as the W3C format has it (version 00). */
export const traceparentPattern = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** A random id of `bytes` bytes in lowercase hex, never all zeros (which the format forbids). */
function randomHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex');
    if (/[^0]/.test(hex)) return hex;
  }
}

/** A `traceparent` value. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

/** The trace ids of one connection: its own, and one per session id. */
export class TraceIds {
  private readonly _connection = randomHex(16);
  private readonly _sessions = new Map<string, string>();

  /** The trace id of a request's params: its session's (created on first use), else the connection's. */
  traceIdFor(params: unknown): string {
    const sessionId = isRecord(params) && typeof params.sessionId === 'string' ? params.sessionId : undefined;
    if (sessionId === undefined) return this._connection;
    let id = this._sessions.get(sessionId);
    if (!id) {
      id = randomHex(16);
      this._sessions.set(sessionId, id);
    }
    return id;
  }

  /**
   * `params` with `_meta.traceparent` set: a new span of the request's trace, merged into the `_meta` it has. A
   * `traceparent` already there is kept (a caller that continues a trace of its own). Returns the new params and
   * the traceparent they carry.
   */
  stamp(params: unknown): { readonly params: Record<string, unknown>; readonly traceparent: string } {
    const base = isRecord(params) ? params : {};
    const meta = isRecord(base._meta) ? base._meta : {};
    if (typeof meta.traceparent === 'string' && traceparentPattern.test(meta.traceparent)) return { params: base, traceparent: meta.traceparent };
    const value = traceparent(this.traceIdFor(base), randomHex(8));
    return { params: { ...base, _meta: { ...meta, traceparent: value } }, traceparent: value };
  }
}

/**
 * One line of the protocol trace log: `→` (sent) or `←` (received) and the message's JSON, with the traceparent of a
 * request in front (`→ [traceparent 00-…-01] {…}`), so a user can search the log for it.
 */
export function traceLine(direction: 'send' | 'receive', message: unknown): string {
  const params = isRecord(message) ? message.params : undefined;
  const meta = isRecord(params) ? params._meta : undefined;
  const parent = isRecord(message) && 'id' in message && typeof message.method === 'string' && isRecord(meta) && typeof meta.traceparent === 'string' ? meta.traceparent : undefined;
  return `${direction === 'send' ? '→' : '←'} ${parent ? `[traceparent ${parent}] ` : ''}${JSON.stringify(message)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
