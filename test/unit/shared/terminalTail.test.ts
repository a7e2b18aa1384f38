import * as assert from 'node:assert/strict';
import { formatChars, terminalTailStart } from '../../../src/shared/terminalTail';

describe('terminal tail (src/shared/terminalTail)', () => {
  it('keeps everything that fits', () => {
    assert.equal(terminalTailStart('abc\ndef\n', 8), 0);
  });

  it('starts the tail at the first whole line after the cut', () => {
    const text = 'line 1\nline 2\nline 3\n';
    const start = terminalTailStart(text, 10);
    assert.equal(text.slice(start), 'line 3\n');
  });

  it('cuts mid-line when no line starts near the cut, never inside a surrogate pair', () => {
    const long = 'x'.repeat(10_000);
    assert.equal(terminalTailStart(long, 100), 9_900);
    const emoji = '🎉'.repeat(10);
    const start = terminalTailStart(emoji, 5);
    assert.ok(!/^[\uDC00-\uDFFF]/.test(emoji.slice(start)));
    assert.ok(emoji.length - start <= 5);
  });

  it('does not start after a line break that ends the text', () => {
    const text = `${'y'.repeat(50)}\n`;
    assert.equal(terminalTailStart(text, 10), 41);
  });

  it('formats sizes as people read them', () => {
    assert.equal(formatChars(812), '812 B');
    assert.equal(formatChars(64 * 1024), '64 KB');
    assert.equal(formatChars(5_316_599), '5.1 MB');
  });
});
