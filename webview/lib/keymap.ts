/** Pure key handling of the composer: which key sends, and where the caret is (for history recall). */
import type { SendWith } from '../../src/shared/composerModel';

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

/** Send Now (Alt+Enter; Option+Enter on a Mac): into the agent's running turn (docs/chat.md, "Send now"). */
export function isSendNowKey(e: KeyLike): boolean {
  return e.key === 'Enter' && !e.isComposing && e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey;
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

/** The parts of a KeyboardEvent the permission shortcut looks at. */
export interface ShortcutKeyLike extends KeyLike {
  readonly code: string;
}

/**
 * True for the key that moves the focus to the newest pending permission request, from the composer or
 * anywhere else in the chat: Ctrl+Shift+A (Cmd+Shift+A on macOS), the key of VS Code's own "Chat: Focus Chat
 * Confirmation". It does not clash with sending (Enter, Ctrl/Cmd+Enter) nor with typing. The letter is
 * matched by `key` (the keyboard layout's A), or by `code` on layouts without Latin letters.
 */
export function isReviewPermissionKey(e: ShortcutKeyLike, mac: boolean): boolean {
  if (!e.shiftKey || e.altKey || e.isComposing || !(mac ? e.metaKey : e.ctrlKey)) return false;
  if (mac ? e.ctrlKey : e.metaKey) return false;
  const k = e.key.toLowerCase();
  return k === 'a' || (!/^[a-z]$/.test(k) && e.code === 'KeyA');
}

/** The label of that key, for hints and announcements. */
export function reviewPermissionKeyLabel(mac: boolean): string {
  return mac ? 'Cmd+Shift+A' : 'Ctrl+Shift+A';
}

/** How recently a key must have gone into a text field for the user to count as typing in it, in ms. */
export const typingPauseMs = 1500;

/**
 * Whether the user is typing, so that a permission request that arrives must not take the focus: the
 * focus is in a text field of the chat (the composer, a queued message being edited), and that field has
 * text, or a key (or an IME composition) went into it less than {@link typingPauseMs} ago. An empty
 * composer that has the focus but was left alone is not "typing": the request may take the focus there.
 */
export function isTyping(field: { readonly hasText: boolean; readonly lastKeyAt: number } | undefined, now: number): boolean {
  if (!field) return false;
  return field.hasText || now - field.lastKeyAt < typingPauseMs;
}
