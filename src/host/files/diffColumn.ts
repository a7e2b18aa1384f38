/**
 * Where a diff opens, as a rule over view columns (pure, no vscode): beside the chat, never over it. The
 * user's active group when that is not the chat's; else the nearest other group, to the right first; else a
 * new group to the right of the chat.
 */

/**
 * The view column for a diff, given the chat's column (undefined: no chat is shown, the active group is
 * right), the columns of the open groups and the active one. Pure; a column past the last group makes a
 * new group there.
 */
export function diffColumnBeside(chat: number | undefined, groups: readonly number[], active: number | undefined): number | undefined {
  if (chat === undefined) return undefined;
  if (active !== undefined && active !== chat) return active;
  const others = groups.filter((g) => g !== chat);
  const right = others.filter((g) => g > chat).sort((a, b) => a - b)[0];
  const left = others.filter((g) => g < chat).sort((a, b) => b - a)[0];
  return right ?? left ?? chat + 1;
}
