import * as assert from 'node:assert/strict';
import { StderrBuffer, truncateUtf8 } from '../../../src/agents/stderrBuffer';

describe('StderrBuffer', () => {
  it('splits chunks into lines, joining lines split across chunks, and trims CR', () => {
    const buffer = new StderrBuffer();
    assert.deepEqual(buffer.push('one\r\ntw'), ['one']);
    assert.deepEqual(buffer.push('o\nthr'), ['two']);
    assert.deepEqual(buffer.tail(), ['one', 'two']);
    assert.deepEqual(buffer.end(), ['thr']);
    assert.deepEqual(buffer.tail(), ['one', 'two', 'thr']);
    assert.deepEqual(buffer.end(), []);
  });

  it('decodes UTF-8 characters split across chunks', () => {
    const buffer = new StderrBuffer();
    const bytes = Buffer.from('héllo ✓\n', 'utf8');
    buffer.push(bytes.subarray(0, 2));
    buffer.push(bytes.subarray(2, 8));
    assert.deepEqual(buffer.push(bytes.subarray(8)), ['héllo ✓']);
  });

  it('keeps only the last maxLines lines', () => {
    const buffer = new StderrBuffer({ maxLines: 3 });
    buffer.push('1\n2\n3\n4\n5\n');
    assert.deepEqual(buffer.tail(), ['3', '4', '5']);
    assert.deepEqual(buffer.tail(2), ['4', '5']);
    assert.deepEqual(buffer.tail(0), []);
    assert.equal(buffer.lineCount, 3);
  });

  it('keeps the total within maxBytes, dropping the oldest lines', () => {
    const buffer = new StderrBuffer({ maxBytes: 18 });
    buffer.push('aaaa\nbbbb\ncccc\ndddd\neeee\n');
    assert.deepEqual(buffer.tail(), ['bbbb', 'cccc', 'dddd', 'eeee']);
    assert.equal(buffer.byteLength, 16);
  });

  it('truncates a long line to maxLineBytes, also while it is still unterminated', () => {
    const buffer = new StderrBuffer({ maxBytes: 1000, maxLineBytes: 40 });
    for (let i = 0; i < 100; i++) buffer.push('y'.repeat(1000));
    const [line] = buffer.push('tail of the huge line\nnext\n');
    assert.equal(Buffer.byteLength(line), 40);
    assert.match(line, /^y+ …\[truncated\]$/);
    assert.deepEqual(buffer.tail(), [line, 'next']);
  });

  it('defaults the line cap to a quarter of maxBytes', () => {
    const buffer = new StderrBuffer({ maxBytes: 100 });
    buffer.push(`${'z'.repeat(300)}\nshort\n`);
    assert.equal(Buffer.byteLength(buffer.tail()[0]), 25);
    assert.equal(buffer.tail()[1], 'short');
  });

  it('strips ANSI colour and OSC escapes', () => {
    const buffer = new StderrBuffer();
    assert.deepEqual(buffer.push('\u001b[31mError:\u001b[0m bad \u001b]0;title\u0007done\n'), ['Error: bad done']);
  });

  it('truncateUtf8 never splits a character', () => {
    assert.equal(truncateUtf8('a✓b', 3), 'a');
    assert.equal(truncateUtf8('a✓b', 4), 'a✓');
    assert.equal(truncateUtf8('abc', 10), 'abc');
    assert.equal(truncateUtf8('abc', 0), '');
  });
});
