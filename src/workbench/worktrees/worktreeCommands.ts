/**
 * What the user does with a session's worktree (docs/worktrees.md): Open in New Window, Review Changes (every
 * file against the commit the worktree started from, in VS Code's multi-file diff editor), Commit (a message drafted
 * from the session's title and prompts, editable), Merge into the base branch (mergeFlow.ts), Discard (asks first;
 * the branch only when asked to), and what Archive and Unarchive Session do to it. Each command takes a row of the
 * Sessions view, a record id, or nothing (the active chat's worktree, else a pick).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';
import { inert, inertText } from '../../shared/inertText';
import type { WorktreeRecord } from '../../worktrees/worktreeRecords';
import { errorText, type WorktreeService } from './worktreeService';

/** The scheme of a file as it is at a commit: `switchboard-git:/<file>?{"top","commit","path"}` (read-only). */
export const gitFileScheme = 'switchboard-git';

/** What the commands need. */
export interface WorktreeCommandDeps {
  readonly sessions: SessionManager;
  readonly worktrees: WorktreeService;
  readonly activeSession: () => AgentSession | undefined;
}

/** A file of `top` at `commit` (or a stage of the index: `:1`, `:2`, `:3`), as a read-only document. */
export function gitFileUri(top: string, commit: string, file: string): vscode.Uri {
  return vscode.Uri.file(path.join(top, file)).with({ scheme: gitFileScheme, query: JSON.stringify({ top, commit, path: file }) });
}

/** Serves {@link gitFileUri} documents. */
export function registerGitFiles(worktrees: WorktreeService): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(gitFileScheme, {
    async provideTextDocumentContent(uri) {
      const q = JSON.parse(uri.query) as { top?: unknown; commit?: unknown; path?: unknown };
      if (typeof q.top !== 'string' || typeof q.commit !== 'string' || typeof q.path !== 'string') return '';
      const stage = /^:([123])$/.exec(q.commit);
      return stage ? worktrees.git.stage(q.top, q.path, Number(stage[1]) as 1 | 2 | 3) : worktrees.git.fileAt(q.top, q.commit, q.path);
    },
  });
}

/** The worktree a command is about: from its argument, the active chat, or a pick of the live ones. */
export async function worktreeTarget(deps: WorktreeCommandDeps, arg: unknown, title: string, states: readonly WorktreeRecord['state'][] = ['active']): Promise<WorktreeRecord | undefined> {
  await deps.worktrees.ready;
  const all = deps.worktrees.records.worktrees();
  const byArg = typeof arg === 'string' ? all.find((r) => r.id === arg)
    : isNode(arg) && arg.type === 'worktree' ? all.find((r) => r.id === arg.record.id)
      : isNode(arg) && arg.type === 'session' ? deps.worktrees.of(arg.item.cwd) : undefined;
  if (byArg) return byArg;
  const active = deps.activeSession();
  const ofActive = active && deps.worktrees.of(active.cwd);
  if (ofActive && states.includes(ofActive.state)) return ofActive;
  const live = all.filter((r) => states.includes(r.state));
  if (!live.length) return void vscode.window.showInformationMessage('No session has a worktree of its own: start one with ACP: Start Session in Worktree… or ACP: Ask Several Agents….');
  const pick = await vscode.window.showQuickPick(live.map((r) => ({ label: inert.label`$(git-branch) ${r.branch}`, description: inertText(`from ${r.baseBranch} · ${r.state}`, 'label'), detail: inertText(r.path, 'label'), record: r })), { title });
  return pick?.record;
}

function isNode(arg: unknown): arg is { type: 'worktree'; record: WorktreeRecord } | { type: 'session'; item: { cwd: string } } {
  return typeof arg === 'object' && arg !== null && 'type' in arg;
}

/** Open in New Window: the worktree's folder in a window of its own. */
export async function openInNewWindow(record: WorktreeRecord): Promise<void> {
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(record.path), { forceNewWindow: true });
}

/** Review Changes: every changed file of the worktree against the commit it started from, in one diff editor. */
export async function reviewWorktree(deps: WorktreeCommandDeps, record: WorktreeRecord): Promise<number> {
  const changes = await deps.worktrees.git.changes(record.path, record.baseCommit);
  if (!changes.length) {
    void vscode.window.showInformationMessage(inert.message`${record.branch} has no changes against ${record.baseBranch} yet.`);
    return 0;
  }
  const resources = changes.map((c) => {
    const file = vscode.Uri.file(path.join(record.path, c.path));
    const before = c.change === 'added' ? undefined : gitFileUri(record.top, record.baseCommit, c.path);
    const after = c.change === 'deleted' ? undefined : file;
    return [file, before, after] as const;
  });
  await vscode.commands.executeCommand('vscode.changes', inert.label`${record.branch} against ${record.baseBranch}`, resources);
  return changes.length;
}

