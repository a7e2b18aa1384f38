import * as assert from 'node:assert/strict';
import { incompleteUtf8Tail, maxTerminalOutputBytes, TerminalOutputBuffer } from '../../../src/agents/terminalOutput';

const bytes = (s: string) => Buffer.from(s, 'utf8');

/** What the buffer must return: the last `limit` bytes, moved forward to a character boundary. */
function expectedTail(full: Buffer, limit: number): string {
  let start = Math.max(0, full.length - limit);
  if (start > 0) while (start < full.length && (full[start] & 0xc0) === 0x80) start++;
  return full.subarray(start).toString('utf8');
}

function feed(buffer: TerminalOutputBuffer, data: Buffer, chunkSizes: readonly number[]): void {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const n = chunkSizes[i % chunkSizes.length];
    buffer.append(Buffer.from(data.subarray(at, at + n)));
    at += n;
  }
}

describe('TerminalOutputBuffer', () => {
  it('keeps everything under the limit, not truncated', () => {
    const b = new TerminalOutputBuffer(100);
    b.append(bytes('héllo '));
    b.append(bytes('wörld'));
    assert.deepEqual(b.read(), { output: 'héllo wörld', truncated: false });
  });

  it('output of exactly the limit is not truncated', () => {
    const b = new TerminalOutputBuffer(6);
    b.append(bytes('aé€')); // 1 + 2 + 3 bytes
    assert.deepEqual(b.read(), { output: 'aé€', truncated: false });
  });

  it('limit 10 on multi-byte output keeps valid UTF-8 at most 10 bytes long and sets truncated', () => {
    const text = 'Grüße aus Köln — 日本語のテキスト 🎉🎉';
    const b = new TerminalOutputBuffer(10);
    feed(b, bytes(text), [1, 2, 3, 5, 7]);
    const { output, truncated } = b.read(true);
    assert.equal(truncated, true);
    assert.ok(!output.includes('\uFFFD'), `no replacement character in ${JSON.stringify(output)}`);
    assert.ok(text.endsWith(output), 'a suffix of the output');
    assert.ok(Buffer.byteLength(output) <= 10 && Buffer.byteLength(output) >= 10 - 3, `${Buffer.byteLength(output)} bytes`);
    assert.equal(output, expectedTail(bytes(text), 10));
  });

  it('cuts exactly at a character boundary when the limit falls on one', () => {
    const b = new TerminalOutputBuffer(5);
    b.append(bytes('xaé€')); // the last 5 bytes are "é€"
    assert.deepEqual(b.read(), { output: 'é€', truncated: true });
    const c = new TerminalOutputBuffer(3);
    c.append(bytes('aé€'));
    assert.deepEqual(c.read(), { output: '€', truncated: true });
  });

  it('a limit inside a character moves forward to the next boundary (slightly under the limit)', () => {
    const b = new TerminalOutputBuffer(4);
    b.append(bytes('aé€')); // last 4 bytes start inside "é"
    assert.deepEqual(b.read(), { output: '€', truncated: true });
  });

  it('a limit smaller than one character keeps nothing, truncated', () => {
    const b = new TerminalOutputBuffer(2);
    b.append(bytes('€'));
    assert.deepEqual(b.read(), { output: '', truncated: true });
    const c = new TerminalOutputBuffer(3);
    c.append(bytes('𝄞')); // 4 bytes
    assert.deepEqual(c.read(true), { output: '', truncated: true });
  });

  it('limit 0 keeps nothing and is truncated only once something came', () => {
    const b = new TerminalOutputBuffer(0);
    assert.deepEqual(b.read(), { output: '', truncated: false });
    b.append(bytes('x'));
    assert.deepEqual(b.read(), { output: '', truncated: true });
  });

  it('holds back a character split across chunks until it is complete, unless the output is complete', () => {
    const b = new TerminalOutputBuffer(100);
    const euro = bytes('€');
    b.append(Buffer.concat([bytes('ab'), euro.subarray(0, 2)]));
    assert.deepEqual(b.read(), { output: 'ab', truncated: false });
    assert.equal(b.read(true).output, 'ab\uFFFD', 'a broken end is shown once the process ended');
    b.append(euro.subarray(2));
    assert.deepEqual(b.read(), { output: 'ab€', truncated: false });
  });

  it('stays truncated after later reads and appends', () => {
    const b = new TerminalOutputBuffer(4);
    b.append(bytes('abcdef'));
    assert.deepEqual(b.read(), { output: 'cdef', truncated: true });
    b.append(bytes('g'));
    assert.deepEqual(b.read(), { output: 'defg', truncated: true });
  });

  it('matches the byte-exact tail for random multi-byte text, chunkings and limits', () => {
    const alphabet = ['a', 'z', ' ', '\n', 'é', 'ß', '€', '日', '🎉', '𝄞', '\u001b[31m'];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      let text = '';
      for (let i = rand(200); i > 0; i--) text += alphabet[rand(alphabet.length)];
      const data = bytes(text);
      const limit = rand(64);
      const b = new TerminalOutputBuffer(limit);
      feed(b, data, [1 + rand(9), 1 + rand(17), 1 + rand(3)]);
      if (rand(2) === 0) b.read(); // an intermediate read must not change the result
      const { output, truncated } = b.read(true);
      assert.equal(output, expectedTail(data, limit), `round ${round}, limit ${limit}`);
      assert.equal(truncated, data.length > limit, `round ${round}: truncated`);
      assert.ok(Buffer.byteLength(output) <= limit);
    }
  });

  it('100 MB through a 1 MB limit stays bounded and keeps the exact tail', () => {
    const limit = 1024 * 1024;
    const chunkSize = 64 * 1024;
    const b = new TerminalOutputBuffer(limit);
    // one continuous multi-byte stream, cut into 64 KiB chunks that split characters
    const unit = bytes('0123456789 Grüße € 🎉\n');
    const source = Buffer.concat(Array.from({ length: Math.ceil(chunkSize / unit.length) + 2 }, () => unit));
    const chunkAt = (i: number) => source.subarray((i * chunkSize) % unit.length, ((i * chunkSize) % unit.length) + chunkSize);
    const count = (100 * 1024 * 1024) / chunkSize;
    let maxHeld = 0;
    for (let i = 0; i < count; i++) {
      b.append(Buffer.from(chunkAt(i)));
      maxHeld = Math.max(maxHeld, b.heldBytes);
    }
    assert.ok(maxHeld <= limit + chunkSize, `held at most ${maxHeld} bytes`);
    assert.equal(b.totalBytes, count * chunkSize);
    const { output, truncated } = b.read(true);
    assert.equal(truncated, true);
    assert.ok(!output.includes('\uFFFD'));
    assert.ok(Buffer.byteLength(output) <= limit && Buffer.byteLength(output) > limit - 4);
    const last = Buffer.concat(Array.from({ length: limit / chunkSize + 1 }, (_, k) => chunkAt(count - (limit / chunkSize + 1) + k)));
    assert.equal(output, expectedTail(last, limit));
  });

  it('caps a missing or huge limit at the client maximum', () => {
    assert.equal(new TerminalOutputBuffer().limit, maxTerminalOutputBytes);
    assert.equal(new TerminalOutputBuffer(null).limit, maxTerminalOutputBytes);
    assert.equal(new TerminalOutputBuffer(2 ** 40).limit, maxTerminalOutputBytes);
  });

  it('incompleteUtf8Tail finds a trailing partial character', () => {
    assert.equal(incompleteUtf8Tail(bytes('abc')), 0);
    assert.equal(incompleteUtf8Tail(bytes('a€')), 0);
    assert.equal(incompleteUtf8Tail(bytes('a€').subarray(0, 3)), 2);
    assert.equal(incompleteUtf8Tail(bytes('🎉').subarray(0, 1)), 1);
    assert.equal(incompleteUtf8Tail(bytes('🎉').subarray(0, 3)), 3);
    assert.equal(incompleteUtf8Tail(Buffer.alloc(0)), 0);
  });
});
