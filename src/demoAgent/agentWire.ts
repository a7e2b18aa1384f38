import * as acp from '@agentclientprotocol/sdk/unstable';
import type { AgentIo } from './agentIo';

/** A JSON-RPC id as it appears on the wire. */
export type WireId = string | number | null;

/** The response to a request sent with `AgentWire.sendRawRequest`. */
export interface RawResponse {
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `_meta.traceparent` of a request's params (the client sends it while its log traces), if any. */
function traceparentOf(params: unknown): string | undefined {
  const meta = isRecord(params) ? params._meta : undefined;
  return isRecord(meta) && typeof meta.traceparent === 'string' ? meta.traceparent : undefined;
}

/** Short text for a log line: the session id and, for prompts, the start of the prompt. */
function describeParams(method: string, params: unknown): string {
  if (!isRecord(params)) {
    return '';
  }
  const parts: string[] = [];
  if (typeof params.sessionId === 'string') {
    parts.push(params.sessionId);
  }
  if (method === 'session/prompt' && Array.isArray(params.prompt)) {
    const text = params.prompt.map((b: unknown) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join(' ');
    parts.push(JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text));
  }
  if (method === '$/cancel_request' && 'requestId' in params) {
    parts.push(`requestId=${JSON.stringify(params.requestId)}`);
  }
  const traceparent = traceparentOf(params);
  if (traceparent) {
    parts.push(`traceparent=${traceparent}`);
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

/**
 * The byte level of a scripted agent's connection. It hands the SDK a message `Stream` built with the
 * SDK's own `ndJsonStream`, and adds what the SDK cannot do:
 * - raw writes to stdout, ordered with the SDK's messages (non-JSON lines, split lines, any JSON);
 * - requests with ids of our choosing (the SDK numbers its requests 0, 1, 2, …), whose responses are
 *   taken out of the incoming stream before the SDK sees them;
 * - one log line per received message.
 */
export class AgentWire {
  /** The message stream to connect the SDK agent to. */
  readonly stream: acp.Stream;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private readonly rawPending = new Map<string, { resolve: (r: RawResponse) => void; reject: (e: Error) => void }>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** `<method> <traceparent or none>` of every request received (template `{{traceparents}}`). */
  readonly traceparents: string[] = [];
  /**
   * The client capabilities of the last `initialize` as the client sent them, keys the SDK's parse does not know
   * included (a step may require a capability of a newer schema than the SDK's).
   */
  rawClientCapabilities: unknown;

  constructor(io: AgentIo, private readonly log: (line: string) => void) {
    this.writer = io.output.getWriter();
    const sdkOutput = new WritableStream<Uint8Array>({ write: (chunk) => this.writeBytes(chunk) });
    const base = acp.ndJsonStream(sdkOutput, io.input);
    const tap = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      transform: (message, controller) => {
        if (!this.intercept(message)) {
          controller.enqueue(message);
        }
      },
    });
    this.stream = { readable: base.readable.pipeThrough(tap), writable: base.writable };
  }

  /** Writes bytes to stdout after everything written before. */
  writeBytes(chunk: Uint8Array): Promise<void> {
    if (this.closed) {
      return Promise.reject(new Error('stdout is closed'));
    }
    const write = this.queue.then(() => this.writer.write(chunk));
    this.queue = write.catch(() => undefined);
    return write;
  }

  /** Writes `text` plus (unless `newline` is false) "\n" to stdout, as is. */
  writeLine(text: string, newline = true): Promise<void> {
    return this.writeBytes(this.encoder.encode(newline ? `${text}\n` : text));
  }

  /** Writes one JSON-RPC message as a line, bypassing the SDK. */
  writeMessage(message: Record<string, unknown>): Promise<void> {
    return this.writeLine(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  /**
   * Sends a request with the given id and resolves with the client's response. Aborting `signal`
   * sends `$/cancel_request` for it (the response is still awaited).
   */
  async sendRawRequest(id: Exclude<WireId, null>, method: string, params: unknown, signal?: AbortSignal): Promise<RawResponse> {
    const key = JSON.stringify(id);
    const response = new Promise<RawResponse>((resolve, reject) => this.rawPending.set(key, { resolve, reject }));
    await this.writeMessage({ id, method, params });
    signal?.addEventListener('abort', () => {
      this.writeMessage({ method: '$/cancel_request', params: { requestId: id } }).catch(() => undefined);
    }, { once: true });
    return response;
  }

  /** Resolves when everything written so far has reached stdout. */
  flush(): Promise<void> {
    return this.queue;
  }

  /** Fails the pending raw requests and closes stdout. */
  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    for (const pending of this.rawPending.values()) {
      pending.reject(new Error('connection closed'));
    }
    this.rawPending.clear();
    await this.queue;
    this.closed = true;
    await this.writer.close().catch(() => undefined);
  }

  /** Logs a received message; returns true if it answers one of our raw requests. */
  private intercept(message: acp.AnyMessage): boolean {
    const record: Record<string, unknown> = message;
    const id = record.id;
    if (typeof record.method === 'string') {
      if (record.method === 'initialize' && isRecord(record.params)) this.rawClientCapabilities = record.params.clientCapabilities;
      const idText = 'id' in record ? ` #${JSON.stringify(id)}` : '';
      if ('id' in record && this.traceparents.length < 1000) {
        this.traceparents.push(`${record.method} ${traceparentOf(record.params) ?? 'none'}`);
      }
      this.log(`←${idText} ${record.method}${describeParams(record.method, record.params)}`);
      return false;
    }
    const outcome = isRecord(record.error) ? `error ${String(record.error.code)} ${String(record.error.message)}` : 'ok';
    this.log(`← response #${JSON.stringify(id)} ${outcome}`);
    const pending = this.rawPending.get(JSON.stringify(id));
    if (!pending || (typeof id !== 'string' && typeof id !== 'number')) {
      return false;
    }
    this.rawPending.delete(JSON.stringify(id));
    if (isRecord(record.error)) {
      pending.resolve({
        error: { code: Number(record.error.code), message: String(record.error.message), data: record.error.data },
      });
    } else {
      pending.resolve({ result: record.result });
    }
    return true;
  }
}
