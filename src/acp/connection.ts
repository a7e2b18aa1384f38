/**
 * AcpConnection: the client side of one ACP connection, on vscode-jsonrpc.
 *
 * - Typed calls for every client→agent method and typed handler registration for every agent→client
 *   method, both from the tables generated out of the official schema (methods.gen.ts).
 * - Every incoming request and notification is validated with zod before a handler sees it: bad params
 *   get `-32602` carrying the validation message, unknown methods get `-32601` "Method not found"
 *   (https://agentclientprotocol.com/protocol/extensibility).
 *   Responses to our own requests are validated too; `null` is accepted where the spec's examples show it.
 * - `$/cancel_request {requestId}` maps onto vscode-jsonrpc cancellation in both directions: a
 *   cancelled incoming request is answered `-32800`; a cancelled outgoing request sends `$/cancel_request`
 *   and is rejected locally if the agent does not answer within a grace period, so nothing hangs.
 * - When the connection closes (agent exited, stream ended), every pending request is rejected at once
 *   with a typed {@link AcpError} (reason `closed`, carrying the cause).
 */
import { CancellationToken, createMessageConnection, Emitter, ResponseError, type Disposable, type Event, type Message, type MessageConnection, type MessageReader, type MessageWriter, type NotificationMessage } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { AcpError, AcpErrorCodes } from './errors';
import { ObjectMessageReader, ObjectMessageWriter } from './messageStream';
import { NdjsonMessageReader, NdjsonMessageWriter, type NdjsonReaderOptions, type OversizedMessage } from './ndjson';
import { agentNotifications, agentRequests, clientNotifications, clientRequests, protocolVersion } from './schema/methods.gen';
import type { InitializeRequest, InitializeResponse } from './schema/types.gen';
import { SentRequests } from './sentRequests';
import { TraceIds } from './traceContext';
import { unknownSessionUpdateTag } from './unknownKinds';
import type { DialectRequest, VersionOffer, WireDialect } from './wireDialect';
import { acpCancellationStrategy, cancelRequestMethod, checked, formatIssues, fromWireError, raceCancellation, toResponseError } from './wireHelpers';
export { zElicitationSchema } from './schema/zod.gen'; // for src/host/permissions/elicitationBroker.ts: loaded with this module

/** Requests only the ACP v2 draft has (src/acp/v2/v2Dialect.ts), sent with {@link AcpConnection.requestExtension}. */
export type V2OnlyMethod = 'tool_call/cancel' | 'terminal/cancel';
/** Methods the client calls (the agent serves them). */
export type AgentMethod = keyof typeof agentRequests;
/** Params of an agent method. */
export type AgentParams<M extends AgentMethod> = z.output<(typeof agentRequests)[M]['params']>;
/** Result of an agent method. */
export type AgentResult<M extends AgentMethod> = z.output<(typeof agentRequests)[M]['result']>;
/** Notifications the client sends. */
export type AgentNotificationMethod = keyof typeof agentNotifications;
export type AgentNotificationParams<M extends AgentNotificationMethod> = z.output<(typeof agentNotifications)[M]['params']>;
/** Methods the agent calls (the client serves them). */
export type ClientMethod = keyof typeof clientRequests;
export type ClientParams<M extends ClientMethod> = z.output<(typeof clientRequests)[M]['params']>;
/** What a client handler returns (the schema's output type; the wire form is the same JSON). */
export type ClientResult<M extends ClientMethod> = z.input<(typeof clientRequests)[M]['result']>;
/** Notifications the client receives. */
export type ClientNotificationMethod = keyof typeof clientNotifications;
export type ClientNotificationParams<M extends ClientNotificationMethod> = z.output<(typeof clientNotifications)[M]['params']>;

/** A handler for a request from the agent. Throw an {@link AcpError} to answer with a specific code. */
export type ClientRequestHandler<M extends ClientMethod> = (params: ClientParams<M>, token: CancellationToken) => ClientResult<M> | Promise<ClientResult<M>>;
/** A handler for a notification from the agent. */
export type ClientNotificationHandler<M extends ClientNotificationMethod> = (params: ClientNotificationParams<M>) => void;

/**
 * Where the connection logs. `trace` (optional) sees every message, for the protocol traffic log; while
 * `traceEnabled` says so (the log is at Trace level), the client's requests carry W3C trace ids (traceContext.ts).
 */
