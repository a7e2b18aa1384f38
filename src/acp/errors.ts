/**
 * ACP error codes and the typed errors of the protocol layer. Wire errors (`ResponseError`) exist only at
 * the edge (AcpConnection); the rest of the code throws and catches these classes
 * (docs/architecture.md#rules).
 */
import { typedError } from '../shared/typedError';

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
  /**
   * Switchboard's own code for a file access it refused (the setting, the user or the OS said no), with
   * `data: { path, reason }`. ACP defines no such code; why this one:
   * docs/errors-and-cancellation.md#error-codes-switchboard-answers.
   */
  AccessDenied: -32003,
} as const;

/** Why a file access was refused (`error.data.reason` of {@link AcpErrorCodes.AccessDenied}). */
export type AccessDeniedReason = 'outsideRoots' | 'deniedByUser' | 'noPermissions';

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
export class AcpError extends typedError('AcpError') {
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

  /** A file access Switchboard refused: {@link AcpErrorCodes.AccessDenied} with `{ path, reason }`. */
  static accessDenied(message: string, path: string, reason: AccessDeniedReason): AcpError {
    return new AcpError('remote', message, AcpErrorCodes.AccessDenied, { path, reason });
  }

  static cancelled(message = 'Request cancelled'): AcpError {
    return new AcpError('cancelled', message, AcpErrorCodes.RequestCancelled);
  }
}

/** The most of the agent's own explanation a message carries (longer `error.data` is cut). */
const maxDetailChars = 500;

/**
 * The agent's own explanation in a JSON-RPC `error.data`: a string, or the text of a `details`, `detail`,
 * `message`, `reason` or `error` field (the SDKs send `{ details }`), else the data as compact JSON. Undefined
 * when there is none.
 */
export function errorDataText(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  let text: string | undefined;
  if (typeof data === 'string') text = data;
  else if (typeof data === 'object' && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    const field = ['details', 'detail', 'message', 'reason', 'error'].map((k) => record[k]).find((v) => typeof v === 'string' && v.trim());
    text = typeof field === 'string' ? field : Object.keys(record).length ? JSON.stringify(data) : undefined;
  } else text = JSON.stringify(data);
  text = text?.trim();
  if (!text) return undefined;
  return text.length > maxDetailChars ? `${text.slice(0, maxDetailChars)}…` : text;
}

/**
 * The message of an agent's JSON-RPC error for the user: its `message`, followed by its explanation from
 * `error.data` when it adds something (docs/errors-and-cancellation.md#what-the-agent-said).
 */
export function remoteErrorMessage(message: string, data: unknown): string {
  const detail = errorDataText(data);
  if (!detail || message.includes(detail)) return message;
  return message ? `${message.replace(/[.:\s]+$/, '')}: ${detail}` : detail;
}
