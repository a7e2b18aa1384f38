/**
 * A time limit on a request whose answer nothing else ends: when it runs out, the request is cancelled
 * (`$/cancel_request`) and the caller gets a clear error at once
 * (docs/errors-and-cancellation.md#requests-the-ui-waits-on).
 */
import { CancellationTokenSource } from './events';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError } from './errors';

/** How long the agent has to answer a settings change (`session/set_config_option`, `session/set_mode`), ms. */
export const settingAnswerMs = 15_000;

/** Runs `send` with a token that fires after `ms`; rejects with an AcpError `cancelled` that says so. */
export function withAnswerTimeout<T>(method: string, ms: number, send: (token: CancellationToken) => Promise<T>): Promise<T> {
  const source = new CancellationTokenSource();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      source.cancel();
      reject(AcpError.cancelled(`The agent did not answer '${method}' within ${ms / 1000} s.`));
    }, ms);
    send(source.token).then(resolve, reject).finally(() => {
      clearTimeout(timer);
      source.dispose();
    });
  });
}