export interface AcpLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  trace?(direction: 'send' | 'receive', message: Message): void;
  traceEnabled?(): boolean;
}

/** Options of an {@link AcpConnection}. */
export interface AcpConnectionOptions {
  readonly logger: AcpLogger;
  /** Cap on one incoming message (default 64 MiB). */
  readonly maxMessageBytes?: number;
  /** After we cancel a request, how long the agent has to answer before it is rejected locally (ms). */
  readonly cancelGraceMs?: number;
  /**
   * After the agent's stdout ends, how long to wait for the owner's own close reason (e.g. the process exit
   * with its code and stderr, which arrives a moment later) before closing with a generic reason (ms).
   */
  readonly streamEndGraceMs?: number;
  /** Rewrites params crossing the connection (an agent elsewhere's paths: src/agents/pathMapping.ts). */
  readonly translate?: ParamsTranslator;
}

/** Rewrites params, v1 shapes: `incoming` after validation (a throw answers the request with it), `outgoing` before sending. */
export interface ParamsTranslator { incoming(method: string, params: unknown): unknown; outgoing(method: string, params: unknown): unknown }
const jsonrpcCancelMethod = '$/cancelRequest';

/**
 * The ACP client connection. Create it over the agent's stdout/stdin with {@link AcpConnection.overStreams} (or {@link AcpConnection.overMessages}),
 * register handlers, call {@link listen}, then {@link initialize}.
 */
export class AcpConnection {
  private readonly _connection: MessageConnection;
  private readonly _requestHandlers = new Map<string, (params: unknown, token: CancellationToken) => unknown>();
  private readonly _notificationHandlers = new Map<string, (params: unknown) => void>();
  /** Rejecters of our pending requests, so a close rejects them all at once. */
  private readonly _pending = new Set<(error: Error) => void>();
  private _closed: Error | undefined;
  private readonly _onDidClose = new Emitter<Error>();
  /** Fires once when the connection is closed; carries the reason (an AcpError, or e.g. the agent's exit error). */
  readonly onDidClose: Event<Error> = this._onDidClose.event;
  private readonly _cancelGraceMs: number;
  /** Messages read vs dispatched: a close waits until what was read has been handled. */
  private _received = 0;
  private _dispatched = 0;
  private _closeWhenDrained: { reason: Error; timer: NodeJS.Timeout } | undefined;
  /** Our requests not answered yet: a response to another id is logged as a warning. */
  private readonly _sent = new SentRequests();
  /** Trace ids of this connection, for requests sent while the log traces. */
  private readonly _traceIds = new TraceIds();
  /** The agent chose a newer protocol version in `initialize`: the wire speaks it (src/acp/wireDialect.ts). */
  private _dialect: WireDialect | undefined;

  /** A connection over the agent's stdout (read) and stdin (write), NDJSON framed. */
  static overStreams(readable: NodeJS.ReadableStream, writable: NodeJS.WritableStream, options: AcpConnectionOptions): AcpConnection {
    const ref: { self?: AcpConnection } = {};
    const writer = new NdjsonMessageWriter(writable);
    const readerOptions: NdjsonReaderOptions = {
      maxMessageBytes: options.maxMessageBytes,
      logger: options.logger,
      intercept: (message) => (ref.self ? ref.self.intercept(message) : message),
      onOversized: (info) => ref.self?.onOversized(info, writer),
    };
    ref.self = new AcpConnection(new NdjsonMessageReader(readable, readerOptions), writer, options);
    return ref.self;
  }

  /** A connection over parsed messages (the ACP remote transport: src/acp/messageStream.ts). */
  static overMessages(readable: ReadableStream<object>, writable: WritableStream<object>, options: AcpConnectionOptions): AcpConnection {
    const ref: { self?: AcpConnection } = {};
    return (ref.self = new AcpConnection(new ObjectMessageReader(readable, (m) => (ref.self ? ref.self.intercept(m) : m)), new ObjectMessageWriter(writable), options));
  }

