/**
 * The open chat panels, one per session, and their restoration after a window reload: a
 * `WebviewPanelSerializer` for `switchboard.chat` reads `{sessionId, agentId, cwd}` from the webview state
 * (or, when the webview never stored it, the list of open chats kept in `workspaceState`, matched by
 * title; see openChats.ts) and brings the session back: resume, else load, else read-only from the
 * client's store (SessionManager.open). Closing a panel leaves its session (`session/close`).
 */
import * as vscode from 'vscode';
import type { AgentRegistry } from '../host/lifecycle/agentRegistry';
import type { AgentSession } from '../host/agentSession';
import { sessionKey } from '../host/sessionKey';
import type { SessionManager } from '../host/sessionManager';
import type { SessionRef } from '../host/sessionKey';
import type { HistoryItem } from '../host/history/sessionHistory';
import { ChatPanel } from './chatPanel';
import { StartingChat } from './startingChat';
import type { ChatContext } from './chatBinding';
import type { PromptMemory } from '../host/prompts/promptHistory';
import { readOnlyContextKey } from '../constants';
import { messageHtml as message } from './html';
import { mergeOpenChats, openChatsKey, parseOpenChats, PendingChats, type OpenChat } from './openChats';

/** Every open chat panel. */
export class ChatPanelRegistry implements vscode.Disposable {
  private readonly _panels = new Map<string, ChatPanel>();
  private readonly _disposables: vscode.Disposable[] = [];
  /** The subscriptions of each open panel, disposed when it closes. */
  private readonly _panelSubscriptions = new Set<vscode.Disposable>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a panel opened, closed, or became active or inactive. */
  readonly onDidChange = this._onDidChange.event;
  /** Resolves when every panel VS Code asked to restore so far has its session (tests, the benchmark). */
  restoring: Promise<void> = Promise.resolve();
  /** The chats the last window left open whose panels VS Code has not restored yet: every save keeps them. */
  private readonly _pending: PendingChats;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sessions: SessionManager,
    private readonly agents: AgentRegistry,
    private readonly state: vscode.Memento,
    /** Prompt history and drafts, shared by every composer. */
    private readonly memory?: PromptMemory,
  ) {
    this._disposables.push(this._onDidChange, this._onDidChange.event(() => this.updateContext()));
    this._pending = new PendingChats(parseOpenChats(state.get<unknown>(openChatsKey)));
  }

  /** The panel of a session, by its key ({@link sessionKey}) or by a bare session id (the last opened). */
  get(keyOrId: string): ChatPanel | undefined {
    return this._panels.get(keyOrId) ?? this.all().reverse().find((p) => p.session.sessionId === keyOrId);
  }

  /** Whether the chat of a session (by key) is visible. */
  isVisible(key: string): boolean {
    return this._panels.get(key)?.panel.visible ?? false;
  }

  /** Every open panel. */
  all(): ChatPanel[] {
    return [...this._panels.values()];
  }

  /** The session of the active chat panel, else the only open session. */
  activeSession(): AgentSession | undefined {
    const active = this.all().find((p) => p.panel.active);
    return active?.session ?? (this.sessions.sessions.length === 1 ? this.sessions.sessions[0] : undefined);
  }

  /**
   * Opens (or focuses) the chat of a session; `preserveFocus` shows it without moving the keyboard. `starting`:
   * the tab opened while its agent started, which becomes the session's chat (closed if it has one already).
   */
  open(session: AgentSession, preserveFocus = false, starting?: StartingChat): ChatPanel {
    const open = this._panels.get(session.key);
    if (open) {
      starting?.dispose();
      open.reveal(preserveFocus);
      return open;
    }
    const page = starting?.take();
    if (page) return this.adopt(ChatPanel.adopt(page.panel, session, this.contextFor(session), page.posted));
    return this.adopt(ChatPanel.create(session, this.contextFor(session), preserveFocus));
  }

  /** A tab for the chat of a new session, opened while its agent starts (startingChat.ts). */
  startChat(agentName: string, log?: vscode.LogOutputChannel): StartingChat {
    return new StartingChat(this.extensionUri, agentName, log);
  }

  /** Closes the panel of a session (which leaves the session). */
  close(keyOrId: string): boolean {
    const panel = this.get(keyOrId);
    if (!panel) return false;
    panel.panel.dispose();
    return true;
  }

  /** Closes the tab of a session but leaves the session open (it moves to the Chat view); false when it has none. */
  release(key: string): boolean {
    const panel = this._panels.get(key);
    if (!panel) return false;
    this._panels.delete(key);
    panel.panel.dispose();
    return true;
  }

  private contextFor(session: AgentSession): ChatContext {
    return { extensionUri: this.extensionUri, log: this.sessions.logFor(session.host.definition), memory: this.memory, history: this.historyOf(session), accounts: this.sessions.accounts };
  }

  /** The serializer that restores panels after a window reload (activation registers it: src/extension.ts). */
  serializer(): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: (panel, state) => {
        const done = this.restore(panel, state);
        this.restoring = Promise.all([this.restoring, done]).then(() => undefined);
        return done;
      },
    };
  }

  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const own = restoreRef(state);
    const ref = own ? this.withSavedDetails(own) : this.byTitle(panel.title);
    panel.webview.options = { enableScripts: false };
    if (!ref) {
      panel.webview.html = message('This chat could not be restored: it does not say which session it showed. Close it, and use ACP: Switch Session… to reopen the session from history.');
      return;
    }
    panel.webview.html = message(`Reconnecting to ${ref.agentName ?? ref.agentId}…`);
    // a panel that shows an error stays waiting until it is closed: the next window tries it again
    panel.onDidDispose(() => { if (!this._panels.has(sessionKey(ref.agentId, ref.sessionId))) this.doneWith(ref); });
    try {
      // at once from the store when its agent resumes: the agent connects behind the chat
      const session = await this.sessions.open(ref, this.agents.get(ref.agentId), undefined, { atOnce: true });
      if (this._panels.has(session.key)) {
        panel.dispose(); // the session is already shown in another panel
        return;
      }
      this.adopt(ChatPanel.restore(panel, session, this.contextFor(session)));
    } catch (error) {
      panel.webview.html = message(`This chat could not be restored: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private adopt(panel: ChatPanel): ChatPanel {
    const session = panel.session;
    this._panels.set(session.key, panel);
    this._pending.done({ agentId: session.host.definition.id, sessionId: session.sessionId });
    // the panel's subscriptions end with it: a released panel's session lives on (in the Chat view)
    const subscriptions = vscode.Disposable.from(
      panel.panel.onDidChangeViewState(() => this._onDidChange.fire()),
      // what it saves: the title, and the agent's name, which a restart (ending with a status change) can change
      session.thread.onDidChange((c) => { if (c.type === 'title' || c.type === 'status') void this.saveOpenChats(); }),
    );
    this._panelSubscriptions.add(subscriptions);
    panel.onDidDispose(() => {
      subscriptions.dispose();
      this._panelSubscriptions.delete(subscriptions);
      if (this._panels.get(session.key) === panel) {
        this._panels.delete(session.key);
        this.sessions.close(session.key);
      }
      void this.saveOpenChats();
      this._onDidChange.fire();
    });
    void this.saveOpenChats();
    this._onDidChange.fire();
    return panel;
  }

  /** The session history of a chat's folder, for its welcome. */
  private historyOf(session: AgentSession): () => Promise<HistoryItem[]> {
    return () => this.sessions.history(session.cwd);
  }

  /** A panel's own session, with the title and agent name saved for it (shown until the agent says more). */
  private withSavedDetails(ref: SessionRef): SessionRef {
    const saved = this._pending.find(ref);
    return saved ? { ...ref, title: saved.title, agentName: saved.agentName } : ref;
  }

  private byTitle(title: string): SessionRef | undefined {
    return this._pending.byTitle(title, (c) => this._panels.has(sessionKey(c.agentId, c.sessionId)));
  }

  private doneWith(ref: SessionRef): void {
    this._pending.done(ref);
    void this.saveOpenChats();
  }

  private saveOpenChats(): Thenable<void> {
    const open: OpenChat[] = this.all().map((p) => ({
      sessionId: p.session.sessionId, agentId: p.session.host.definition.id, agentName: p.session.host.definition.name,
      cwd: p.session.cwd, title: p.session.thread.title, panelTitle: p.panel.title,
    }));
    return this.state.update(openChatsKey, mergeOpenChats(open, this._pending.entries));
  }

  private updateContext(): void {
    const s = this.all().find((p) => p.panel.active)?.session;
    void vscode.commands.executeCommand('setContext', readOnlyContextKey, !!s && this.sessions.isReadOnly(s.key));
  }

  dispose(): void {
    this._disposables.splice(0).forEach((d) => d.dispose());
    this._panelSubscriptions.forEach((d) => d.dispose());
    this._panelSubscriptions.clear();
  }
}

/** The session a restored panel showed, from its webview state. */
export function restoreRef(state: unknown): SessionRef | undefined {
  const r = (state as { restore?: Partial<SessionRef> } | undefined)?.restore;
  if (!r || typeof r.sessionId !== 'string' || typeof r.agentId !== 'string' || typeof r.cwd !== 'string') return undefined;
  return { sessionId: r.sessionId, agentId: r.agentId, cwd: r.cwd };
}
