/**
 * The Chat view (a `WebviewView` in the secondary side bar): one session at a time, chosen with the
 * view's title picker, New Session or `switchboard.chat.openIn: sideBar`. It holds the same
 * {@link ChatBinding} as a chat tab (chatBinding.ts), so everything a chat does works the same here.
 *
 * A session has one chat at a time: the view never shows a session that has a tab (the chats router,
 * chatRouter.ts, focuses the tab instead, or moves the session here when the user picks it in the view).
 * Switching the view to another session leaves the previous one open (Switch Session lists it); Close
 * Session on the view's session closes it and empties the view.
 *
 * Reload: the webview keeps its session (`{sessionId, agentId, cwd}`) in its state, like a tab
 * (docs/chat.md), and VS Code hands that state back in `resolveWebviewView`; the
 * last session is also kept in `workspaceState` as a fallback. The session comes back as a tab's does:
 * resume, else load, else read-only.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { chatViewId } from '../constants';
import type { AgentSession } from '../host/agentSession';
import type { AgentRegistry } from '../host/lifecycle/agentRegistry';
import type { PromptMemory } from '../host/prompts/promptHistory';
import type { SessionRef } from '../host/sessionKey';
import type { SessionManager } from '../host/sessionManager';
import { ChatBinding } from './chatBinding';
import type { ChatSurface } from './chatBinding';
import { restoreRef } from './chatPanels';
import { messageHtml } from './html';

/** The `workspaceState` key of the view's session (the fallback of its webview state). */
export const chatViewSessionKey = 'switchboard.chatView.session';

const savedRefSchema = z.object({ agentId: z.string(), sessionId: z.string(), cwd: z.string(), agentName: z.optional(z.string()), title: z.optional(z.string()) });

const emptyText = 'No session here yet. Pick one with the list button in this view\'s title bar, or start a New Session.';

/** What the view needs from activation. */
export interface ChatViewDeps {
  readonly extensionUri: vscode.Uri;
  readonly sessions: SessionManager;
  readonly agents: AgentRegistry;
  readonly state: vscode.Memento;
  readonly memory?: PromptMemory;
  /** Runs before the view is first shown by Switchboard (moves it to the secondary side bar where needed). */
  readonly beforeFirstShow?: () => Promise<void>;
}