  constructor(reader: MessageReader, private readonly writer: MessageWriter, private readonly options: AcpConnectionOptions) {
    this._cancelGraceMs = options.cancelGraceMs ?? 5000;
    const trace = options.logger.trace?.bind(options.logger);
    this._connection = createMessageConnection(reader, this._sent.wrap(writer, trace), undefined, {
      cancellationStrategy: acpCancellationStrategy,
      messageStrategy: {
        handleMessage: (message, next) => {
          try {
            return next(message);
          } finally {
            this._dispatched++;
            if (this._closeWhenDrained && this._dispatched >= this._received) this.close(this._closeWhenDrained.reason);
          }
        },
      },
    });
    this._connection.onRequest((method, params, token) => this.dispatchRequest(method, params, token));
    this._connection.onNotification((method, params) => this.dispatchNotification(method, params));
    this._connection.onClose(() => {
      const generic = new AcpError('closed', 'The connection to the agent was closed.');
      const grace = options.streamEndGraceMs ?? 0;
      if (grace <= 0) this.closeWhenDrained(generic);
      else setTimeout(() => this.closeWhenDrained(generic), grace);
    });
    this._connection.onError(([error]) => options.logger.warn(`ACP transport: ${error.message}`));
  }

  /** Starts reading messages. */
  listen(): void {
    this._connection.listen();
  }

  /** True once the connection was closed. */
  get isClosed(): boolean {
    return this._closed !== undefined;
  }

  /**
   * Sends a request to the agent and validates the answer.
   * Rejects with AcpError: `remote` (the agent's JSON-RPC error), `protocol` (an answer that does not match
   * the schema), `cancelled` (token fired and the agent did not answer in time), `closed`; or with the reason
   * given to {@link close} (e.g. the agent's exit error).
   */
  request<M extends AgentMethod>(method: M, params: AgentParams<M>, token?: CancellationToken): Promise<AgentResult<M>> {
    // the table's union of schemas, as the one of `method` (the generated table pairs them)
    return this.send(method, params, agentRequests[method].result as unknown as z.ZodMiniType<AgentResult<M>>, token);
  }

  /**
   * Sends a request of an agent's extension (a `_` method, not in the schema:
   * https://agentclientprotocol.com/protocol/extensibility), or one only ACP v2 has; checks the answer with `result`, rejects like {@link request}.
   */
  requestExtension<T>(method: `_${string}` | V2OnlyMethod, params: Record<string, unknown>, result: z.ZodMiniType<T>, token?: CancellationToken): Promise<T> {
    return this.send(method, params, result, token);
  }