/** The commit message drafted from the session: its title, then each prompt's first line. */
export function draftMessage(record: WorktreeRecord, session: AgentSession | undefined): string {
  const title = session?.thread.title.trim() || record.branch.replace(/^switchboard\//, '').replace(/-/g, ' ');
  const prompts = (session?.thread.entries ?? []).flatMap((e) => e.kind === 'user' ? [e.content.map((b) => (b.type === 'text' ? b.text : '')).join(' ').split('\n')[0].trim()] : []).filter(Boolean);
  const body = prompts.length > 1 || (prompts[0] && prompts[0] !== title) ? `\n\n${prompts.map((p) => `- ${p.slice(0, 100)}`).join('\n')}` : '';
  return `${title.slice(0, 72)}${body}`;
}

/** Commit: everything in the worktree, with a message the user edits first. Resolves to the commit, if one was made. */
export async function commitWorktree(deps: WorktreeCommandDeps, record: WorktreeRecord, message?: string): Promise<string | undefined> {
  const session = record.sessionKey ? deps.sessions.get(record.sessionKey) : undefined;
  const draft = draftMessage(record, session);
  const [subject, ...rest] = draft.split('\n');
  const body = rest.join('\n');
  const edited = message ?? await vscode.window.showInputBox({
    title: inert.label`Commit ${record.branch}`, value: subject, valueSelection: [0, subject.length],
    prompt: body ? 'The commit message (the session\'s prompts follow it as its body)' : 'The commit message',
    validateInput: (v) => (v.trim() ? undefined : 'A commit needs a message'),
  });
  if (edited === undefined) return undefined;
  try {
    const sha = await deps.worktrees.git.commitAll(record.path, message !== undefined ? message : `${edited.trim()}${body}`);
    if (!sha) void vscode.window.showInformationMessage(inert.message`Nothing to commit in ${record.branch}.`);
    else void vscode.window.showInformationMessage(inert.message`Committed ${sha.slice(0, 8)} on ${record.branch}.`);
    return sha;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Switchboard: the commit failed. ${errorText(error)}`);
    return undefined;
  }
}

/**
 * Discard: asks (modal), closes the session, removes the folder, and the branch only when the user chose that.
 * Resolves to true when the worktree is gone. `confirmed` skips the question (Discard the Others asked once).
 */
export async function discardWorktree(deps: WorktreeCommandDeps, record: WorktreeRecord, confirmed?: 'folder' | 'branch'): Promise<boolean> {
  let how = confirmed;
  if (!how) {
    const dirty = record.state === 'active' && !await deps.worktrees.git.isClean(record.path).catch(() => false);
    const pick = await vscode.window.showWarningMessage(
      inert.message`Discard the worktree of ${record.branch}?`,
      { modal: true, detail: inert.message`Its folder ${record.path} is removed${dirty ? ', with changes that are not committed' : ''}. ${record.baseBranch} is not touched. Keep the branch to come back to its commits.` },
      'Discard Worktree, Keep Branch', 'Discard Worktree and Branch',
    );
    if (!pick) return false;
    how = pick === 'Discard Worktree and Branch' ? 'branch' : 'folder';
  }
  if (record.sessionKey) deps.sessions.close(record.sessionKey);
  try {
    await deps.worktrees.git.remove(record.top, record.path);
    if (how === 'branch') await deps.worktrees.git.deleteBranch(record.top, record.branch);
    await deps.worktrees.put({ ...record, state: 'discarded' });
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Switchboard: the worktree of ${record.branch} was not discarded. ${errorText(error)}`);
    return false;
  }
}

/** Archive Session: the worktree's state is committed to its branch and its folder removed (Unarchive brings it back). */
export async function archiveWorktree(deps: WorktreeCommandDeps, record: WorktreeRecord): Promise<void> {
  try {
    await deps.worktrees.git.commitAll(record.path, `Switchboard: archived ${record.branch}`);
    await deps.worktrees.git.remove(record.top, record.path);
    await deps.worktrees.put({ ...record, state: 'archived' });
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Switchboard: the worktree of ${record.branch} stays: ${errorText(error)}`);
  }
}

/** Unarchive Session: the worktree comes back on its branch, where it was. */
export async function unarchiveWorktree(deps: WorktreeCommandDeps, record: WorktreeRecord): Promise<void> {
  try {
    await deps.worktrees.git.restore(record.top, record.path, record.branch);
    await deps.worktrees.put({ ...record, state: 'active' });
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Switchboard: the worktree of ${record.branch} did not come back: ${errorText(error)}`);
  }
}
