/**
 * The Sessions view (Switchboard activity-bar container): agents, then their sessions (open ones first,
 * then history), with the same actions as Switch Session (open, close, delete) inline and in the context
 * menu, and Fork (an agent that can), Rename (also F2), Archive and Unarchive. Archived sessions are hidden
 * until the Archived filter in the title bar shows them. Empty, it shows a welcome view with a New Session
 * button (package.json `viewsWelcome`).
 */
import { untitledSession } from '../../shared/viewModel';
import * as vscode from 'vscode';
import { rowDescription } from './switchSession';
import type { HistoryItem } from '../../host/history/sessionHistory';
import { inert, inertText } from '../../shared/inertText';
import type { SessionManager } from '../../host/sessionManager';
import type { TranscriptStore } from '../../host/history/transcriptStore';
import { commandIds, sessionsShowArchivedContextKey } from '../../constants';


/** A node: an agent, or one of its sessions. */
export type SessionsNode =
  | { readonly type: 'agent'; readonly agentId: string; readonly agentName: string; readonly items: HistoryItem[] }
  | { readonly type: 'session'; readonly item: HistoryItem };

/** Agents and their sessions. */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<SessionsNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _disposables: vscode.Disposable[] = [];
  private _timer: NodeJS.Timeout | undefined;
  private _showArchived = false;

  constructor(private readonly sessions: SessionManager, store: TranscriptStore) {
    this._disposables.push(this._onDidChangeTreeData, sessions.onDidChangeSessions(() => this.refresh()), store.onDidChange(() => this.refresh()));
    void vscode.commands.executeCommand('setContext', sessionsShowArchivedContextKey, false);
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

  /** Re-reads history (coalesced: at most every 300 ms). */
  refresh(): void {
    this._timer ??= setTimeout(() => { this._timer = undefined; this._onDidChangeTreeData.fire(undefined); }, 300);
  }

  async getChildren(node?: SessionsNode): Promise<SessionsNode[]> {
    if (node?.type === 'session') return [];
    if (node?.type === 'agent') return node.items.map((item) => ({ type: 'session', item }));
    const byAgent = new Map<string, HistoryItem[]>();
    for (const item of await this.sessions.history(undefined, { archived: this._showArchived })) {
      const list = byAgent.get(item.agentId) ?? [];
      list.push(item);
      byAgent.set(item.agentId, list);
    }
    return [...byAgent].map(([agentId, items]) => ({ type: 'agent', agentId, agentName: items[0]?.agentName ?? agentId, items }));
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    if (node.type === 'agent') {
      const t = new vscode.TreeItem(inertText(node.agentName, 'plain'), vscode.TreeItemCollapsibleState.Expanded);
      t.id = `agent:${node.agentId}`;
      t.iconPath = new vscode.ThemeIcon('hubot');
      t.contextValue = 'agent';
      t.description = node.items.length === 1 ? '1 session' : inert.plain`${node.items.length} sessions`;
      return t;
    }
    const item = node.item;
    const t = new vscode.TreeItem(inertText(item.title || untitledSession, 'plain'), vscode.TreeItemCollapsibleState.None);
    t.id = `session:${item.agentId}:${item.sessionId}`;
    const status = item.open?.thread.status;
    t.iconPath = status === 'awaitingPermission' ? new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('notificationsWarningIcon.foreground'))
      : status === 'working' ? new vscode.ThemeIcon('sync~spin')
      : item.open ? new vscode.ThemeIcon('comment-discussion') : item.archived ? new vscode.ThemeIcon('archive') : new vscode.ThemeIcon('history');
    t.description = inertText([rowDescription(item).replace(`${item.agentName} · `, ''), item.archived ? 'archived' : ''].filter(Boolean).join(' · '), 'plain');
    const where = item.open ? 'Open' : item.stored ? 'In Switchboard\'s history' : 'Listed by the agent';
    t.tooltip = agentMarkdown(inert.markdown`**${item.title || untitledSession}**\n\n${item.agentName} · ${item.cwd}\n\n` + where + (item.archived ? ' · Archived' : ''));
    // what the context menu offers (package.json view/item/context): Fork only for an agent that can fork
    t.contextValue = item.open ? `session.open${item.open.thread.canFork ? '.fork' : ''}` : `session.history${item.archived ? '.archived' : ''}`;
    t.command = { command: commandIds.openSession, title: 'Open Session', arguments: [node] };
    return t;
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

/** A Markdown string that carries agent text (already escaped with inert.markdown): untrusted, no HTML, no icons. */
function agentMarkdown(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
