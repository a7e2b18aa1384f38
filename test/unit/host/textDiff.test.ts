import * as assert from 'node:assert/strict';
import { changedSpan, normalizeEol } from '../../../src/host/files/textDiff';

describe('textDiff', () => {
  const apply = (a: string, b: string) => {
    const span = changedSpan(a, b);
    return span ? a.slice(0, span.start) + b.slice(span.start, span.endB) + a.slice(span.endA) : a;
  };

  it('finds nothing to change in equal texts', () => {
    assert.equal(changedSpan('same', 'same'), undefined);
  });

  it('replaces only the changed middle', () => {
    assert.deepEqual(changedSpan('one\ntwo\nthree\n', 'one\n2\nthree\n'), { start: 4, endA: 7, endB: 5 });
    assert.deepEqual(changedSpan('abc', 'abXc'), { start: 2, endA: 2, endB: 3 });
    assert.deepEqual(changedSpan('abc', ''), { start: 0, endA: 3, endB: 0 });
  });

  it('never splits a CRLF or a surrogate pair', () => {
    const crlf = changedSpan('a\r\nb', 'a\r\r\nb');
    assert.ok(crlf);
    assert.notEqual('a\r\nb'.charCodeAt(crlf.start - 1), 0x0d, 'the span does not start between \\r and \\n');
    const emoji = changedSpan('x😀y', 'x😁y');
    assert.deepEqual(emoji, { start: 1, endA: 3, endB: 3 });
  });

  it('rebuilds the new text from any pair of texts', () => {
    const alphabet = ['a', 'b', '\n', '\r\n', '😀', 'é'];
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    const text = () => Array.from({ length: rnd(12) }, () => alphabet[rnd(alphabet.length)]).join('');
    for (let i = 0; i < 500; i++) {
      const [a, b] = [text(), text()];
      assert.equal(apply(a, b), b, JSON.stringify([a, b]));
    }
  });

  it('normalizeEol turns every line break into the document one', () => {
    assert.equal(normalizeEol('a\nb\r\nc\rd', '\r\n'), 'a\r\nb\r\nc\r\nd');
    assert.equal(normalizeEol('a\r\nb\r\n', '\n'), 'a\nb\n');
  });
});
