/**
 * Pure keyboard model of the transcript (one Tab stop, like VS Code's chat list): which message a key moves
 * to, where Tab goes among a message's controls, and the keys that jump between the composer and the
 * transcript. The DOM half is webview/transcript/transcriptFocus.ts; the keys are listed in
 * docs/chat.md.
 */
import type { KeyLike } from './keymap';

/** A move between messages. */
export type ListMove = 'previous' | 'next' | 'first' | 'last' | 'pageUp' | 'pageDown';

const moves: Readonly<Record<string, ListMove>> = {
  ArrowUp: 'previous', ArrowDown: 'next', Home: 'first', End: 'last', PageUp: 'pageUp', PageDown: 'pageDown',
};

/** The move of a key pressed on a message (no modifiers), if it is one. */
export function listMove(e: KeyLike): ListMove | undefined {
  if (e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return undefined;
  return Object.hasOwn(moves, e.key) ? moves[e.key] : undefined;
}

/**
 * The index a move lands on among `count` messages, from `current`. Page moves go by what fits in the
 * viewport: `top(i)` is the top of message i and `viewport` the height of the list, in the same unit.
 */
export function moveIndex(move: ListMove, current: number, count: number, viewport = 0, top: (i: number) => number = (i) => i): number {
  if (count <= 0) return -1;
  const from = Math.min(Math.max(current, 0), count - 1);
  switch (move) {
    case 'previous': return Math.max(0, from - 1);
    case 'next': return Math.min(count - 1, from + 1);
    case 'first': return 0;
    case 'last': return count - 1;
    case 'pageDown': {
      let i = from;
      while (i + 1 < count && top(i + 1) - top(from) <= viewport) i++;
      return Math.max(i, Math.min(count - 1, from + 1));
    }
    case 'pageUp': {
      let i = from;
      while (i - 1 >= 0 && top(from) - top(i - 1) <= viewport) i--;
      return Math.min(i, Math.max(0, from - 1));
    }
  }
}

/** Where Tab (or Shift+Tab) goes from a message (`position` -1) or from its control at `position`. */
export type TabTarget = { readonly kind: 'control'; readonly index: number } | { readonly kind: 'message' } | { readonly kind: 'leave'; readonly forward: boolean };

/**
 * Tab from the message enters its first control, Tab past the last control leaves the transcript forward;
 * Shift+Tab from a control goes back one (to the message from the first), Shift+Tab from the message
 * leaves it backward.
 */
export function tabTarget(position: number, controls: number, shift: boolean): TabTarget {
  if (shift) return position < 0 ? { kind: 'leave', forward: false } : position === 0 ? { kind: 'message' } : { kind: 'control', index: Math.min(position, controls) - 1 };
  return position + 1 < controls ? { kind: 'control', index: position + 1 } : { kind: 'leave', forward: true };
}

/**
 * The key that jumps from the composer to the newest message: Ctrl+Up (Cmd+Up on macOS), as in VS Code's
 * chat. Plain Up stays the composer's (history recall in an empty composer).
 */
export function isJumpToTranscriptKey(e: KeyLike, mac: boolean): boolean {
  return e.key === 'ArrowUp' && isCommandOnly(e, mac);
}

/** The key that jumps from the transcript back to the composer: Ctrl+Down (Cmd+Down on macOS). */
export function isJumpToComposerKey(e: KeyLike, mac: boolean): boolean {
  return e.key === 'ArrowDown' && isCommandOnly(e, mac);
}

function isCommandOnly(e: KeyLike, mac: boolean): boolean {
  return !e.isComposing && !e.shiftKey && !e.altKey && (mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey);
}

/** A single printable character without a command modifier (not Space, which scrolls): text to type in the composer. */
export function isTextKey(e: KeyLike): boolean {
  return [...e.key].length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey && !e.isComposing;
}

/** The labels of the two jump keys, for hints. */
export function jumpKeyLabels(mac: boolean): { readonly toTranscript: string; readonly toComposer: string } {
  return mac ? { toTranscript: 'Cmd+Up', toComposer: 'Cmd+Down' } : { toTranscript: 'Ctrl+Up', toComposer: 'Ctrl+Down' };
}

/** Characters of a message's text in its accessible name. */
export const labelChars = 80;

/** The accessible name of a message: who said it and the start of what was said (whitespace folded). */
export function messageLabel(author: string, text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (!folded) return author;
  return `${author}: ${folded.length > labelChars ? `${folded.slice(0, labelChars - 1)}…` : folded}`;
}
