/**
 * Pure parts of deliberate approvals: the text made visible in a permission dialog, the shortcut that reaches
 * the newest request, and when the user counts as typing (a request then never takes the focus).
 */
import * as assert from 'node:assert/strict';
import { codePointName, visibleTextParts } from '../../../src/shared/inertText';
import { isReviewPermissionKey, isTyping, reviewPermissionKeyLabel, typingPauseMs } from '../../../webview/lib/keymap';

const key = (k: string, code: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean; isComposing: boolean }> = {}) =>
  ({ key: k, code, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, isComposing: false, ...mods });

describe('visible text', () => {
  it('splits out bidi controls, zero-width characters, separators, BOM, soft hyphen and C0 controls', () => {
    assert.deepEqual(visibleTextParts('rm -rf ./build/\u202Egpj.tset'), [{ text: 'rm -rf ./build/' }, { invisible: 'U+202E' }, { text: 'gpj.tset' }]);
    const hidden = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200B', '\u200C', '\u200D', '\u200E', '\u200F',
      '\u2028', '\u2029', '\uFEFF', '\u00AD', '\u0000', '\u0007', '\u001B', '\r', '\u007F', '\u0085', '\u061C', '\u2060', '\u{E0041}'];
    for (const ch of hidden) assert.deepEqual(visibleTextParts(`a${ch}b`), [{ text: 'a' }, { invisible: codePointName(ch) }, { text: 'b' }], codePointName(ch));
  });

  it('keeps line feeds, tabs and ordinary text (non-Latin scripts, emoji, spaces) as they are', () => {
    for (const s of ['line 1\nline 2', 'a\tb', 'שלום עולם', '日本語 パス', 'café 👩‍💻'.replace('\u200D', ''), 'a\u00A0b', '']) {
      assert.deepEqual(visibleTextParts(s), s ? [{ text: s }] : [], JSON.stringify(s));
    }
  });

  it('names a character by its code point, astral ones too; markers in plain text', () => {
    assert.equal(codePointName('\u202E'), 'U+202E');
    assert.equal(codePointName('\u0007'), 'U+0007');
    assert.equal(codePointName('\u{E0041}'), 'U+E0041');
    assert.equal(visibleTextParts('x\u2066\u202Ey\uFEFF').map((p) => ('text' in p ? p.text : `<${p.invisible}>`)).join(''), 'x<U+2066><U+202E>y<U+FEFF>');
  });
});

describe('permission shortcut', () => {
  it('is Ctrl+Shift+A, or Cmd+Shift+A on macOS', () => {
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { ctrlKey: true, shiftKey: true }), false), true);
    assert.equal(isReviewPermissionKey(key('a', 'KeyA', { ctrlKey: true, shiftKey: true }), false), true);
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { metaKey: true, shiftKey: true }), true), true);
    assert.equal(reviewPermissionKeyLabel(false), 'Ctrl+Shift+A');
    assert.equal(reviewPermissionKeyLabel(true), 'Cmd+Shift+A');
  });

  it('is nothing else: not the send keys, not a plain or shifted letter, not with Alt or while composing', () => {
    assert.equal(isReviewPermissionKey(key('Enter', 'Enter', { ctrlKey: true }), false), false);
    assert.equal(isReviewPermissionKey(key('Enter', 'Enter', { ctrlKey: true, shiftKey: true }), false), false);
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { shiftKey: true }), false), false);
    assert.equal(isReviewPermissionKey(key('a', 'KeyA', { ctrlKey: true }), false), false);
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { ctrlKey: true, shiftKey: true, altKey: true }), false), false);
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { ctrlKey: true, shiftKey: true, isComposing: true }), false), false);
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { metaKey: true, shiftKey: true }), false), false, 'Meta is not Ctrl off macOS');
    assert.equal(isReviewPermissionKey(key('A', 'KeyA', { ctrlKey: true, shiftKey: true }), true), false, 'Ctrl is not Cmd on macOS');
  });

  it('follows the layout: the key that types A (AZERTY: code KeyQ), or KeyA on a layout without Latin letters', () => {
    assert.equal(isReviewPermissionKey(key('A', 'KeyQ', { ctrlKey: true, shiftKey: true }), false), true);
    assert.equal(isReviewPermissionKey(key('Q', 'KeyA', { ctrlKey: true, shiftKey: true }), false), false);
    assert.equal(isReviewPermissionKey(key('Ф', 'KeyA', { ctrlKey: true, shiftKey: true }), false), true);
  });
});

describe('typing', () => {
  it('is a focused text field with text, or with a key in the last 1.5 s', () => {
    const now = 10_000;
    assert.equal(isTyping(undefined, now), false, 'no text field has the focus');
    assert.equal(isTyping({ hasText: true, lastKeyAt: -Infinity }, now), true, 'text in it, however old');
    assert.equal(isTyping({ hasText: false, lastKeyAt: now - 200 }, now), true, 'empty, but a key just went in (the prompt was just sent)');
    assert.equal(isTyping({ hasText: false, lastKeyAt: now - typingPauseMs + 1 }, now), true);
    assert.equal(isTyping({ hasText: false, lastKeyAt: now - typingPauseMs }, now), false, 'empty and left alone');
    assert.equal(typingPauseMs, 1500);
  });
});
