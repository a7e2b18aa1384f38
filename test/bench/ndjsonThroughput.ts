/**
 * Benchmark 1: 100,000 `session/update` notifications through the protocol layer.
 *
 * The same bytes (agent_message_chunk updates of ~200 bytes of Markdown, as an agent streams them) go
 * through three pipelines in the same run, so the ratios do not depend on the machine:
 *   raw   line split + JSON.parse (the floor: no dispatch, no validation)
 *   sdk   the official @agentclientprotocol/sdk client connection (ndJsonStream + its zod validation)
 *   ours  NdjsonMessageReader → AcpConnection (vscode-jsonrpc) → zod validation → handler
 * Each is run several times; the best run counts (least disturbed by GC and the other core).
 */
import { PassThrough, Readable } from 'node:stream';
import { AcpConnection } from '../../src/acp/connection';

/** A result line of the benchmark. */
export interface ThroughputResult {
  readonly name: string;
  readonly messagesPerSecond: number;
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Builds the NDJSON bytes of `count` session/update notifications, cut into 64 KiB chunks. */
export function makeUpdates(count: number): { chunks: Buffer[]; bytes: number } {
  const texts = [
    'Here is the plan: **read** the file, then `edit` it.\n\n- first item\n- second item with a [link](https://example.com)\n',
    '```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n',
    '## Heading\n\nSome prose that goes on for a while, with *emphasis*, numbers 12345 and unicode ✓ — done.\n',
  ];
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'sess_bench', update: { sessionUpdate: 'agent_message_chunk', messageId: 'msg_1', content: { type: 'text', text: texts[i % texts.length] } } },
    }));
  }
  const all = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < all.length; i += 65536) chunks.push(all.subarray(i, i + 65536));
  return { chunks, bytes: all.length };
}

/** raw: byte-level split + JSON.parse, counting objects. */
export function runRaw(chunks: Buffer[], count: number): number {
  const t0 = process.hrtime.bigint();
  let n = 0;
  let pending: Buffer | undefined;
  for (const chunk of chunks) {
    let start = 0;
    const buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = undefined;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl === -1) break;
      const msg = JSON.parse(buf.toString('utf8', start, nl)) as { method?: string };
      if (msg.method === 'session/update') n++;
      start = nl + 1;
    }
    if (start < buf.length) pending = buf.subarray(start);
  }
  if (n !== count) throw new Error(`raw counted ${n}`);
  return seconds(t0);
}

/** ours: the real reader, connection and validation, fed by a stream. */
export async function runOurs(chunks: Buffer[], count: number): Promise<number> {
  const input = new PassThrough({ highWaterMark: 1 << 20 });
  const output = new PassThrough();
  const conn = AcpConnection.overStreams(input, output, { logger: silent });
  let n = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => { done = r; });
  conn.onNotification('session/update', (p) => {
    if (p.update.sessionUpdate === 'agent_message_chunk' && ++n === count) done();
  });
  conn.listen();
  const t0 = process.hrtime.bigint();
  Readable.from(chunks).pipe(input);
  await finished;
  const s = seconds(t0);
  conn.close();
  return s;
}

/** sdk: the official client connection over its own ndJsonStream. */
export async function runSdk(chunks: Buffer[], count: number): Promise<number> {
  const acp = await import('@agentclientprotocol/sdk');
  let n = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => { done = r; });
  let i = 0;
  let t0 = 0n;
  const input = new ReadableStream<Uint8Array>({
    start() { t0 = process.hrtime.bigint(); },
    pull(controller) {
      if (i < chunks.length) controller.enqueue(new Uint8Array(chunks[i].buffer, chunks[i].byteOffset, chunks[i].length));
      else controller.close();
      i++;
    },
  });
  const output = new WritableStream<Uint8Array>({ write() { /* no replies expected */ } });
  const client = acp.client({ name: 'bench' }).onNotification('session/update', ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk' && ++n === count) done();
  });
  const connection = client.connect(acp.ndJsonStream(output, input));
  await finished;
  const s = seconds(t0);
  connection.close();
  return s;
}

function seconds(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Runs the three pipelines `rounds` times each and returns the best throughputs. */
export async function benchThroughput(count = 100_000, rounds = 5): Promise<ThroughputResult[]> {
  const { chunks } = makeUpdates(count);
  const best = { raw: Infinity, sdk: Infinity, ours: Infinity };
  for (let r = 0; r < rounds; r++) {
    best.raw = Math.min(best.raw, runRaw(chunks, count));
    best.sdk = Math.min(best.sdk, await runSdk(chunks, count));
    best.ours = Math.min(best.ours, await runOurs(chunks, count));
  }
  return [
    { name: 'raw line split + JSON.parse', messagesPerSecond: count / best.raw },
    { name: 'official SDK client (2.4.0)', messagesPerSecond: count / best.sdk },
    { name: 'Switchboard reader + connection + zod', messagesPerSecond: count / best.ours },
  ];
}
