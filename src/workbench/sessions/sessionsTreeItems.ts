/**
 * The rows of the Sessions view (sessionsTreeView.ts): a group (an agent, or a workspace folder with its git
 * branch), a session with its live state (src/shared/sessionState.ts) and, under an open session, its changed
 * files with their line counts. Agent text goes through inertText ('plain' for labels and descriptions,
 * 'markdown' for tooltips: docs/security.md "Agent text in the workbench").
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { relativeTime, type HistoryItem } from '../../host/history/sessionHistory';
import type { ChangedFileView } from '../../shared/changedFiles';
import { inert, inertText } from '../../shared/inertText';
import { stateColor, stateIcon, stateLine } from '../../shared/sessionState';
import { rowTitle } from '../../shared/sessionTitles';
import { commandIds } from '../../constants';
import type { FolderGitStatus } from './gitStatus';
import type { WorktreeRecord } from '../../worktrees/worktreeRecords';

/** How the view groups sessions. */
export type GroupBy = 'agent' | 'folder';

/** A node: a group, a session, or a changed file of an open session. */
export type SessionsNode =
  | { readonly type: 'group'; readonly by: GroupBy; readonly key: string; readonly label: string; readonly items: HistoryItem[] }
  | { readonly type: 'session'; readonly item: HistoryItem; readonly by: GroupBy | 'search'; readonly snippet?: string }
  | { readonly type: 'file'; readonly session: AgentSession; readonly file: ChangedFileView }
  | { readonly type: 'worktree'; readonly record: WorktreeRecord; readonly item: HistoryItem };

/** What a row shows besides its node. */
export interface RowContext {
  readonly now: number;
  readonly git: (folder: string) => FolderGitStatus | undefined;
  readonly files: (session: AgentSession) => readonly ChangedFileView[];
  /** The worktree of its own a session works in (docs/worktrees.md). */
  readonly worktree: (cwd: string) => WorktreeRecord | undefined;
}

/** "main, 2 uncommitted" (or "main, clean"). */
export function gitLine(git: FolderGitStatus): string {
  return `${git.branch}, ${git.changes ? `${git.changes} uncommitted` : 'clean'}`;
}

/** The row of a group. */
export function groupItem(node: Extract<SessionsNode, { type: 'group' }>, ctx: RowContext): vscode.TreeItem {
  const t = new vscode.TreeItem(inertText(node.label, 'plain'), vscode.TreeItemCollapsibleState.Expanded);
  const count = node.items.length === 1 ? '1 session' : `${node.items.length} sessions`;
  if (node.by === 'agent') {
    t.id = `agent:${node.key}`;
    t.iconPath = new vscode.ThemeIcon('hubot');
    t.description = count;
  } else {
    const git = ctx.git(node.key);
    t.id = `folder:${node.key}`;
    t.iconPath = new vscode.ThemeIcon(git ? 'repo' : 'folder');
    t.description = inertText([git && gitLine(git), count].filter(Boolean).join(' · '), 'plain');
    t.tooltip = inertText([node.key, git && `Branch ${git.branch}: ${git.changes} uncommitted change${git.changes === 1 ? '' : 's'}`].filter(Boolean).join('\n'), 'plain');
  }
  t.contextValue = `group.${node.by}`;
  return t;
}

