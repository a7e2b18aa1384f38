/** Pure key handling of the composer: which key sends, and where the caret is (for history recall). */
import type { SendWith } from '../../../src/shared/composerModel';

/** The parts of a KeyboardEvent the composer looks at. */
export interface KeyLike {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly isComposing: boolean;
}

/**
 * True when the key sends the message. `enter`: Enter sends (Ctrl/Cmd+Enter too), Shift+Enter adds a
 * line. `ctrlEnter`: Ctrl/Cmd+Enter sends, Enter and Shift+Enter add a line. Never while an IME composes.
 */
export function isSendKey(e: KeyLike, sendWith: SendWith): boolean {
  if (e.key !== 'Enter' || e.isComposing || e.altKey) return false;
  if (sendWith === 'ctrlEnter') return (e.ctrlKey || e.metaKey) && !e.shiftKey;
  return !e.shiftKey;
}

/** The label of the send key, for titles and the placeholder. */
export function sendKeyLabel(sendWith: SendWith, mac: boolean): { send: string; newline: string } {
  if (sendWith === 'ctrlEnter') return { send: mac ? 'Cmd+Enter' : 'Ctrl+Enter', newline: 'Enter' };
  return { send: 'Enter', newline: 'Shift+Enter' };
}

/** True when the caret (no selection) is on the first line of `value`. */
export function caretOnFirstLine(value: string, start: number, end: number): boolean {
  return start === end && !value.slice(0, start).includes('\n');
}

/** True when the caret (no selection) is on the last line of `value`. */
export function caretOnLastLine(value: string, start: number, end: number): boolean {
  return start === end && !value.slice(end).includes('\n');
}
