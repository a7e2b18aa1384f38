/**
 * Newline-delimited JSON framing for vscode-jsonrpc (ACP stdio transport,
 * https://agentclientprotocol.com/protocol/transports).
 *
 * vscode-jsonrpc's own StreamMessageReader expects `Content-Length` headers; ACP sends one compact JSON
 * message per line. These classes plug NDJSON into vscode-jsonrpc's reader/writer abstractions, like the
 * official SDK's line buffer does for its own stream: split at byte level on `\n`, tolerate `\r\n`,
 * cap one message, and log-and-skip what is not JSON, without ever closing the connection for bad input.
 */
import { AbstractMessageReader, AbstractMessageWriter } from 'vscode-jsonrpc/node';
import type { DataCallback, Disposable, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';

/** One MiB. */
const MiB = 1024 * 1024;
/** The default cap on one message: 64 MiB. */
export const defaultMaxMessageBytes = 64 * MiB;
/** How much of an oversized line is kept to find its `id` and `method`. */
const oversizedHeadBytes = 4096;

/** Where the framing layer reports what it skipped. */
export interface NdjsonLogger {
  warn(message: string): void;
}

/** A message that was over the cap and dropped: what could be read from its first bytes. */
export interface OversizedMessage {
  readonly bytes: number;
  readonly limit: number;
  /** The JSON-RPC id, when it stood in the first bytes. */
  readonly id?: string | number;
  /** The method, when the message was a request or notification. */
  readonly method?: string;
  /** True when the head looked like a response (an id but no method). */
  readonly isResponse: boolean;
}

/** Options of {@link NdjsonMessageReader}. */
export interface NdjsonReaderOptions {
  /** Cap on one message in bytes (default 64 MiB). */
  readonly maxMessageBytes?: number;
  readonly logger?: NdjsonLogger;
  /**
   * Sees each parsed message before vscode-jsonrpc does; returns the message to deliver (possibly rewritten,
   * e.g. ACP `$/cancel_request` → `$/cancelRequest`) or undefined when it handled the message itself.
   */
  readonly intercept?: (message: Message) => Message | undefined;
  /** Called for every message over the cap, after it was dropped (a response is already answered with an error). */
  readonly onOversized?: (info: OversizedMessage) => void;
}

/**
 * Reads NDJSON messages from a byte stream. Lines split across chunks are reassembled; several messages in
 * one chunk are delivered in order; a trailing `\r` is stripped; blank lines are ignored; a line that is not
 * a JSON object is logged and skipped; a line longer than the cap is dropped while it streams in (memory
 * stays bounded), reported through `onOversized` and `onError`, and reading goes on with the next line.
 */
export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly _max: number;
  private _callback: DataCallback | undefined;
  /** Bytes of the current, incomplete line. */
  private _pending: Buffer[] = [];
  private _pendingBytes = 0;
  /** Set while the current line is over the cap and being dropped. */
  private _oversized: { head: Buffer; bytes: number } | undefined;
  private readonly _listeners: Array<() => void> = [];

  constructor(private readonly readable: NodeJS.ReadableStream, private readonly options: NdjsonReaderOptions = {}) {
    super();
    this._max = options.maxMessageBytes ?? defaultMaxMessageBytes;
  }

  /** Starts reading; `callback` gets every message in arrival order. */
  listen(callback: DataCallback): Disposable {
    this._callback = callback;
    const onData = (chunk: Buffer | string) => this.onData(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    const onEnd = () => { this.flushAtEnd(); this.fireClose(); };
    const onError = (error: Error) => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    this.readable.on('error', onError);
    this._listeners.push(() => {
      this.readable.off('data', onData);
      this.readable.off('end', onEnd);
      this.readable.off('close', onEnd);
      this.readable.off('error', onError);
    });
    return { dispose: () => this.stop() };
  }

  private stop(): void {
    this._listeners.splice(0).forEach((off) => off());
    this._callback = undefined;
  }

  override dispose(): void {
    this.stop();
    super.dispose();
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      if (this._oversized) this.finishOversized(nl - start);
      else if (this._pendingBytes === 0 && nl - start <= this._max) this.onLine(chunk, start, nl);
      else {
        const size = this._pendingBytes + (nl - start);
        if (size > this._max) {
          this.beginOversized(chunk.subarray(start, nl));
          this.finishOversized(0);
        } else {
          this._pending.push(chunk.subarray(start, nl));
          const line = Buffer.concat(this._pending, size);
          this._pending = [];
          this._pendingBytes = 0;
          this.onLine(line, 0, line.length);
        }
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.keepPartial(chunk.subarray(start));
  }

  /** Keeps the unterminated tail of a chunk, switching to "drop" once it passes the cap. */
  private keepPartial(part: Buffer): void {
    if (this._oversized) {
      this._oversized.bytes += part.length;
      return;
    }
    if (this._pendingBytes + part.length > this._max) {
      this.beginOversized(part);
      return;
    }
    // copy: the stream may reuse its chunk buffers
    this._pending.push(Buffer.from(part));
    this._pendingBytes += part.length;
  }

  private beginOversized(lastPart: Buffer): void {
    const head = Buffer.concat([...this._pending, lastPart.subarray(0, oversizedHeadBytes)]).subarray(0, oversizedHeadBytes);
    this._oversized = { head: Buffer.from(head), bytes: this._pendingBytes + lastPart.length };
    this._pending = [];
    this._pendingBytes = 0;
  }

  private finishOversized(lastBytes: number): void {
    const o = this._oversized;
    if (!o) return;
    o.bytes += lastBytes;
    this._oversized = undefined;
    const info = describeOversized(o.head, o.bytes, this._max);
    const what = info.method ? `'${info.method}'` : info.isResponse ? `response to request ${String(info.id)}` : 'message';
    const text = `Dropped a ${what} of ${formatBytes(info.bytes)}: over the ${formatBytes(this._max)} cap on one ACP message.`;
    this.options.logger?.warn(text);
    this.fireError(new Error(text));
    if (info.isResponse && info.id !== undefined) {
      // answer the waiting request with an error instead of letting it hang
      this._callback?.({ jsonrpc: '2.0', id: info.id, error: { code: -32603, message: text } } as Message);
    }
    this.options.onOversized?.(info);
  }

  private onLine(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === 13) end--; // tolerate CRLF
    if (end === start) return;
    let message: unknown;
    try {
      message = JSON.parse(buf.toString('utf8', start, end));
    } catch {
      this.skip(buf, start, end, 'is not JSON');
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.skip(buf, start, end, Array.isArray(message) ? 'is a JSON array (ACP has no batches)' : 'is not a JSON object');
      return;
    }
    const callback = this._callback;
    if (!callback) return;
    const m = this.options.intercept ? this.options.intercept(message as Message) : (message as Message);
    if (m) callback(m);
  }

  private skip(buf: Buffer, start: number, end: number, why: string): void {
    const preview = buf.toString('utf8', start, Math.min(end, start + 200));
    this.options.logger?.warn(`Skipped a line from the agent that ${why}: ${JSON.stringify(preview)}${end - start > 200 ? '…' : ''}`);
  }

  /** A last line without a newline at the end of the stream still counts. */
  private flushAtEnd(): void {
    if (this._pendingBytes > 0 && !this._oversized) {
      const line = Buffer.concat(this._pending, this._pendingBytes);
      this._pending = [];
      this._pendingBytes = 0;
      this.onLine(line, 0, line.length);
    }
  }
}

/** Reads `id` and `method` from the first bytes of a dropped message. */
function describeOversized(head: Buffer, bytes: number, limit: number): OversizedMessage {
  const text = head.toString('utf8');
  // only look before the payload starts, so text inside `params`/`result` cannot fool us
  const payloadAt = text.search(/"(params|result|error)"\s*:/);
  const envelope = payloadAt === -1 ? text : text.slice(0, payloadAt);
  const idMatch = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(envelope);
  const methodMatch = /"method"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(envelope);
  let id: string | number | undefined;
  if (idMatch) id = idMatch[1].startsWith('"') ? (JSON.parse(idMatch[1]) as string) : Number(idMatch[1]);
  const method = methodMatch ? (JSON.parse(`"${methodMatch[1]}"`) as string) : undefined;
  const isResponse = id !== undefined && method === undefined && /"(result|error)"\s*:/.test(text);
  return { bytes, limit, id, method, isResponse };
}

function formatBytes(n: number): string {
  return n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}

/**
 * Writes each message as one compact JSON line. Writes are ordered (one `stream.write` per message, in call
 * order) and each returned promise settles when its bytes were handed to the stream; JSON.stringify never
 * emits a raw newline, so a message cannot break the framing.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private _errorCount = 0;

  constructor(private readonly writable: NodeJS.WritableStream) {
    super();
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let line: string;
    try {
      line = `${JSON.stringify(msg)}\n`;
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise((resolve, reject) => {
      const w = this.writable as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
      if (w.destroyed || w.writableEnded) {
        const error = new Error('The agent\'s stdin is closed.');
        this.fireError(error, msg, ++this._errorCount);
        reject(error);
        return;
      }
      this.writable.write(line, 'utf8', (error?: Error | null) => {
        if (error) {
          this.fireError(error, msg, ++this._errorCount);
          reject(error);
        } else {
          this._errorCount = 0;
          resolve();
        }
      });
    });
  }

  end(): void {
    this.writable.end();
  }
}
