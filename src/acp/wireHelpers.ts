/**
 * Pieces of the ACP connection (src/acp/connection.ts) that need none of its state: ACP's cancellation on
 * vscode-jsonrpc, a cancelled incoming request's answer, wire errors as {@link AcpError}s, the one-line form
 * of zod issues, and the check of a wire dialect's answer (src/acp/wireDialect.ts).
 */
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import type { CancellationStrategy, CancellationToken } from 'vscode-jsonrpc/node';
import type * as z from 'zod/mini';
import { AcpError, AcpErrorCodes, remoteErrorMessage } from './errors';

export const cancelRequestMethod = '$/cancel_request';

/** Outgoing cancellation speaks ACP: `$/cancel_request {requestId}`; incoming uses plain token sources. */
export const acpCancellationStrategy: CancellationStrategy = {
  receiver: { createCancellationTokenSource: () => new CancellationTokenSource() },
  sender: {
    sendCancellation: (conn, id) => conn.sendNotification(cancelRequestMethod, { requestId: id }),
    cleanup: () => undefined,
  },
};

/** A cancelled incoming request answers -32800 at once, even if its handler is still busy. */
export function raceCancellation<T>(work: Promise<T>, token: CancellationToken): Promise<T | ResponseError<void>> {
  return new Promise((resolve, reject) => {
    const sub = token.onCancellationRequested(() => resolve(new ResponseError(AcpErrorCodes.RequestCancelled, 'Request cancelled')));
    work.then((v) => { sub.dispose(); resolve(v); }, (e: unknown) => { sub.dispose(); reject(e); });
  });
}

export function fromWireError(method: string, error: unknown): AcpError {
  if (error instanceof ResponseError) {
    if (error.code === AcpErrorCodes.RequestCancelled) return new AcpError('cancelled', error.message, error.code, error.data);
    return new AcpError('remote', remoteErrorMessage(error.message || `'${method}' failed`, error.data), error.code, error.data);
  }
  if (AcpError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AcpError('closed', `'${method}' failed: ${message}`, AcpErrorCodes.InternalError, undefined, { cause: error });
}

/** One line per issue: `path: message`. */
export function formatIssues(error: { readonly issues: readonly z.core.$ZodIssue[] }): string {
  return error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ')
    + (error.issues.length > 5 ? ` (+${error.issues.length - 5} more)` : '');
}

/** A dialect's v1 answer, checked against v1's schema like any answer. */
export function checked<T>(method: string, schema: z.ZodMiniType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AcpError('protocol', `The agent's answer to '${method}' is invalid: ${formatIssues(parsed.error)}`, AcpErrorCodes.InvalidParams);
}

/** Converts anything thrown by a request handler into the JSON-RPC error sent to the agent. */
export function toResponseError(ex: unknown): ResponseError<unknown> {
  if (ex instanceof ResponseError) return ex;
  if (AcpError.is(ex)) return new ResponseError(ex.code, ex.message, ex.data);
  const message = ex instanceof Error ? ex.message : String(ex);
  return new ResponseError(AcpErrorCodes.InternalError, message || 'Internal error');
}
