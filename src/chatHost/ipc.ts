/**
 * The host's end of the chat IPC: every command from the webview goes through one dispatcher, which checks
 * it against the zod schema of its method (ipcSchemas.ts) and hands the handler registered for that method
 * a value of the command's params type. The webview is untrusted input: a message that is not a command,
 * names no known method, or carries params its schema rejects is logged and dropped, never acted on.
 * No vscode here: unit-tested in plain node.
 */
import type { CommandMethod, IpcMessageType, ParamsOf } from '../shared/chatProtocol';
import { parseEnvelope, parseParams } from './ipcSchemas';

/** Where the dispatcher reports what it dropped (the agent's log channel). */
export interface IpcLogger { warn(message: string): void }

/** Runs one validated command. A rejected promise is logged. */
export type IpcHandler<P> = (params: P) => void | Promise<void>;

/** Validates the webview's commands and routes each to its handler. */
export class IpcDispatcher {
  private readonly _handlers = new Map<CommandMethod, (params: unknown) => void | Promise<void>>();

  constructor(private readonly log: IpcLogger) {}

  /** Handles `type` with `handler`, which receives validated params. One handler per method. */
  on<M extends CommandMethod>(type: IpcMessageType<ParamsOf<M>, M>, handler: IpcHandler<ParamsOf<M>>): { dispose(): void } {
    const method = type.method;
    if (this._handlers.has(method)) throw new Error(`${method} has a handler already`);
    const run = (raw: unknown): void | Promise<void> => {
      const params = parseParams(method, raw);
      if (!params.ok) return this.drop(params.error);
      return handler(params.params);
    };
    this._handlers.set(method, run);
    return { dispose: () => { if (this._handlers.get(method) === run) this._handlers.delete(method); } };
  }

  /** Handles one message from the webview: validated, then routed, or logged and dropped. */
  dispatch(raw: unknown): void {
    const msg = parseEnvelope(raw);
    if (!msg.ok) return this.drop(msg.error);
    const run = this._handlers.get(msg.method);
    if (!run) return this.drop(`no handler for ${msg.method}`);
    const done = run(msg.params);
    if (done) done.catch((e: unknown) => this.log.warn(`chat webview command ${msg.method} failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  private drop(error: string): void {
    this.log.warn(`chat webview sent an invalid message, ignored: ${error}`);
  }
}
