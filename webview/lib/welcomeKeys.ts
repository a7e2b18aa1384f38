/**
 * The keys the welcome of an empty chat lists: the composer's own (keymap.ts, composer.ts: the send key
 * follows `switchboard.chat.sendWith`), the permission shortcut, and the extension's keybindings for
 * switching and starting sessions (package.json). Pure.
 */
import type { SendWith } from '../../src/shared/composerModel';
import { reviewPermissionKeyLabel, sendKeyLabel } from './keymap';

/** One hint: the key as shown, and what it does. */
export interface KeyHint {
  readonly key: string;
  readonly does: string;
}

/** The hints, in the order a user meets them. */
export function welcomeKeyHints(sendWith: SendWith, mac: boolean): KeyHint[] {
  const keys = sendKeyLabel(sendWith, mac);
  const mod = mac ? 'Cmd' : 'Ctrl';
  return [
    { key: keys.send, does: 'send' },
    { key: keys.newline, does: 'new line' },
    { key: '/', does: 'commands' },
    { key: '@', does: 'files' },
    { key: '↑', does: 'earlier prompts' },
    { key: 'Esc', does: 'stop the turn' },
    { key: reviewPermissionKeyLabel(mac), does: 'review a permission request' },
    { key: `${mod}+Alt+Shift+S`, does: 'switch session' },
    { key: `${mod}+Alt+Shift+N`, does: 'new session' },
  ];
}
