/**
 * The Sessions view (Switchboard activity-bar container), the home of all sessions (docs/sessions.md "A home
 * for all sessions"): sessions grouped by agent or by workspace folder (a toggle in the title bar; a folder shows
 * its git branch and uncommitted changes), each with its live state and how long it has been so, the open ones
 * (waiting for you first) above history, and under an open session its changed files (Open Diff, Keep, Undo).
 * Search Sessions shows the sessions whose title or transcript contains the words. The view's badge counts the
 * sessions waiting for you. Archived sessions are hidden until the Archived filter shows them. Empty, it shows
 * a welcome view with a New Session button (package.json `viewsWelcome`).
 *
 * History (which asks running agents for `session/list`) is read again only when sessions come or go, or history
 * changed; a state change of an open session only redraws the rows.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import type { HistoryItem } from '../../host/history/sessionHistory';
import type { SessionManager } from '../../host/sessionManager';
import type { TranscriptStore } from '../../host/history/transcriptStore';
import { stateRank } from '../../shared/sessionState';
import { sessionsGroupByContextKey, sessionsShowArchivedContextKey } from '../../constants';
import { GitStatus } from './gitStatus';
import { SessionFilesCache } from './sessionFiles';
import { SessionSearch } from './sessionSearch';
import type { WorktreeLookup } from '../worktrees/worktreeService';
import { fileItem, folderLabel, groupItem, sessionItem, worktreeItem, type GroupBy, type RowContext, type SessionsNode } from './sessionsTreeItems';

export type { SessionsNode } from './sessionsTreeItems';

const groupByKey = 'switchboard.sessionsGroupBy';

/** Groups, their sessions, and the open sessions' changed files. */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<SessionsNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _disposables: vscode.Disposable[] = [];
  private _timer: NodeJS.Timeout | undefined;
  private _showArchived = false;
  private _groupBy: GroupBy;
  /** History as last read; undefined: read it again at the next render. */
  private _rows: Promise<HistoryItem[]> | undefined;
  private _activitySubs: vscode.Disposable[] = [];
  private _view: vscode.TreeView<SessionsNode> | undefined;
  readonly git: GitStatus;
  readonly files: SessionFilesCache;
  readonly search: SessionSearch;

  constructor(private readonly sessions: SessionManager, store: TranscriptStore, private readonly state: vscode.Memento, log: vscode.LogOutputChannel, private readonly worktrees?: WorktreeLookup) {
    this._groupBy = state.get<GroupBy>(groupByKey) === 'folder' ? 'folder' : 'agent';
    this.git = new GitStatus(log);
    this.files = new SessionFilesCache(log);
    this.search = new SessionSearch(store, () => this.redraw());
    this._disposables.push(
      this._onDidChangeTreeData, this.git, this.files, this.search,
      sessions.onDidChangeSessions(() => this.sessionsChanged()),
      store.onDidChange(() => this.refresh()),
      this.git.onDidChange(() => this.redraw()),
      this.files.onDidChange(() => this.redraw()),
      ...(worktrees ? [worktrees.onDidChange(() => this.redraw())] : []),
    );
    void vscode.commands.executeCommand('setContext', sessionsShowArchivedContextKey, false);
    void vscode.commands.executeCommand('setContext', sessionsGroupByContextKey, this._groupBy);
    this.sessionsChanged();
  }

  /** Gives the provider its view (for the badge and the search message). */
  attach(view: vscode.TreeView<SessionsNode>): void {
    this._view = view;
    this.updateBadge();
  }

  /** Whether archived sessions are shown (the Archived filter). */
  get showArchived(): boolean {
    return this._showArchived;
  }

  /** Turns the Archived filter on or off (the title bar shows the other toggle). */
  setShowArchived(on: boolean): void {
    this._showArchived = on;
    void vscode.commands.executeCommand('setContext', sessionsShowArchivedContextKey, on);
    this.refresh();
  }

  /** How sessions are grouped (remembered for the workspace). */
  get groupBy(): GroupBy {
    return this._groupBy;
  }

  setGroupBy(by: GroupBy): void {
    this._groupBy = by;
    void this.state.update(groupByKey, by);
    void vscode.commands.executeCommand('setContext', sessionsGroupByContextKey, by);
    this.redraw();
  }

  /** Reads history again (coalesced: at most every 300 ms). */
  refresh(): void {
    this._rows = undefined;
    this.schedule(300);
  }

  /** Redraws the rows from the history already read (a state, a file list, a search result changed). */
  redraw(): void {
    this.updateBadge();
    this.schedule(100);
  }

  /** The history rows the view shows now (the Archived filter applies). */
  rows(): Promise<HistoryItem[]> {
    this._rows ??= this.sessions.history(undefined, { archived: this._showArchived });
    return this._rows;
  }

  async getChildren(node?: SessionsNode): Promise<SessionsNode[]> {
    if (node?.type === 'file' || node?.type === 'worktree') return [];
    if (node?.type === 'session') {
      const record = this.worktrees?.of(node.item.cwd);
      const files: SessionsNode[] = node.item.open ? this.files.list(node.item.open).map((file) => ({ type: 'file', session: node.item.open as AgentSession, file })) : [];
      return record ? [{ type: 'worktree', record, item: node.item }, ...files] : files;
    }
    if (node?.type === 'group') return node.items.map((item) => ({ type: 'session', item, by: node.by }));
    const rows = byState(await this.rows());
    this.search.showResults(this._view, rows);
    if (this.search.active) return this.search.filter(rows).map(({ item, snippet }) => ({ type: 'session', item, by: 'search', ...(snippet ? { snippet } : {}) }));
    const groups = new Map<string, HistoryItem[]>();
    for (const item of rows) {
      const key = this._groupBy === 'agent' ? item.agentId : item.cwd;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    return [...groups].map(([key, items]) => ({
      type: 'group', by: this._groupBy, key, items, label: this._groupBy === 'agent' ? items[0]?.agentName ?? key : folderLabel(key),
    }));
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    const ctx: RowContext = { now: Date.now(), git: (folder) => this.git.get(folder), files: (s) => this.files.list(s), worktree: (cwd) => this.worktrees?.of(cwd) };
    switch (node.type) {
      case 'group': return groupItem(node, ctx);
      case 'session': return sessionItem(node, ctx);
      case 'file': return fileItem(node);
      case 'worktree': return worktreeItem(node);
    }
  }

  getParent(): undefined {
    return undefined;
  }

  /** Sessions came or went: follow their states and changed files, read history again. */
  private sessionsChanged(): void {
    this._activitySubs.splice(0).forEach((d) => d.dispose());
    const open = this.sessions.sessions;
    this.files.sync(open);
    for (const s of open) {
      this._activitySubs.push(s.activity.onDidChange((state) => {
        if (state.kind !== 'streaming') this.git.invalidate(); // a turn ended: the agent may have changed the repository
        this.redraw();
      }));
    }
    this.refresh();
  }

  /** The activity bar's badge: how many sessions wait for you. */
  private updateBadge(): void {
    if (!this._view) return;
    const waiting = this.sessions.sessions.filter((s) => s.activity.state.kind === 'waiting').length;
    this._view.badge = waiting ? { value: waiting, tooltip: waiting === 1 ? '1 session is waiting for you' : `${waiting} sessions are waiting for you` } : undefined;
  }

  private schedule(ms: number): void {
    this._timer ??= setTimeout(() => { this._timer = undefined; this._onDidChangeTreeData.fire(undefined); }, ms);
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._activitySubs.splice(0).forEach((d) => d.dispose());
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

/** Open sessions by state (waiting for you first), then the rest in history's order (most recent first). */
function byState(rows: readonly HistoryItem[]): HistoryItem[] {
  const rank = (i: HistoryItem) => (i.open ? stateRank(i.open.activity.state.kind) : 99);
  return rows.map((item, index) => ({ item, index })).sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index).map((x) => x.item);
}
