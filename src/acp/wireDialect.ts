/**
 * A wire dialect: what a connection (src/acp/connection.ts) speaks when the agent chose a protocol version other
 * than the one the rest of the client is written against (ACP v1). The connection keeps its v1 surface, typed by the
 * v1 tables (schema/methods.gen.ts); a dialect turns each v1 call into its message on the wire, and each message from
 * the agent into the v1 messages it means, which the connection then validates and dispatches as before. The ACP v2
 * draft's dialect is src/acp/v2/v2Dialect.ts (docs/acp-v2.md).
 */
import type * as z from 'zod/mini';

/** One of our requests as the wire has it, and how its answer becomes the v1 answer. */
export interface DialectRequest {
  readonly method: string;
  readonly params: unknown;
  /** The schema of the answer on the wire. */
  readonly result: z.ZodMiniType;
  /** The v1 answer of a valid wire answer; may wait (a v2 prompt's answer is its turn's end). */
  readonly finish: (answer: unknown) => unknown;
  /** The agent answered with an error (or the request could not be sent). */
  readonly failed?: () => void;
}

/** A message from the agent as the v1 client reads it. */
export interface DialectMessage {
  readonly method: string;
  readonly params: unknown;
}

/** A request from the agent as the v1 client reads it (the v1 answer goes back on the wire as it is). */
export interface DialectIncomingRequest extends DialectMessage {
  /** Notifications on the wire the request implies, dispatched before it (a v2 permission's subject updates its tool call). */
  readonly before?: readonly DialectMessage[];
}

/** A JSON-RPC error that answers the agent's request. */
export interface DialectError {
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export interface WireDialect {
  /** The protocol version on the wire. */
  readonly protocolVersion: number;
  /** Our request on the wire; throws an AcpError when the dialect has no such method. */
  request(method: string, params: unknown): DialectRequest;
  /** Our notification on the wire, or undefined when the dialect has none (it is not sent). */
  notification(method: string, params: unknown): DialectMessage | undefined;
  /**
   * The agent's request as v1, or the error that answers it (invalid params: -32602; unknown: -32601); a plain
   * object, not vscode-jsonrpc's class: a dialect may be its own lazily loaded bundle with its own copy of it.
   */
  incomingRequest(method: string, params: unknown): DialectIncomingRequest | DialectError;
  /** The agent's notification as v1 messages (none, one, or several). */
  incomingNotification(method: string, params: unknown): readonly DialectMessage[];
  /** The v1 messages of the last incoming message were dispatched (what it reports beyond them follows now). */
  dispatched?(): void;
  /** The connection closed: whatever waits on the agent fails with `reason`. */
  close(reason: Error): void;
}

/** A newer protocol version the client offers in `initialize` (src/acp/connection.ts `initialize`). */
export interface VersionOffer {
  readonly protocolVersion: number;
  /** `initialize`'s params that offer it, from the v1 ones (the agent may still choose v1: they must suit both). */
  params(v1: Record<string, unknown>): Record<string, unknown>;
  /** The agent chose it: the dialect, and its answer as v1's; throws an AcpError (`protocol`) on an invalid answer. */
  accept(answer: unknown): { readonly dialect: WireDialect; readonly response: unknown };
}
