/**
 * Where a chat goes, as pure decisions (no `vscode` import, so they are unit-tested in plain Node): the
 * tab or the Chat view for a session (chatRouter.ts).
 */

/** Where chats open (`switchboard.chat.openIn`). */
export type OpenIn = 'editor' | 'sideBar';

/** The setting's value, anything unknown read as the default `editor`. */
export function parseOpenIn(value: unknown): OpenIn {
  return value === 'sideBar' ? 'sideBar' : 'editor';
}

/**
 * Where a session's chat opens: a session has one chat at a time, so an existing chat (its tab, or the
 * view that shows it) wins over the setting.
 */
export function chatTarget(o: { readonly hasTab: boolean; readonly inView: boolean; readonly openIn: OpenIn }): 'tab' | 'view' {
  if (o.hasTab) return 'tab';
  return o.inView || o.openIn === 'sideBar' ? 'view' : 'tab';
}
