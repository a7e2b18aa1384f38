import * as assert from 'node:assert/strict';
import { inlineCodeSpans, splitEnvelopes } from '../../../src/shared/agentText';
import { hasAnsiEscapes } from '../../../webview/lib/ansi';

describe('agent text: inline code in titles', () => {
  it('reads a code span as CommonMark does', () => {
    assert.deepEqual(inlineCodeSpans('Edit `hello.txt`'), [{ text: 'Edit ', code: false }, { text: 'hello.txt', code: true }]);
    assert.deepEqual(inlineCodeSpans('`a` and `b`'), [{ text: 'a', code: true }, { text: ' and ', code: false }, { text: 'b', code: true }]);
    assert.deepEqual(inlineCodeSpans('Run `` a`b `` now'), [{ text: 'Run ', code: false }, { text: 'a`b', code: true }, { text: ' now', code: false }]);
  });

  it('keeps an unclosed backtick, a mismatched run and the rest of Markdown literal', () => {
    assert.deepEqual(inlineCodeSpans('it`s **bold** [x](command:y)'), [{ text: 'it`s **bold** [x](command:y)', code: false }]);
    assert.deepEqual(inlineCodeSpans('``a` b'), [{ text: '``a` b', code: false }]);
    assert.deepEqual(inlineCodeSpans(''), [{ text: '', code: false }]);
  });

  it('keeps what is inside a span as it is (no Markdown inside code)', () => {
    assert.deepEqual(inlineCodeSpans('`[x](command:y)`'), [{ text: '[x](command:y)', code: true }]);
    assert.deepEqual(inlineCodeSpans('`  `'), [{ text: '  ', code: true }]);
  });
});

describe('agent text: envelopes for the model', () => {
  it('folds a whole <system-reminder> block after a tool\'s output', () => {
    const text = '```\n1\thello\n```\n\n<system-reminder>\nWhenever you read a file, consider malware.\n</system-reminder>\n';
    assert.deepEqual(splitEnvelopes(text), [
      { kind: 'text', text: '```\n1\thello\n```' },
      { kind: 'envelope', label: 'System reminder', text: '<system-reminder>\nWhenever you read a file, consider malware.\n</system-reminder>' },
    ]);
  });

  it('folds a <session_context> block, and keeps the user\'s text after it', () => {
    assert.deepEqual(splitEnvelopes('<session_context>\nThis is the Gemini CLI.\n</session_context>\n\nHello'), [
      { kind: 'envelope', label: 'Session context', text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' },
      { kind: 'text', text: 'Hello' },
    ]);
  });

  it('folds a text that is only [Function Response: name] lines', () => {
    assert.deepEqual(splitEnvelopes('[Function Response: read_file]'), [{ kind: 'envelope', label: 'Function response', text: '[Function Response: read_file]' }]);
    assert.deepEqual(splitEnvelopes('[Function Response: a]\n[Function Response: b]\n').length, 1);
  });

  it('does not guess: a tag inside a sentence, an unclosed block, other tags and a mention stay text', () => {
    for (const text of [
      'Claude adds <system-reminder>…</system-reminder> blocks to tool results.',
      '<system-reminder>\nnever closed',
      '<system-reminder type="x">\nattributes\n</system-reminder>',
      '<other>\nx\n</other>',
      'See [Function Response: read_file] above.',
      '[Function Response: read_file]\nand then some text',
      'plain text',
    ]) assert.deepEqual(splitEnvelopes(text), [{ kind: 'text', text }], text);
  });

  it('takes the closing tag only at the end of a line', () => {
    const text = '<system-reminder>\na </system-reminder> b\n</system-reminder>\nafter';
    assert.deepEqual(splitEnvelopes(text), [
      { kind: 'envelope', label: 'System reminder', text: '<system-reminder>\na </system-reminder> b\n</system-reminder>' },
      { kind: 'text', text: 'after' },
    ]);
  });
});

describe('agent text: ANSI escapes in a tool\'s text', () => {
  it('finds CSI, OSC and 8-bit CSI sequences, and nothing in plain text', () => {
    assert.equal(hasAnsiEscapes('\x1b[31mred\x1b[0m'), true);
    assert.equal(hasAnsiEscapes('\x1b]0;title\x07'), true);
    assert.equal(hasAnsiEscapes('\x9b1m'), true);
    assert.equal(hasAnsiEscapes('[31m looks like it, but has no ESC'), false);
  });
});
