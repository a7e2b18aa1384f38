import * as assert from 'node:assert/strict';
import { decodeText, lineWindow, notTextMessage, notTextReason, readTextWindow, sliceLines } from '../../../src/host/files/textSlice';

const bytes = (s: string) => new TextEncoder().encode(s);
/** The text of the window `line`/`limit` of `text`, as fs/read_text_file answers it. */
const slice = (text: string, line?: number | null, limit?: number | null) => decodeText(sliceLines(bytes(text), lineWindow(line, limit)));

describe('textSlice', () => {
  describe('lineWindow', () => {
    it('maps the 1-based line and the limit, with defaults', () => {
      assert.deepEqual(lineWindow(), { first: 0, count: undefined });
      assert.deepEqual(lineWindow(null, null), { first: 0, count: undefined });
      assert.deepEqual(lineWindow(1, 10), { first: 0, count: 10 });
      assert.deepEqual(lineWindow(5), { first: 4, count: undefined });
      assert.deepEqual(lineWindow(0, 0), { first: 0, count: 0 });
    });
  });

  describe('sliceLines', () => {
    const text = 'l1\nl2\nl3\n';

    it('returns the whole text without line or limit', () => {
      assert.equal(slice(text), text);
    });

    it('starts at the 1-based line and takes limit lines, each with its newline', () => {
      assert.equal(slice(text, 1, 1), 'l1\n');
      assert.equal(slice(text, 2, 1), 'l2\n');
      assert.equal(slice(text, 2, 2), 'l2\nl3\n');
      assert.equal(slice(text, 2), 'l2\nl3\n');
      assert.equal(slice(text, 3, 1), 'l3\n');
    });

    it('is empty past the end and for limit 0; a limit past the end stops at the end', () => {
      assert.equal(slice(text, 4), '');
      assert.equal(slice(text, 4, 3), '');
      assert.equal(slice(text, 99, 1), '');
      assert.equal(slice(text, 1, 0), '');
      assert.equal(slice(text, 2, 99), 'l2\nl3\n');
      assert.equal(slice('', 1, 1), '');
    });

    it('keeps CRLF line endings as they are', () => {
      const crlf = 'a\r\nb\r\nc\r\n';
      assert.equal(slice(crlf, 2, 1), 'b\r\n');
      assert.equal(slice(crlf, 1, 2), 'a\r\nb\r\n');
      assert.equal(slice('a\r\nb\nc', 1, 3), 'a\r\nb\nc');
    });

    it('ends with the last line of a file without trailing newline', () => {
      assert.equal(slice('a\nb', 2, 1), 'b');
      assert.equal(slice('a\nb', 2, 5), 'b');
      assert.equal(slice('a\nb', 3, 1), '');
      assert.equal(slice('only', 1, 1), 'only');
    });

    it('counts lines of multi-byte text correctly', () => {
      assert.equal(slice('ä\n€\n😀\n', 3, 1), '😀\n');
    });

    it('returns a view on the bytes, without copying', () => {
      const b = bytes('x\ny\nz\n');
      const s = sliceLines(b, lineWindow(2, 1));
      assert.equal(s.buffer, b.buffer);
      assert.equal(s.byteOffset, 2);
      assert.equal(s.length, 2);
    });
  });

  describe('text checks', () => {
    it('accepts UTF-8 text', () => {
      assert.equal(notTextReason(bytes('plain ascii\n')), undefined);
      assert.equal(notTextReason(bytes('Grüße, 世界, 😀\n')), undefined);
      assert.equal(notTextReason(new Uint8Array()), undefined);
    });

    it('calls bytes with a NUL binary (this includes UTF-16 text)', () => {
      assert.equal(notTextReason(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a])), 'binary');
      assert.equal(notTextReason(new Uint8Array([0xff, 0xfe, 0x61, 0x00])), 'binary');
      assert.equal(notTextReason(bytes('text\0more')), 'binary');
    });

    it('recognizes invalid UTF-8: a stray byte, a truncated sequence, an overlong encoding', () => {
      assert.equal(notTextReason(new Uint8Array([0x61, 0xff, 0x62])), 'invalidUtf8');
      assert.equal(notTextReason(new Uint8Array([0x61, 0xe2, 0x82])), 'invalidUtf8');
      assert.equal(notTextReason(new Uint8Array([0xc0, 0xaf])), 'invalidUtf8');
      assert.equal(notTextReason(new Uint8Array([0x63, 0x61, 0x66, 0xe9])), 'invalidUtf8'); // "café" in Latin-1
    });

    it('says which problem a file has', () => {
      assert.match(notTextMessage('/x/a.png', 'binary'), /\/x\/a\.png.*NUL bytes.*binary/);
      assert.match(notTextMessage('/x/a.txt', 'invalidUtf8'), /\/x\/a\.txt.*not valid UTF-8/);
    });

    it('readTextWindow checks the whole file, not only the window', () => {
      assert.deepEqual(readTextWindow(new Uint8Array([0x61, 0x0a, 0x00]), lineWindow(1, 1)), { reason: 'binary' });
      assert.deepEqual(readTextWindow(bytes('a\nb\n'), lineWindow(2, 1)), { text: 'b\n' });
    });

    it('drops a byte order mark at the start of the file only', () => {
      const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('a\n\ufeffb\n')]);
      assert.deepEqual(readTextWindow(withBom, lineWindow()), { text: 'a\n\ufeffb\n' });
      assert.deepEqual(readTextWindow(withBom, lineWindow(1, 1)), { text: 'a\n' });
      assert.deepEqual(readTextWindow(withBom, lineWindow(2, 1)), { text: '\ufeffb\n' });
    });
  });
});
