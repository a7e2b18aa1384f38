/**
 * A raw NDJSON peer for protocol tests: what it writes arrives at our reader byte for byte (so framing
 * edge cases can be produced), and every line our writer sends is parsed and queued for `next()`.
 */
import { PassThrough } from 'node:stream';
import { AcpConnection } from '../../../src/acp/connection';
import type { AcpConnectionOptions, AcpLogger } from '../../../src/acp/connection';

/** A logger that records what it was told. */
export class RecordingLogger implements AcpLogger {
  readonly lines: string[] = [];
  info(m: string): void { this.lines.push(`info ${m}`); }
  warn(m: string): void { this.lines.push(`warn ${m}`); }
  error(m: string): void { this.lines.push(`error ${m}`); }
  has(re: RegExp): boolean { return this.lines.some((l) => re.test(l)); }
}

/** JSON of a message the client sent. */
export type Sent = { jsonrpc: string; id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

/** Our AcpConnection wired to a scripted raw peer. */
export class RawPeer {
  readonly toClient = new PassThrough();
  readonly fromClient = new PassThrough();
  readonly logger = new RecordingLogger();
  readonly connection: AcpConnection;
  private readonly queue: Sent[] = [];
  private waiters: Array<(m: Sent) => void> = [];
  private buffered = '';

  constructor(options: Partial<AcpConnectionOptions> = {}) {
    this.connection = AcpConnection.overStreams(this.toClient, this.fromClient, { logger: this.logger, ...options });
    this.fromClient.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) !== -1) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        const msg = JSON.parse(line) as Sent;
        const w = this.waiters.shift();
        if (w) w(msg); else this.queue.push(msg);
      }
    });
    this.connection.listen();
  }

  /** Writes raw bytes to the client. */
  write(data: string | Buffer): void {
    this.toClient.write(data);
  }

  /** Writes one message as a JSON line. */
  send(message: object): void {
    this.toClient.write(`${JSON.stringify(message)}\n`);
  }

  /** The next message the client sent (fails after `ms`). */
  next(ms = 2000): Promise<Sent> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.waiters = this.waiters.filter((w) => w !== done); reject(new Error(`no message from the client within ${ms} ms`)); }, ms);
      const done = (m: Sent) => { clearTimeout(timer); resolve(m); };
      this.waiters.push(done);
    });
  }

  /** Ends the stream from the peer (as if the agent closed its stdout). */
  end(): void {
    this.toClient.end();
  }
}

/** Resolves after `ms`. */
export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until `cond()` holds (polling), or fails after `ms`. */
export async function until(cond: () => boolean, ms = 2000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}
