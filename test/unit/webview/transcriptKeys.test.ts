import * as assert from 'node:assert/strict';
import type { KeyLike } from '../../../webview/lib/keymap';
import { isJumpToComposerKey, isJumpToTranscriptKey, isTextKey, listMove, messageLabel, moveIndex, tabTarget } from '../../../webview/lib/transcriptKeys';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, isComposing: false, ...mods });

describe('keyboard navigation of the transcript (roving focus model)', () => {
  it('maps the list keys to moves, and nothing with a modifier or while an IME composes', () => {
    assert.equal(listMove(key('ArrowUp')), 'previous');
    assert.equal(listMove(key('ArrowDown')), 'next');
    assert.equal(listMove(key('Home')), 'first');
    assert.equal(listMove(key('End')), 'last');
    assert.equal(listMove(key('PageUp')), 'pageUp');
    assert.equal(listMove(key('PageDown')), 'pageDown');
    assert.equal(listMove(key('ArrowDown', { shiftKey: true })), undefined);
    assert.equal(listMove(key('ArrowUp', { ctrlKey: true })), undefined);
    assert.equal(listMove(key('ArrowUp', { isComposing: true })), undefined);
    assert.equal(listMove(key('a')), undefined);
    assert.equal(listMove(key('constructor')), undefined);
  });

  it('moves one message at a time and stops at the ends', () => {
    assert.equal(moveIndex('next', 2, 5), 3);
    assert.equal(moveIndex('next', 4, 5), 4);
    assert.equal(moveIndex('previous', 0, 5), 0);
    assert.equal(moveIndex('previous', 3, 5), 2);
    assert.equal(moveIndex('first', 3, 5), 0);
    assert.equal(moveIndex('last', 0, 5), 4);
    assert.equal(moveIndex('next', 0, 0), -1);
  });

  it('pages by what fits in the viewport, and at least one message', () => {
    const tops = [0, 100, 200, 300, 400, 500, 600];
    const top = (i: number): number => tops[i];
    assert.equal(moveIndex('pageDown', 0, tops.length, 250, top), 2);
    assert.equal(moveIndex('pageDown', 5, tops.length, 250, top), 6);
    assert.equal(moveIndex('pageUp', 6, tops.length, 250, top), 4);
    assert.equal(moveIndex('pageUp', 0, tops.length, 250, top), 0);
    // a message taller than the viewport: still one step
    const tall = [0, 1000, 2000];
    assert.equal(moveIndex('pageDown', 0, 3, 250, (i) => tall[i]), 1);
    assert.equal(moveIndex('pageUp', 2, 3, 250, (i) => tall[i]), 1);
  });

  it('Tab enters the controls of a message, walks them and leaves after the last; Shift+Tab goes back', () => {
    assert.deepEqual(tabTarget(-1, 3, false), { kind: 'control', index: 0 });
    assert.deepEqual(tabTarget(0, 3, false), { kind: 'control', index: 1 });
    assert.deepEqual(tabTarget(2, 3, false), { kind: 'leave', forward: true });
    assert.deepEqual(tabTarget(-1, 0, false), { kind: 'leave', forward: true });
    assert.deepEqual(tabTarget(2, 3, true), { kind: 'control', index: 1 });
    assert.deepEqual(tabTarget(0, 3, true), { kind: 'message' });
    assert.deepEqual(tabTarget(-1, 3, true), { kind: 'leave', forward: false });
  });

  it('jumps with Ctrl+Up / Ctrl+Down (Cmd on macOS), never with plain Up (history) or other modifiers', () => {
    assert.equal(isJumpToTranscriptKey(key('ArrowUp', { ctrlKey: true }), false), true);
    assert.equal(isJumpToTranscriptKey(key('ArrowUp'), false), false);
    assert.equal(isJumpToTranscriptKey(key('ArrowUp', { ctrlKey: true, shiftKey: true }), false), false);
    assert.equal(isJumpToTranscriptKey(key('ArrowUp', { metaKey: true }), false), false);
    assert.equal(isJumpToTranscriptKey(key('ArrowUp', { metaKey: true }), true), true);
    assert.equal(isJumpToTranscriptKey(key('ArrowUp', { ctrlKey: true }), true), false);
    assert.equal(isJumpToComposerKey(key('ArrowDown', { ctrlKey: true }), false), true);
    assert.equal(isJumpToComposerKey(key('ArrowUp', { ctrlKey: true }), false), false);
    assert.equal(isJumpToComposerKey(key('ArrowDown', { ctrlKey: true, isComposing: true }), false), false);
  });

  it('a letter typed on a message is text for the composer; Space, shortcuts and named keys are not', () => {
    assert.equal(isTextKey(key('a')), true);
    assert.equal(isTextKey(key('É', { shiftKey: true })), true);
    assert.equal(isTextKey(key('😀')), true);
    assert.equal(isTextKey(key(' ')), false);
    assert.equal(isTextKey(key('c', { ctrlKey: true })), false);
    assert.equal(isTextKey(key('Enter')), false);
    assert.equal(isTextKey(key('a', { isComposing: true })), false);
  });

  it('names a message by its author and the start of its text', () => {
    assert.equal(messageLabel('You', '  fix   the\nbuild '), 'You: fix the build');
    assert.equal(messageLabel('Agent', ''), 'Agent');
    const label = messageLabel('Agent', 'x'.repeat(500));
    assert.ok(label.length < 100 && label.endsWith('…'), label);
  });
});
