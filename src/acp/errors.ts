/**
 * ACP error codes and the typed errors of the protocol layer. Wire errors (`ResponseError`) exist only at
 * the edge (AcpConnection); the rest of the code throws and catches these classes
 * (docs/architecture.md#rules).
 */
import { ResponseError } from 'vscode-jsonrpc/node';

/**
 * JSON-RPC and ACP error codes (`ErrorCode` in https://agentclientprotocol.com/protocol/schema). vscode-jsonrpc
 * lacks -32800 and the ACP range.
 */
export const AcpErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
  AuthRequired: -32000,
  ResourceNotFound: -32002,
} as const;

/** Why an {@link AcpError} happened. */
export type AcpErrorReason =
  /** the peer answered a request with a JSON-RPC error */
  | 'remote'
  /** the peer sent something that does not match the schema */
  | 'protocol'
  /** the connection closed (agent exited, stream ended, disposed) before an answer came */
  | 'closed'
  /** the request was cancelled by us */
  | 'cancelled'
  /** the agent speaks a protocol version we do not support */
  | 'unsupportedVersion';

/** An error of the ACP layer: a remote JSON-RPC error, a protocol violation, a closed connection, … */
export class AcpError extends Error {
  constructor(
    readonly reason: AcpErrorReason,
    message: string,
    /** The JSON-RPC error code (for `remote`, the peer's code). */
    readonly code: number = AcpErrorCodes.InternalError,
    /** The JSON-RPC error `data`, when the peer sent some. */
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AcpError';
  }

  /** True when `ex` is an AcpError (of the given reason). */
  static is(ex: unknown, reason?: AcpErrorReason): ex is AcpError {
    return ex instanceof AcpError && (reason === undefined || ex.reason === reason);
  }

  /** True when the agent answered `auth_required` (-32000). */
  static isAuthRequired(ex: unknown): ex is AcpError {
    return AcpError.is(ex, 'remote') && ex.code === AcpErrorCodes.AuthRequired;
  }

  /** An error the client sends back to the agent, e.g. `resourceNotFound('/x')`. */
  static invalidParams(message: string, data?: unknown): AcpError {
    return new AcpError('protocol', message, AcpErrorCodes.InvalidParams, data);
  }

  static resourceNotFound(path: string): AcpError {
    return new AcpError('remote', `Resource not found: ${path}`, AcpErrorCodes.ResourceNotFound, { uri: path });
  }

  static cancelled(message = 'Request cancelled'): AcpError {
    return new AcpError('cancelled', message, AcpErrorCodes.RequestCancelled);
  }
}

/** Converts anything thrown by a request handler into the JSON-RPC error sent to the agent. */
export function toResponseError(ex: unknown): ResponseError<unknown> {
  if (ex instanceof ResponseError) return ex;
  if (AcpError.is(ex)) return new ResponseError(ex.code, ex.message, ex.data);
  const message = ex instanceof Error ? ex.message : String(ex);
  return new ResponseError(AcpErrorCodes.InternalError, message || 'Internal error');
}