/** The Chat view's provider and its one session. */
export class ChatView implements vscode.WebviewViewProvider, vscode.Disposable {
  private _view: vscode.WebviewView | undefined;
  private _binding: ChatBinding | undefined;
  private _session: AgentSession | undefined;
  private _shownOnce = false;
  private readonly _becameActive = new vscode.EventEmitter<void>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  private readonly _disposables: vscode.Disposable[] = [this._becameActive, this._onDidChange];
  /** Fires when the view's session changed, or the view was shown or hidden. */
  readonly onDidChange = this._onDidChange.event;
  /** Resolves once the session the view showed before a reload is back (tests). */
  restoring: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ChatViewDeps) {
    this._disposables.push(deps.sessions.onDidChangeSessions(() => {
      // the view's session was closed elsewhere (Close Session, Sessions view): the view empties
      if (this._session && deps.sessions.get(this._session.key) !== this._session) this.clear();
    }));
  }

  /** The session the view shows. */
  get session(): AgentSession | undefined {
    return this._session;
  }

  /** Whether the view shows this session (by key) and is visible. */
  isVisible(key: string): boolean {
    return !!this._view?.visible && this._session?.key === key;
  }

  /** Whether the view is on screen. */
  get visible(): boolean {
    return !!this._view?.visible;
  }

  /** Shows a session in the view and reveals the view (the focus goes to its composer unless `preserveFocus`). */
  async show(session: AgentSession, preserveFocus = false): Promise<void> {
    if (this._session !== session) {
      this._session = session;
      void this.deps.state.update(chatViewSessionKey, refOf(session));
      if (this._view) this.bind(this._view, session);
      this._onDidChange.fire();
    }
    await this.reveal(preserveFocus);
  }

  /** Empties the view when it shows this session (by key); true when it did. Leaves the session open. */
  release(key: string): boolean {
    if (this._session?.key !== key) return false;
    this.clear();
    return true;
  }

  /** Shows the view (resolving it if VS Code has not yet). */
  async reveal(preserveFocus = false): Promise<void> {
    if (!this._shownOnce) {
      this._shownOnce = true;
      await this.deps.beforeFirstShow?.();
    }
    if (this._view) this._view.show(preserveFocus);
    else await vscode.commands.executeCommand(`${chatViewId}.focus`);
  }

  resolveWebviewView(view: vscode.WebviewView, context: vscode.WebviewViewResolveContext): void {
    this._view = view;
    this._disposables.push(
      view.onDidDispose(() => {
        if (this._view !== view) return;
        this._view = undefined;
        this._binding?.dispose();
        this._binding = undefined;
        this._onDidChange.fire();
      }),
      view.onDidChangeVisibility(() => {
        if (view.visible) this._becameActive.fire();
        this._onDidChange.fire();
      }),
    );
    if (this._session) this.bind(view, this._session);
    else {
      const saved = savedRef(this.deps.state.get<unknown>(chatViewSessionKey));
      const own = restoreRef(context.state);
      // the saved entry adds the title and agent name shown until the agent says more
      const ref = own && saved && (own.agentId !== saved.agentId || own.sessionId !== saved.sessionId) ? own : saved ?? own;
      if (ref) this.restoring = this.restore(view, ref);
      else this.showMessage(view, emptyText);
    }
    this._onDidChange.fire();
  }

  private async restore(view: vscode.WebviewView, ref: SessionRef): Promise<void> {
    this.showMessage(view, `Reconnecting to ${ref.agentName ?? ref.agentId}…`);
    try {
      // at once from the store when its agent resumes: the agent connects behind the chat
      const session = await this.deps.sessions.open(ref, this.deps.agents.get(ref.agentId), undefined, { atOnce: true });
      if (this._view !== view || this._session) return; // the user picked another session meanwhile
      this._session = session;
      this.bind(view, session);
      this._onDidChange.fire();
    } catch (error) {
      if (this._view === view && !this._session) this.showMessage(view, `This chat could not be restored: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private bind(view: vscode.WebviewView, session: AgentSession): void {
    this._binding?.dispose();
    const surface: ChatSurface = {
      webview: view.webview,
      reveal: () => void this.reveal(false),
      setTitle: ({ session: title, agent }) => {
        view.title = title;
        view.description = agent;
      },
      onDidBecomeActive: this._becameActive.event,
      // not in an editor group: a diff opens in the active group (diffPlacement.ts)
      viewColumn: () => undefined,
    };
    const history = (): ReturnType<SessionManager['history']> => this.deps.sessions.history(session.cwd);
    this._binding = new ChatBinding(surface, session, { extensionUri: this.deps.extensionUri, log: this.deps.sessions.logFor(session.host.definition), memory: this.deps.memory, history, accounts: this.deps.sessions.accounts });
  }

  private clear(): void {
    this._binding?.dispose();
    this._binding = undefined;
    this._session = undefined;
    void this.deps.state.update(chatViewSessionKey, undefined);
    if (this._view) this.showMessage(this._view, emptyText);
    this._onDidChange.fire();
  }

  private showMessage(view: vscode.WebviewView, text: string): void {
    view.webview.options = { enableScripts: false };
    view.webview.html = messageHtml(text);
    view.title = 'Chat';
    view.description = undefined;
  }

  dispose(): void {
    this._binding?.dispose();
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

function refOf(session: AgentSession): SessionRef {
  return { agentId: session.host.definition.id, sessionId: session.sessionId, cwd: session.cwd, agentName: session.host.definition.name, title: session.thread.title };
}

function savedRef(value: unknown): SessionRef | undefined {
  const parsed = savedRefSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