/** The row of a session: its title, live state (open) or last use (history), and what the search found. */
export function sessionItem(node: Extract<SessionsNode, { type: 'session' }>, ctx: RowContext): vscode.TreeItem {
  const { item } = node;
  const open = item.open;
  const fileCount = open ? ctx.files(open).length : 0;
  const t = new vscode.TreeItem(inertText(rowTitle(item), 'plain'), fileCount || ctx.worktree(item.cwd) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  t.id = `session:${item.agentId}:${item.sessionId}`;
  const state = open?.activity.state;
  if (state) {
    const color = stateColor(state.kind);
    t.iconPath = new vscode.ThemeIcon(stateIcon(state), color ? new vscode.ThemeColor(color) : undefined);
  } else {
    t.iconPath = new vscode.ThemeIcon(item.archived ? 'archive' : 'history');
  }
  // effects of the last turn that no answer or rule covered (docs/approvals.md, "The audit")
  const flagged = open ? open.permissions.audit.open.length : 0;
  if (flagged) t.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  const git = open ? ctx.git(item.cwd) : undefined;
  const stateText = state ? stateLine(state, ctx.now) : relativeTime(item.updatedAt);
  const parts = node.by === 'search'
    ? [node.snippet ?? 'title matches', item.agentName]
    : [node.by === 'folder' ? item.agentName : '', stateText, node.by === 'agent' && git ? gitLine(git) : '', fileCount ? `${fileCount} changed` : '', flagged ? `⚠ ${flagged} flagged` : ''];
  t.description = inertText([...parts, item.archived ? 'archived' : ''].filter(Boolean).join(' · '), 'plain');
  const where = open ? 'Open' : item.stored ? 'In Switchboard\'s history' : 'Listed by the agent';
  const lines = [
    inert.markdown`**${rowTitle(item)}**`,
    inert.markdown`${item.agentName} · ${item.cwd}`,
    inert.markdown`${state ? stateText : where}` + (item.archived ? ' · Archived' : ''),
    ...(git ? [inert.markdown`Branch ${git.branch} · ${git.changes} uncommitted`] : []),
    ...(node.snippet ? [inert.markdown`Found: ${node.snippet}`] : []),
    ...(flagged ? [`⚠ ${flagged} ${flagged === 1 ? 'effect' : 'effects'} of the last turn that no answer or rule of yours covers: Revert is in the chat`] : []),
  ];
  t.tooltip = agentMarkdown(lines.join('\n\n'));
  t.accessibilityInformation = { label: inert.plain`${rowTitle(item)}, ${item.agentName}, ${state ? stateText : where}${flagged ? `, ${flagged} flagged` : ''}` };
  // what the context menu offers (package.json view/item/context): Fork only for an agent that can fork
  t.contextValue = open ? `session.open${open.canFork ? '.fork' : ''}` : `session.history${item.archived ? '.archived' : ''}`;
  t.command = { command: commandIds.openSession, title: 'Open Session', arguments: [node] };
  return t;
}

/** The row under a session in a worktree of its own: its branch, what it started from, and the worktree's actions. */
export function worktreeItem(node: Extract<SessionsNode, { type: 'worktree' }>): vscode.TreeItem {
  const r = node.record;
  const t = new vscode.TreeItem(inertText(r.branch, 'plain'), vscode.TreeItemCollapsibleState.None);
  t.id = `worktree:${r.id}:${node.item.agentId}:${node.item.sessionId}`;
  t.iconPath = new vscode.ThemeIcon('git-branch');
  t.description = inertText(r.state === 'archived' ? `archived worktree · from ${r.baseBranch}` : `worktree · from ${r.baseBranch}`, 'plain');
  t.tooltip = inertText(`Branch ${r.branch}, made from ${r.baseBranch} (${r.baseCommit.slice(0, 8)})\n${r.state === 'archived' ? 'Archived: its state is committed to the branch; Unarchive Session brings the folder back' : r.path}`, 'plain');
  t.accessibilityInformation = { label: inert.plain`Worktree on branch ${r.branch}, from ${r.baseBranch}` };
  t.contextValue = `worktree:${r.state}`;
  return t;
}

/** The row of a changed file: its name, folder and +/− counts; a click opens its diff. */
export function fileItem(node: Extract<SessionsNode, { type: 'file' }>): vscode.TreeItem {
  const f = node.file;
  const t = new vscode.TreeItem(inertText(f.name, 'plain'), vscode.TreeItemCollapsibleState.None);
  t.id = `file:${node.session.key}:${f.path}`;
  t.resourceUri = vscode.Uri.file(f.path);
  const counts = f.added === undefined ? '' : `+${f.added} \u2212${f.removed ?? 0}`;
  t.description = inertText([f.folder, f.change === 'modified' ? '' : f.change, counts].filter(Boolean).join(' '), 'plain');
  t.tooltip = inertText(`${f.path}\n${f.change}${counts ? `, ${counts}` : ''}`, 'plain');
  t.contextValue = 'sessionFile';
  t.command = { command: commandIds.sessionFileDiff, title: 'Open Diff', arguments: [node] };
  return t;
}

/** The label of a folder group: the workspace folder's name, else the folder's own name. */
export function folderLabel(cwd: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(cwd));
  if (folder && folder.uri.fsPath === cwd) return folder.name;
  return path.basename(cwd) || cwd;
}

/** A Markdown string that carries agent text (already escaped with inert.markdown): untrusted, no HTML, no icons. */
function agentMarkdown(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
