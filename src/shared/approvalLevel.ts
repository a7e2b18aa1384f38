/**
 * A session's approval level (docs/approvals.md, "The approval level"): how much the client answers for the user.
 * Each level allows what the one before it allows, and more:
 * - `ask`: every request gets a card, and a write or command that no answer covers is asked about; only deny and
 *   ask rules answer (a deny is never loosened);
 * - `rules`: the user's rules answer too (the default: what Switchboard did before levels existed);
 * - `reads`: and a request that is a read by its content, inside the session's folders, is allowed once;
 * - `all`: only for a session in a git worktree of its own (docs/worktrees.md), where a turn can be thrown away as a
 *   whole: every request that no deny or ask rule answers is allowed once, and so is a write or command that no
 *   answer covers. Outside a worktree it is `reads`, and the settings cannot make it the default.
 * No vscode import: unit-tested in plain Node.
 */

/** The levels, from the one that asks the most. */
export const approvalLevels = ['ask', 'rules', 'reads', 'all'] as const;

/** A session's approval level. */
export type ApprovalLevel = (typeof approvalLevels)[number];

/** What each level is called and does, as the quick pick, the header and the status bar say it. */
export const levelInfo: Readonly<Record<ApprovalLevel, { readonly label: string; readonly short: string; readonly icon: string; readonly detail: string }>> = {
  ask: { label: 'Ask for Everything', short: 'Ask all', icon: 'shield', detail: 'Every request gets a card; only your deny rules answer by themselves' },
  rules: { label: 'Allow by Rules', short: 'By rules', icon: 'law', detail: 'Your allow, ask and deny rules answer; everything else gets a card' },
  reads: { label: 'Allow Reads and Rules', short: 'Reads + rules', icon: 'eye', detail: 'Your rules answer, and reads inside the session’s folders are allowed once' },
  all: { label: 'Allow Everything', short: 'Allow all', icon: 'check-all', detail: 'Only in the session’s own worktree: every request, write and command is allowed once unless a deny or ask rule answers' },
};

/** The levels a session can have: `all` only in a worktree of its own. */
export function levelsFor(isolated: boolean): readonly ApprovalLevel[] {
  return isolated ? approvalLevels : approvalLevels.filter((l) => l !== 'all');
}

/** The level that applies: `all` outside a worktree of its own is `reads`. */
export function effectiveLevel(level: ApprovalLevel, isolated: boolean): ApprovalLevel {
  return level === 'all' && !isolated ? 'reads' : level;
}

/** True for a value that is a level. */
export function isApprovalLevel(value: unknown): value is ApprovalLevel {
  return typeof value === 'string' && (approvalLevels as readonly string[]).includes(value);
}

/**
 * The level of a new session from the settings: `switchboard.permissions.level` when it is set (`levelValue`), else
 * the older `switchboard.permissions.autoApprove` (`reads` is the level of the same name; `never`, or anything else,
 * is the default), else `rules`. An unknown value is the default, never a looser level.
 */
export function settingsLevel(levelValue: unknown, autoApproveValue: unknown): ApprovalLevel {
  if (isApprovalLevel(levelValue) && levelValue !== 'all') return levelValue;
  return autoApproveValue === 'reads' ? 'reads' : 'rules';
}

/** True when the user's allow rules answer at this level. */
export function allowRulesApply(level: ApprovalLevel): boolean {
  return level !== 'ask';
}

/** True when a read by its content is allowed once at this level (the broker: src/host/permissions/autoApprove.ts). */
export function readsApproved(level: ApprovalLevel): boolean {
  return level === 'reads' || level === 'all';
}

/** The chat header's button and the status bar item: "Approvals: By rules", with what the level does (never just "Ask": agents have modes called that). */
export function levelView(level: ApprovalLevel): { readonly label: string; readonly title: string; readonly icon: string } {
  const info = levelInfo[level];
  return { label: info.short, icon: info.icon, title: `Approvals: ${info.label}. ${info.detail}. Click to change.` };
}
