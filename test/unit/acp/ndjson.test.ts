import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, NdjsonMessageWriter } from '../../../src/acp/ndjson';
import { RecordingLogger, until } from '../helpers/rawPeer';

function readerOn(options: ConstructorParameters<typeof NdjsonMessageReader>[1] = {}) {
  const input = new PassThrough();
  const logger = new RecordingLogger();
  const reader = new NdjsonMessageReader(input, { logger, ...options });
  const got: Array<Record<string, unknown>> = [];
  const errors: Error[] = [];
  reader.onError((e) => errors.push(e));
  reader.listen((m) => got.push(m as unknown as Record<string, unknown>));
  return { input, reader, got, errors, logger };
}

const note = (i: number) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { i } });

describe('NDJSON framing', () => {
  it('reassembles a line split across chunks, at every byte, and keeps order', async () => {
    const text = `${note(1)}\n${note(2)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { s: 'héllo ✓ 𝄞' } })}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const { input, got } = readerOn();
    // one byte at a time, so multi-byte UTF-8 characters are split too
    for (let i = 0; i < bytes.length; i++) input.write(bytes.subarray(i, i + 1));
    await until(() => got.length === 3);
    assert.deepEqual(got.map((m) => (m as { params: unknown }).params), [{ i: 1 }, { i: 2 }, { s: 'héllo ✓ 𝄞' }]);
  });

  it('delivers several messages from one chunk', async () => {
    const { input, got } = readerOn();
    input.write(`${note(1)}\n${note(2)}\n${note(3)}\n`);
    await until(() => got.length === 3);
  });

  it('tolerates CRLF line ends and blank lines', async () => {
    const { input, got, logger } = readerOn();
    input.write(`${note(1)}\r\n\r\n\n${note(2)}\r\n`);
    await until(() => got.length === 2);
    assert.equal(logger.lines.length, 0, logger.lines.join('\n'));
  });

  it('logs and skips a line that is not JSON, and goes on', async () => {
    const { input, got, logger } = readerOn();
    input.write(`Debugger listening on ws://127.0.0.1\n${note(1)}\n[1,2]\n"str"\n${note(2)}\n`);
    await until(() => got.length === 2);
    assert.ok(logger.has(/Skipped a line from the agent that is not JSON: "Debugger listening/), logger.lines.join('\n'));
    assert.ok(logger.has(/JSON array/));
    assert.ok(logger.has(/not a JSON object/));
  });

  it('passes a 10 MB message', async () => {
    const { input, got } = readerOn();
    const big = 'x'.repeat(10 * 1024 * 1024);
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { big } })}\n`);
    for (let i = 0; i < line.length; i += 65536) input.write(line.subarray(i, i + 65536));
    await until(() => got.length === 1, 5000);
    assert.equal(((got[0] as { params: { big: string } }).params.big).length, big.length);
  });

  it('drops a message over the cap with a clear error, and reads the next one', async () => {
    const { input, got, errors, logger } = readerOn({ maxMessageBytes: 1024 });
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { t: 'y'.repeat(500) } }).slice(0, 100)}`);
    input.write('y'.repeat(5000));
    input.write('"}}\n');
    input.write(`${note(7)}\n`);
    await until(() => got.length === 1);
    assert.deepEqual((got[0] as { params: unknown }).params, { i: 7 });
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /Dropped a 'session\/update' of 5\.\d KiB: over the 1\.0 KiB cap on one ACP message/);
    assert.ok(logger.has(/over the 1\.0 KiB cap/));
  });

  it('answers a pending request with an error when its response is over the cap', async () => {
    const { input, got } = readerOn({ maxMessageBytes: 256 });
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, result: { content: 'z'.repeat(1000) } })}\n`);
    await until(() => got.length === 1);
    const m = got[0] as { id: number; error: { code: number; message: string } };
    assert.equal(m.id, 4);
    assert.equal(m.error.code, -32603);
    assert.match(m.error.message, /response to request 4/);
  });

  it('reads a last line that has no newline when the stream ends', async () => {
    const { input, got } = readerOn();
    input.end(note(9));
    await until(() => got.length === 1);
  });

  it('writes one compact line per message, in order', async () => {
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    let text = '';
    out.on('data', (c: Buffer) => { text += c.toString('utf8'); });
    await Promise.all([1, 2, 3].map((i) => writer.write({ jsonrpc: '2.0', method: 'm', params: { i, s: 'a\nb' } } as Message)));
    const lines = text.split('\n');
    assert.equal(lines.length, 4);
    assert.equal(lines[3], '');
    assert.deepEqual(lines.slice(0, 3).map((l) => (JSON.parse(l) as { params: { i: number } }).params.i), [1, 2, 3]);
    assert.ok(!lines[0].includes(' '), 'compact JSON');
  });

  it('rejects a write after the agent closed its stdin', async () => {
    const out = new PassThrough();
    const writer = new NdjsonMessageWriter(out);
    out.destroy();
    await assert.rejects(writer.write({ jsonrpc: '2.0', method: 'm' } as Message), /stdin is closed/);
  });
});
