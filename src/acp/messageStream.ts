/**
 * vscode-jsonrpc's reader and writer over a stream of parsed messages: the ACP remote transport (Streamable HTTP
 * and WebSocket, the SDK's `experimental/http-client` and `experimental/ws-client`: docs/remote-agents.md) frames
 * and parses the messages itself, so they reach the connection as objects, without NDJSON in between. The SDK
 * already refuses what is not a JSON object (batches included) and caps a message's size.
 */
import { AbstractMessageReader, AbstractMessageWriter } from 'vscode-jsonrpc/node';
import type { DataCallback, Disposable, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc/node';

/** Reads messages from a web ReadableStream; `intercept` as in NdjsonReaderOptions (src/acp/ndjson.ts). */
export class ObjectMessageReader extends AbstractMessageReader implements MessageReader {
  private _stopped = false;
  private _reader: ReadableStreamDefaultReader<object> | undefined;

  constructor(private readonly readable: ReadableStream<object>, private readonly intercept?: (message: Message) => Message | undefined) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const reader = this.readable.getReader();
    this._reader = reader;
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done || this._stopped) break;
          if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
          const m = this.intercept ? this.intercept(value as Message) : (value as Message);
          if (m) callback(m);
        }
      } catch (error) {
        this.fireError(error instanceof Error ? error : new Error(String(error)));
      }
      this.fireClose();
    })();
    return { dispose: () => this.stop() };
  }

  private stop(): void {
    this._stopped = true;
    this._reader?.cancel().catch(() => undefined);
  }

  override dispose(): void {
    this.stop();
    super.dispose();
  }
}

/** Writes messages to a web WritableStream, in call order; each promise settles when the transport took it. */
export class ObjectMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private readonly _writer: WritableStreamDefaultWriter<object>;
  private _errorCount = 0;

  constructor(writable: WritableStream<object>) {
    super();
    this._writer = writable.getWriter();
    this._writer.closed.then(() => this.fireClose(), () => this.fireClose());
  }

  async write(msg: Message): Promise<void> {
    try {
      await this._writer.write(msg);
      this._errorCount = 0;
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      this.fireError(e, msg, ++this._errorCount);
      throw e;
    }
  }

  end(): void {
    this._writer.close().catch(() => undefined);
  }
}
