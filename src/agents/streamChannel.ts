/**
 * The connection to an agent served over the ACP remote transport (an RFD: Streamable HTTP or WebSocket), through
 * the official SDK's client streams (`experimental/ws-client`, `experimental/http-client`): nothing runs here, the
 * channel is the agent's "process" for the host (docs/remote-agents.md). Its end (the socket closed, the HTTP
 * connection gone) is the agent's exit, reason `disconnected`, which the host turns into a reconnection
 * (src/host/lifecycle/reconnect.ts). Loaded on first use (esbuild.mjs, lazy modules): the `ws` client and the SDK's
 * transports weigh nothing for users who run no such agent.
 */
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { type AcpCookieStore, createWebSocketStream, MemoryAcpCookieStore } from '@agentclientprotocol/sdk/experimental/ws-client';
import WebSocket from 'ws';
import { Emitter, type Event } from '../acp/events';
import { defaultMaxMessageBytes } from '../acp/ndjson';
import type { AgentExit } from './agentProcess';
import { AgentExitedError } from './agentErrors';
import type { StreamTransport } from './agentTransport';

export { MemoryAcpCookieStore, type AcpCookieStore };

/** How long a WebSocket handshake may take before the attempt counts as failed. */
const handshakeTimeoutMs = 15_000;

/** What opening a channel needs. */
export interface StreamChannelOptions {
  readonly agentName: string;
  readonly type: StreamTransport['type'];
  /** The endpoint, checked (src/agents/agentTransport.ts, endpointProblem). */
  readonly url: string;
  /** Header values (from SecretStorage), sent at every request or handshake. */
  readonly headers: Readonly<Record<string, string>>;
  /** The affinity cookies, kept across reconnections of the same agent (the RFD's routing affinity). */
  readonly cookieStore: AcpCookieStore;
}

/** One connection to an agent served elsewhere. */
export class StreamChannel {
  /** The parsed messages from the agent (read by AcpConnection.overMessages). */
  readonly readable: ReadableStream<object>;
  /** The messages to the agent. */
  readonly writable: WritableStream<object>;
  readonly onDidExit: Event<AgentExit>;
  readonly exited: Promise<AgentExit>;
  /** Nothing runs here. */
  readonly pid = undefined;
  private readonly _onDidExit = new Emitter<AgentExit>();
  private _exit: AgentExit | undefined;
  private _requested = false;
  private readonly _abort = new AbortController();
  private _resolveExited!: (exit: AgentExit) => void;
  /** The WebSocket's last close code and reason, or its error, for the exit message. */
  private _why: string | undefined;

  private constructor(private readonly options: StreamChannelOptions, stream: { readable: ReadableStream<object>; writable: WritableStream<object> }) {
    this.onDidExit = this._onDidExit.event;
    this.exited = new Promise((resolve) => { this._resolveExited = resolve; });
    // through pipes that stop() can abort, which closes the transport whoever holds the ends
    const incoming = new TransformStream<object, object>();
    const outgoing = new TransformStream<object, object>();
    this.readable = incoming.readable;
    this.writable = outgoing.writable;
    const signal = this._abort.signal;
    // the agent's messages end when the transport does: that is this channel's exit
    stream.readable.pipeTo(incoming.writable, { signal }).then(() => this.end(), (error: unknown) => this.end(error));
    outgoing.readable.pipeTo(stream.writable, { signal }).catch(() => undefined);
  }

  /** Where the channel connects, for the log. */
  get commandPath(): string { return this.options.url; }

  /**
   * Opens a channel. A WebSocket is open when this resolves (a refused or failed handshake rejects, with the
   * server's status when it answered); an HTTP channel connects with its first request (`initialize`).
   */
  static async open(options: StreamChannelOptions): Promise<StreamChannel> {
    if (options.type === 'http') {
      const stream = createHttpStream(options.url, { headers: { ...options.headers }, cookieStore: options.cookieStore, maxMessageBytes: defaultMaxMessageBytes });
      return new StreamChannel(options, stream);
    }
    let socket: WebSocket | undefined;
    let refused: string | undefined;
    const created = (ws: WebSocket) => { socket = ws; };
    // the `ws` client (Node 20 has no WebSocket), with a handshake timeout and the message cap of the stdio transport
    class Socket extends WebSocket {
      constructor(address: string, protocols?: string | string[], init?: { headers?: Record<string, string> }) {
        super(address, protocols, { headers: init?.headers, handshakeTimeout: handshakeTimeoutMs, maxPayload: defaultMaxMessageBytes });
        created(this);
        this.once('unexpected-response', (_req, res) => {
          refused = `the server answered HTTP ${res.statusCode ?? '?'}${res.statusMessage ? ` ${res.statusMessage}` : ''}`;
          this.terminate();
        });
      }
    }
    const stream = createWebSocketStream(options.url, { headers: { ...options.headers }, WebSocket: Socket, cookieStore: options.cookieStore });
    const channel = new StreamChannel(options, stream);
    const ws = socket;
    if (!ws) throw new Error('the WebSocket was not created');
    ws.on('close', (code, reason) => { channel._why ??= `closed (code ${code}${reason.length ? `: ${reason.toString()}` : ''})`; });
    ws.on('error', (error) => { channel._why = refused ?? describeNetworkError(error); });
    if (ws.readyState !== WebSocket.OPEN) {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        channel.exited.then(() => reject(new Error(`${options.url}: ${refused ?? channel._why ?? 'the connection closed'}`)), () => undefined);
      });
    }
    return channel;
  }

  private end(error?: unknown): void {
    if (this._exit) return;
    const lost = `${this.options.url} ${this._why ?? (error === undefined ? 'closed' : describeNetworkError(error))}`;
    const requested = this._requested;
    const exit: AgentExit = {
      code: null, signal: null, requested, stderrTail: [lost],
      error: new AgentExitedError({ agentName: this.options.agentName, code: null, signal: null, stderrTail: [lost], requested, ...(requested ? {} : { lost }) }),
    };
    this._exit = exit;
    this._resolveExited(exit);
    this._onDidExit.fire(exit);
  }

  /** Closes the connection (the HTTP transport tells the server with DELETE); the exit is `requested`. */
  stop(): Promise<void> {
    this._requested = true;
    if (!this._exit) {
      this._abort.abort();
      this.end();
    }
    return Promise.resolve();
  }
}

/** A network error as a sentence part: "ECONNREFUSED", "getaddrinfo ENOTFOUND acp.example". */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause.message : undefined;
  return inner && !error.message.includes(inner) ? `${error.message} (${inner})` : error.message;
}
