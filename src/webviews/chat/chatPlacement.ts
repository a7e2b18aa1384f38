/**
 * Where a chat goes, as pure decisions (no `vscode` import, so they are unit-tested in plain Node): the
 * tab or the Chat view for a session (chatRouter.ts), and whether this VS Code can contribute the Chat view
 * to the secondary side bar itself (chatViewPlacement.ts).
 */

/** Where chats open (`switchboard.chat.openIn`). */
export type OpenIn = 'editor' | 'sideBar';

/** The first VS Code version with `contributes.viewsContainers.secondarySidebar` (1.106). */
export const secondarySidebarSince: readonly [number, number] = [1, 106];

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

/** Whether a VS Code version (`vscode.version`) lacks `viewsContainers.secondarySidebar`. */
export function lacksSecondarySidebar(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((n) => Number.parseInt(n, 10));
  if (Number.isNaN(major) || Number.isNaN(minor)) return false; // an unknown format: trust the contribution
  return major < secondarySidebarSince[0] || (major === secondarySidebarSince[0] && minor < secondarySidebarSince[1]);
}
