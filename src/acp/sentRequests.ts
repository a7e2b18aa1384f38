/**
 * The ids of the requests we sent and that are not answered yet, so that a response to an id we never used
 * (or already saw answered) is reported: vscode-jsonrpc drops such a response silently (it only traces it).
 * The connection logs it at warning level in the agent log (docs/errors-and-cancellation.md#stray-messages).
 */
import type { Message, MessageWriter, RequestMessage, ResponseMessage } from 'vscode-jsonrpc/node';

/** Where the writer wrapper reports every message it sends (the protocol traffic log), if anywhere. */
export type SendTrace = (direction: 'send', message: Message) => void;

/** Request ids in flight, by the method they were sent for. */
export class SentRequests {
  private readonly _pending = new Map<string | number, string>();

  /** A writer that records the id of every request written through it (and traces every message). */
  wrap(writer: MessageWriter, trace?: SendTrace): MessageWriter {
    return {
      onError: writer.onError,
      onClose: writer.onClose,
      write: (msg) => {
        trace?.('send', msg);
        const r = msg as RequestMessage;
        if (typeof r.method === 'string' && (typeof r.id === 'string' || typeof r.id === 'number')) this._pending.set(r.id, r.method);
        return writer.write(msg);
      },
      end: () => writer.end(),
      dispose: () => writer.dispose(),
    };
  }

  /**
   * Checks an incoming message: a response to a pending request clears it; a response to an unknown id
   * returns the warning to log. Anything else returns undefined.
   */
  check(message: Message): string | undefined {
    const r = message as ResponseMessage & { method?: unknown };
    if (r.method !== undefined || !('id' in r) || (!('result' in r) && !('error' in r))) return undefined;
    const id = r.id;
    if ((typeof id === 'string' || typeof id === 'number') && this._pending.delete(id)) return undefined;
    const what = r.error ? `an error response (${r.error.code}: ${r.error.message})` : 'a response';
    return `the agent sent ${what} to request id ${JSON.stringify(id)}, which matches no pending request of Switchboard; ignored`;
  }
}