  private send<T>(method: string, given: unknown, result: z.ZodMiniType<T>, token?: CancellationToken): Promise<T> {
    if (this._closed) return Promise.reject(this._closed);
    const params = this.options.translate ? this.options.translate.outgoing(method, given) : given;
    let wire: Omit<DialectRequest, 'finish'> & Partial<DialectRequest> = { method, params, result };
    try {
      if (this._dialect) wire = this._dialect.request(method, params);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let graceTimer: NodeJS.Timeout | undefined;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        this._pending.delete(onClose);
        if (graceTimer) clearTimeout(graceTimer);
        cancelListener?.dispose();
        fn();
      };
      const onClose = (error: Error) => settle(() => reject(error));
      this._pending.add(onClose);
      const cancelListener = token?.onCancellationRequested(() => {
        graceTimer = setTimeout(() => settle(() => reject(AcpError.cancelled(`'${method}' was cancelled and the agent did not answer within ${this._cancelGraceMs} ms`))), this._cancelGraceMs);
      });
      const sent = this.options.logger.traceEnabled?.() ? this._traceIds.stamp(wire.params).params : wire.params;
      this._connection.sendRequest(wire.method, sent, token ?? CancellationToken.None).then(
        (raw: unknown) => settle(() => {
          // the ACP guide's examples answer some methods (session/load, fs/write_text_file) with `null`
          // where the schema has an object
          const parsed = wire.result.safeParse(raw === null || raw === undefined ? {} : raw);
          if (parsed.success && wire.finish) resolve(Promise.resolve(wire.finish(parsed.data)).then((v) => checked(method, result, v)));
          else if (parsed.success) resolve(parsed.data as T);
          else reject(new AcpError('protocol', `The agent's answer to '${method}' is invalid: ${formatIssues(parsed.error)}`, AcpErrorCodes.InvalidParams));
        }),
        (error: unknown) => settle(() => { wire.failed?.(); reject(fromWireError(method, error)); }),
      );
    });
  }

  /** Sends a notification to the agent (e.g. `session/cancel`). Never throws; failures are logged. */
  notify<M extends AgentNotificationMethod>(method: M, params: AgentNotificationParams<M>): void {
    if (this._closed) return;
    const p = (this.options.translate ? this.options.translate.outgoing(method, params) : params) as AgentNotificationParams<M>;
    const wire = this._dialect ? this._dialect.notification(method, p) : { method, params: p };
    if (!wire) return;
    this._connection.sendNotification(wire.method, wire.params).catch((error: unknown) => this.options.logger.warn(`could not send '${method}': ${String(error)}`));
  }

  /** Registers the handler of one agent→client request; params are validated before it runs. */
  onRequest<M extends ClientMethod>(method: M, handler: ClientRequestHandler<M>): Disposable {
    this._requestHandlers.set(method, handler as (params: unknown, token: CancellationToken) => unknown);
    return { dispose: () => { if (this._requestHandlers.get(method) === handler) this._requestHandlers.delete(method); } };
  }

  /** Registers the handler of one agent→client notification; params are validated before it runs. */
  onNotification<M extends ClientNotificationMethod>(method: M, handler: ClientNotificationHandler<M>): Disposable {
    this._notificationHandlers.set(method, handler as (params: unknown) => void);
    return { dispose: () => { if (this._notificationHandlers.get(method) === handler) this._notificationHandlers.delete(method); } };
  }

  /**
   * `initialize`: sends our protocol version, capabilities and clientInfo, or (`offer`) a newer version's params; if
   * the agent answers a version we do not support, closes the connection and rejects with reason
   * `unsupportedVersion`, as the protocol asks of clients (https://agentclientprotocol.com/protocol/initialization).
   * When it chooses the offered version, the wire speaks its dialect from here on (src/acp/wireDialect.ts).
   */
  async initialize(params: Omit<InitializeRequest, 'protocolVersion'>, token?: CancellationToken, offer?: VersionOffer): Promise<InitializeResponse> {
    const v1 = { ...params, protocolVersion };
    const raw = await this.send('initialize', offer ? offer.params(v1) : v1, z.unknown(), token);
    const version = (raw as { protocolVersion?: unknown }).protocolVersion;
    if (offer && version === offer.protocolVersion) {
      const accepted = offer.accept(raw);
      this._dialect = accepted.dialect;
      return agentRequests.initialize.result.parse(accepted.response);
    }
    const result = agentRequests.initialize.result.safeParse(raw);
    if (!result.success) throw new AcpError('protocol', `The agent's answer to 'initialize' is invalid: ${formatIssues(result.error)}`, AcpErrorCodes.InvalidParams);
    if (result.data.protocolVersion !== protocolVersion) {
      const error = new AcpError('unsupportedVersion', `The agent speaks ACP protocol version ${String(version)}; Switchboard supports version ${offer ? `${protocolVersion} and ${offer.protocolVersion}` : protocolVersion}.`);
      this.close(error);
      throw error;
    }
    return result.data;
  }

  /**
   * @internal Every message the reader parsed, in arrival order. Requests, responses and cancellations go on to
   * vscode-jsonrpc, which dispatches one message per event-loop turn. A notification is handled right here,
   * synchronously, when nothing read before it is still waiting in vscode-jsonrpc's queue: arrival order is
   * kept either way, and a stream of `session/update`s no longer pays an event-loop turn per message
   * (benchmark 1, test/bench). Otherwise it joins the queue behind the messages it must follow.
   */
  intercept(message: Message): Message | undefined {
    this.options.logger.trace?.('receive', message);
    const stray = this._sent.check(message);
    if (stray) this.options.logger.warn(stray);
    const n = message as NotificationMessage;
    if (n.method === cancelRequestMethod && !('id' in message)) {
      // ACP `$/cancel_request {requestId}` → vscode-jsonrpc's `$/cancelRequest {id}`, so its tokens fire;
      // vscode-jsonrpc handles it on arrival without dispatching it, so it is not counted
      const requestId = (n.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        return { jsonrpc: '2.0', method: jsonrpcCancelMethod, params: { id: requestId } } as NotificationMessage;
      }
      return undefined;
    }
    if (typeof n.method === 'string' && !('id' in message) && this._received === this._dispatched && !this._closed) {
      this.dispatchNotification(n.method, n.params);
      return undefined;
    }
    this._received++;
    return message;
  }

  /**
   * Closes the connection once every message already read from the agent has been handled (so the last
   * updates an agent wrote before exiting are not lost), or after `maxWaitMs` at the latest.
   */
  closeWhenDrained(reason: Error, maxWaitMs = 500): void {
    if (this._closed || this._closeWhenDrained) return;
    if (this._dispatched >= this._received) {
      this.close(reason);
      return;
    }
    this._closeWhenDrained = { reason, timer: setTimeout(() => this.close(reason), maxWaitMs) };
  }

  /**
   * Closes the connection: every pending request is rejected with `reason` (default: an AcpError `closed`;
   * the host passes the agent's exit error, so callers see the exit code and stderr), handlers stop, and the
   * writer is released. Idempotent.
   */
  close(reason?: Error): void {
    if (this._closed) return;
    this._closed = reason ?? new AcpError('closed', 'The connection to the agent was closed.');
    if (this._closeWhenDrained) clearTimeout(this._closeWhenDrained.timer);
    const error = this._closed;
    for (const reject of [...this._pending]) reject(error);
    this._pending.clear();
    this._dialect?.close(error);
    this._onDidClose.fire(error);
    this._connection.dispose();
    this.writer.dispose();
    this._onDidClose.dispose();
  }

  private async dispatchRequest(wireMethod: string, wireParams: unknown, token: CancellationToken): Promise<unknown> {
    const incoming = this._dialect ? this._dialect.incomingRequest(wireMethod, wireParams) : { method: wireMethod, params: wireParams };
    if ('error' in incoming) return new ResponseError(incoming.error.code, incoming.error.message, incoming.error.data);
    const { method, params } = incoming;
    for (const m of ('before' in incoming && incoming.before) || []) this.dispatchNotification(m.method, m.params);
    const handler = this._requestHandlers.get(method);
    const spec = (clientRequests as Record<string, { params: z.ZodMiniType } | undefined>)[method];
    if (!handler || !spec) {
      this.options.logger.info(`answered -32601 to the agent's unknown request '${method}'`);
      return new ResponseError(AcpErrorCodes.MethodNotFound, `Method not found: ${method}`);
    }
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) {
      const message = `Invalid params for '${method}': ${formatIssues(parsed.error)}`;
      this.options.logger.warn(message);
      return new ResponseError(AcpErrorCodes.InvalidParams, message, { issues: parsed.error.issues });
    }
    if (token.isCancellationRequested) return new ResponseError(AcpErrorCodes.RequestCancelled, 'Request cancelled');
    try {
      const data = this.options.translate ? this.options.translate.incoming(method, parsed.data) : parsed.data;
      return await raceCancellation(Promise.resolve(handler(data, token)), token);
    } catch (error) {
      return toResponseError(error);
    }
  }

  private dispatchNotification(method: string, params: unknown): void {
    if (!this._dialect) return this.dispatchV1Notification(method, params);
    for (const m of this._dialect.incomingNotification(method, params)) this.dispatchV1Notification(m.method, m.params);
    this._dialect.dispatched?.();
  }

  private dispatchV1Notification(method: string, params: unknown): void {
    const handler = this._notificationHandlers.get(method);
    const spec = (clientNotifications as Record<string, { params: z.ZodMiniType } | undefined>)[method];
    if (!handler || !spec) {
      if (!method.startsWith('$/')) this.options.logger.info(`ignored the agent's notification '${method}'`);
      return;
    }
    const unknown = method === 'session/update' ? unknownSessionUpdateTag(params) : undefined;
    if (unknown) {
      // a newer agent's kind or plan format: log and ignore, as clients must (src/acp/unknownKinds.ts)
      this.options.logger.info(unknown);
      return;
    }
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) {
      this.options.logger.warn(`ignored an invalid '${method}' notification: ${formatIssues(parsed.error)}`);
      return;
    }
    try {
      handler(this.options.translate ? this.options.translate.incoming(method, parsed.data) : parsed.data);
    } catch (error) {
      this.options.logger.error(`the handler of '${method}' failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  }

  /** A request from the agent was over the cap and dropped: answer it with an error so the agent does not wait. */
  private onOversized(info: OversizedMessage, writer: MessageWriter): void {
    if (info.id === undefined || !info.method) return;
    const message = `Request of ${info.bytes} bytes exceeds the ${info.limit}-byte cap on one ACP message`;
    writer.write({ jsonrpc: '2.0', id: info.id, error: { code: AcpErrorCodes.InvalidRequest, message } } as Message).catch(() => undefined);
  }
}
