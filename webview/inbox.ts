/**
 * The webview's end of the chat IPC, the receiving twin of the host's `IpcDispatcher` (src/chatHost/ipc.ts):
 * `inbox.on(type, handler)` gives each notification of src/shared/chatProtocol.ts one handler, whose
 * parameter type comes from the protocol's notification table, so the handlers need no casts and a
 * notification outside the table cannot be handled. What the host posts is the extension's own output (the
 * agent's part of it was validated where it came in, docs/architecture.md#rules), so the inbox checks the
 * envelope only: anything that is not an object whose method has a handler is ignored.
 */
import type { IpcMessageType, NotificationMessage, NotificationMethod, NotificationTable } from '../src/shared/chatProtocol';

/** Where the messages come from: the host transport (`HostIpc` in hostIpc.ts), or a test's. */
export interface InboxTransport { onMessage(listener: (data: unknown) => void): void }

/** Runs one notification. */
export type InboxHandler<M extends NotificationMethod> = (params: NotificationTable[M]) => void;

/**
 * Routes each notification from the host to its handler. `H` is the notifications handled so far: each can
 * be handled once, and only an inbox that handles every one of the table can {@link Inbox.listen}, so a new
 * notification without a handler in the webview does not compile.
 */
export interface Inbox<H extends NotificationMethod = never> {
  /** Handles `type` with `handler`; returns the inbox with `type` handled. */
  on<M extends Exclude<NotificationMethod, H>>(type: IpcMessageType<NotificationTable[M], M>, handler: InboxHandler<M>): Inbox<H | M>;
  /** Receives what the host posts to `transport`, from now on. */
  listen(this: Inbox<NotificationMethod>, transport: InboxTransport): void;
  /** Never set: carries `H` (a function of it, so that an inbox that handles less is not one that handles more). */
  readonly _handled?: (method: H) => void;
}

type Handlers<M extends NotificationMethod = NotificationMethod> = { [K in M]?: InboxHandler<K> };

/** A new inbox (no handlers yet: `handlers` is the table its {@link Inbox.on} calls fill, shared by the inboxes they return). */
export function chatInbox<H extends NotificationMethod = never>(handlers: Handlers = {}): Inbox<H> {
  // postMessage hands over a copy made in this page, so `instanceof Object` holds for every object the host posts
  const accepts = (data: unknown): data is NotificationMessage => data instanceof Object && 'method' in data
    && typeof data.method === 'string' && Object.hasOwn(handlers, data.method);
  return {
    on: (type, handler) => (register(handlers, type.method, handler), chatInbox(handlers)),
    listen: (transport) => transport.onMessage((data) => { if (accepts(data)) deliver(handlers, data); }),
  };
}

/** Sets the handler of `method`: the handlers, seen as the table of that method alone, take a handler of its params. */
function register<M extends NotificationMethod>(handlers: Handlers<M>, method: M, handler: InboxHandler<M>): void {
  handlers[method] = handler;
}

/** Calls the handler of `msg.method` with its params: the method and the params come from one row of the table. */
function deliver<M extends NotificationMethod>(handlers: Handlers<M>, msg: NotificationMessage<M>): void {
  handlers[msg.method]?.(msg.params);
}
