/**
 * One session shown in one chat webview, whatever holds the webview: an editor tab (chatPanel.ts) or the
 * Chat view in the secondary side bar (chatView.ts). Both give a {@link ChatSurface}; everything a chat
 * needs is here once: the HTML with its CSP and nonce, the typed IPC, the delta queue, the card actions,
 * the composer and the link handler, and the focus rules (docs/chat.md).
 *
 * On the webview's ready message the host sends a snapshot (the state and the newest entries: switching to
 * a long session costs what a short one does; the webview asks for older entries page by page once it
 * painted), then batches of sequenced deltas (coalesced by deltaQueue.ts, at most one post per frame,
 * terminal output a few times a second), so a long streamed answer costs O(chunk) per update, not
 * O(message). A gap reported by the webview gets a fresh snapshot; `retainContextWhenHidden` stays false.
 * Nothing the agent sends shows or focuses the surface: only the user's own actions do.
 */
import * as vscode from 'vscode';
import { CancelSubagentCommand, RespondElicitationUrlCommand, DidRequestFocusNotification, ForkSessionCommand, RenameSessionCommand, RespondElicitationCommand, SetApprovalLevelCommand } from '../shared/chatProtocol';
import { CancelTurnCommand, DidChangeThreadNotification, AcknowledgeSnapshotCommand, DidLoadEntriesNotification, DidSnapshotThreadNotification, RequestStateCommand, RequestEntriesCommand, RequestSnapshotCommand, RespondPermissionCommand, ToggleFollowCommand } from '../shared/chatProtocol';
import type { IpcMessageType, NotificationMethod, NotificationTable, RequestEntriesParams } from '../shared/chatProtocol';
import { snapshotTailEntries } from '../shared/viewModel';
import { tabPrefix } from '../shared/sessionState';
import type { AgentSession } from '../host/agentSession';
import { editorToolsPart } from '../host/lifecycle/editorTools/editorToolsPart';
import { entryView, nestedEntryView, sessionNames, stateToView, threadSnapshot, type HeaderFacts } from '../thread/view/toView';
import type { ThreadChange } from '../thread/model/thread';
import { chatHtml, localResourceRoots } from './html';
import { inertText } from '../shared/inertText';
import { registerCardActions } from './cardActions';
import { ComposerController } from './composerController';
import type { PromptMemory } from '../host/prompts/promptHistory';
import { DeltaQueue } from './deltaQueue';
import { IpcDispatcher } from './ipc';
import { ChatLinkHandler } from './linkHandler';
import { registerMessageActions } from './messageActions';
import { ChangedFilesController } from './changedFilesController';
import { AccountController } from './accountController';
import type { AgentAccounts } from '../host/auth/agentAccounts';
import { WelcomeController } from './welcomeController';
import { commandIds } from '../constants';
import { levelView } from '../shared/approvalLevel';
import type { HistorySource } from './welcomeController';

const flushMs = 16;

/** What a chat needs from the place that shows it (a tab, a view). */
export interface ChatSurface {
  readonly webview: vscode.Webview;
  /** Shows the surface and gives it the keyboard (the user asked for this chat). */
  reveal(): void;
  /** Shows the session's title where the surface has one (tab title, view title), already inert. */
  setTitle(titles: ChatTitles): void;
  /**
   * The page shows its first snapshot. VS Code gives a webview's frame the title it had when the page was set,
   * and sends a later change only to the frame that is active then: one made while the page loaded is lost.
   */
  pageShown?(): void;
  /** Fires when the surface is brought to the front (tab activated, view shown). */
  readonly onDidBecomeActive: vscode.Event<void>;
  /** The editor group the surface is in, when it is a tab (diffs open beside it, never over it). */
  viewColumn(): vscode.ViewColumn | undefined;
}

/** A chat's titles, inert: the tab's (`full`), and its parts (a view shows them as title and description). */
export interface ChatTitles {
  readonly full: string;
  readonly session: string;
  readonly agent: string;
}

/** What every chat shares: the extension's folder, the agent log of a session, prompt history and drafts. */
export interface ChatContext {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly memory?: PromptMemory;
  /** The sessions the welcome of an empty chat lists (the session history of its folder). */
  readonly history?: HistorySource;
  /** The agents' sign-in states and model providers (the header's account chip, the settings popover). */
  readonly accounts?: AgentAccounts;
}

/** Sets the webview options every chat webview needs (scripts, the resource roots). */
export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: localResourceRoots(extensionUri) };
}

/** One session bound to one webview. Disposing it leaves the webview (and the session) alone. */
export class ChatBinding implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private _seq = 0;
  private _ready = false;
  /** The user jumped to this session before its webview was ready: the request gets the focus once it is. */
  private _focusRequest = false;
  private _disposed = false;
  private readonly _queue: DeltaQueue;
  private _timer: NodeJS.Timeout | undefined;
  /** When deltas were last posted (ms, Date.now()). */
  private _postedAt = Number.NEGATIVE_INFINITY;
  /** The composer's host side (prompts, queue, draft, config options, file search). */
  readonly composer: ComposerController;
  /** Links and code blocks of agent Markdown. */
  private readonly links: ChatLinkHandler;
  /** The welcome of an empty chat. */
  private readonly welcome: WelcomeController;
  /** The changed-files bar above the composer. */
  private readonly changedFiles: ChangedFilesController;
  /** The account chip and the model providers. */
  private readonly account: AccountController;

  /**
   * `loaded`: the surface already holds the chat's page, loaded while the agent started (startingChat.ts), with
   * what it posted meanwhile (its ready, the user's first keys): the page stays and those messages are handled now.
   */
  constructor(private readonly surface: ChatSurface, readonly session: AgentSession, { extensionUri, log, memory, history, accounts }: ChatContext, loaded?: { readonly posted: readonly unknown[] }) {
    const webview = surface.webview;
    if (!loaded) {
      webview.options = chatWebviewOptions(extensionUri);
      webview.html = chatHtml(webview, extensionUri, chatTitles(session).full, { sessionId: session.sessionId, agentId: session.host.definition.id, cwd: session.cwd });
    }
    this.updateTitle();
    this._queue = new DeltaQueue({
      entry: (index) => entryView(session.thread.entries[index], sessionNames(session.thread)),
      nestedEntry: (index, path) => nestedEntryView(session.thread, index, path),
      state: () => stateToView(session.thread, headerFacts(session)),
      terminal: (terminalId) => session.thread.terminals.view(terminalId) ?? null,
    });
    this.composer = new ComposerController(session, (type, params) => this.post(type, params), () => surface.reveal(), log, memory);
    this.links = new ChatLinkHandler(session.cwd, log);
    this.welcome = new WelcomeController(session, history, (type, params) => this.post(type, params), log);
    this.changedFiles = new ChangedFilesController(session, (type, params) => this.post(type, params), () => surface.viewColumn(), log);
    this.account = new AccountController(session, accounts, (type, params) => this.post(type, params));
    const ipc = new IpcDispatcher(log);
    const received = (m: unknown): void => {
      ipc.dispatch(m);
      if (isUserAction(m)) session.thread.acknowledgeFailure();
    };
    this.registerCommands(ipc);
    registerCardActions(ipc, session, () => surface.viewColumn());
    registerMessageActions(ipc, session, () => surface.viewColumn());
    this.composer.register(ipc);
    this.links.register(ipc);
    this.welcome.register(ipc);
    this.changedFiles.register(ipc);
    this.account.register(ipc);
    this._disposables.push(
      this.composer,
      this.links,
      this.changedFiles,
      this.account,
      surface.onDidBecomeActive(() => {
        this.composer.markActive();
        session.thread.acknowledgeFailure(); // brought to the front: the failure in it is seen
        session.activity.markSeen(); // and the end of its last turn
      }),
      session.activity.onDidChange(() => this.updateTitle()),
      session.activity.onDidRequestFocus(() => this.requestFocus()),
      webview.onDidReceiveMessage(received),
      session.thread.onDidChange((c) => this.onThreadChange(c)),
      session.follow.onDidToggle(() => this.onHeaderChange()),
      session.permissions.onDidChangeLevel(() => this.onHeaderChange()),
      // a session that follows the settings' level shows their new one
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('switchboard.permissions')) this.onHeaderChange(); }),
    );
    loaded?.posted.forEach(received);
  }

  /** The binding's own commands: the webview's ready and resync, older entries, cancel, permissions, Follow Agent. */
  private registerCommands(ipc: IpcDispatcher): void {
    const ready = (): void => {
      this._ready = true;
      this.sendSnapshot();
      this.composer.sendState();
      void this.welcome.send();
      this.changedFiles.sendState();
      this.account.sendState(true);
      if (this._focusRequest) this.requestFocus(); // after the snapshot that renders the request
    };
    ipc.on(RequestStateCommand, ready);
    ipc.on(RequestSnapshotCommand, ready);
    ipc.on(RequestEntriesCommand, (params) => this.sendEntries(params));
    ipc.on(AcknowledgeSnapshotCommand, () => this.surface.pageShown?.());
    ipc.on(CancelTurnCommand, () => this.session.cancel());
    ipc.on(RespondPermissionCommand, ({ requestId, optionId }) => { this.session.permissions.respond(requestId, optionId); });
    ipc.on(ToggleFollowCommand, () => this.session.follow.toggle());
    // the header: the commands of the Sessions view and the palette, for this chat's session
    ipc.on(RenameSessionCommand, () => { void vscode.commands.executeCommand(commandIds.renameSession, this.session.key); });
    ipc.on(ForkSessionCommand, () => { void vscode.commands.executeCommand(commandIds.forkSession, this.session.key); });
    ipc.on(SetApprovalLevelCommand, () => { void vscode.commands.executeCommand(commandIds.setApprovalLevel, this.session.key); });
    ipc.on(RespondElicitationCommand, ({ requestId, action, content }) => { this.session.elicitations.respond(requestId, action, content); });
    ipc.on(RespondElicitationUrlCommand, ({ requestId, op }) => { this.session.elicitations.urlAction(requestId, op); });
    ipc.on(CancelSubagentCommand, ({ sessionId }) => {
      if (!this.session.cancelSubagent(sessionId)) this.session.context.log.info(`Cancel of subagent '${sessionId}' not sent: the agent does not permit it, or it is unknown`);
    });
  }

  /** Focuses the pending request in the webview; kept until a webview took it (a hidden one drops messages). */
  private requestFocus(): void {
    this._focusRequest = true;
    if (!this._ready || this._disposed) return;
    void this.surface.webview.postMessage({ method: DidRequestFocusNotification.method, params: {} }).then((delivered) => {
      if (delivered) this._focusRequest = false;
    });
  }

  private updateTitle(): void {
    this.surface.setTitle(chatTitles(this.session));
  }

  private sendSnapshot(): void {
    this._queue.clear();
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    const { session } = this;
    const restore = { sessionId: session.sessionId, agentId: session.host.definition.id, cwd: session.cwd };
    this.post(DidSnapshotThreadNotification, { ...threadSnapshot(session.thread, headerFacts(session), this._seq, snapshotTailEntries), restore });
  }

  /**
   * Older entries for a webview that shows the newest ones. The pending deltas go first, so the entries are
   * current at the seq they carry and every later delta applies on top of them.
   */
  private sendEntries({ before, count }: RequestEntriesParams): void {
    this.flush(true);
    const entries = this.session.thread.entries;
    const end = Math.min(before, entries.length);
    const from = Math.max(0, end - count);
    this.post(DidLoadEntriesNotification, { seq: this._seq, from, entries: entries.slice(from, end).map((e) => entryView(e, sessionNames(this.session.thread))) });
  }

  private onThreadChange(c: ThreadChange): void {
    // the agent's name is in the title too: a restart may move the session to an agent renamed meanwhile,
    // and it always ends with a status change
    if (c.type === 'title' || c.type === 'status') this.updateTitle();
    if (!this._ready) return; // the snapshot on ready will include it
    this._queue.add(c);
    this.schedule();
  }

  /** The host's part of the header changed (Follow Agent). */
  private onHeaderChange(): void {
    if (!this._ready) return;
    this._queue.addState();
    this.schedule();
  }

  /**
   * Sets the timer for the next post: at once (the next macrotask, so that a burst read from the pipe in one
   * go is one post) when the last post is a frame ago, else one frame after it, or when paced terminal output
   * is due. A slow stream's chunk goes out as it comes (agent write → painted within a frame or two); a fast
   * one is still at most one post per frame.
   */
  private schedule(): void {
    if (this._timer || this._disposed) return;
    const now = Date.now();
    const due = this._queue.dueIn(now);
    if (due !== undefined) this._timer = setTimeout(() => this.flush(), Math.max(this._postedAt + flushMs - now, due, 0));
  }

  /** Posts what is due (everything when `all`: an answer that must be current at the seq it carries). */
  private flush(all = false): void {
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    const deltas = all ? this._queue.take() : this._queue.take(Date.now());
    if (deltas.length) {
      const firstSeq = this._seq + 1;
      this._seq += deltas.length;
      this._postedAt = Date.now();
      this.post(DidChangeThreadNotification, { firstSeq, deltas });
    }
    this.schedule();
  }

  private post<M extends NotificationMethod>(type: IpcMessageType<NotificationTable[M], M>, params: NotificationTable[M]): void {
    if (this._disposed) return; // the webview shows another session now, or is gone
    // a hidden webview drops messages; it asks for a snapshot when it is shown again
    void this.surface.webview.postMessage({ method: type.method, params }).then((delivered) => {
      if (!delivered) this._ready = false;
    });
  }

  dispose(): void {
    this._disposed = true;
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

/** What the chat's header shows that the host keeps, not the thread: the agent's name, Follow Agent, Fork, the approval level. */
export function headerFacts(session: AgentSession): HeaderFacts {
  return { agentName: session.host.displayName, following: session.follow.enabled, canFork: session.canFork, approvals: levelView(session.permissions.level), mcp: session.part(editorToolsPart).tooltip() };
}

/**
 * The chat's titles: the session's title and the agent's name, both inert (plain text, capped, no invisible
 * characters). An untitled session's name already says its agent ("Demo agent · 10:42:07"): the tab shows it alone.
 */
export function chatTitles(session: AgentSession): ChatTitles {
  // the session's live state, as a mark before the title (none when idle: src/shared/sessionState.ts)
  const title = tabPrefix(session.activity.state.kind) + inertText(session.thread.titles.shown, 'plain', 80);
  const agent = inertText(session.host.displayName, 'plain', 40);
  return { full: session.thread.title ? `${title} · ${agent}` : title, session: title, agent };
}

// what the webview sends by itself (loading, resyncing, paging): every other command is the user acting in the chat
const passiveMethods = new Set<string>([RequestStateCommand.method, AcknowledgeSnapshotCommand.method, RequestSnapshotCommand.method, RequestEntriesCommand.method]);

function isUserAction(m: unknown): boolean {
  const method = typeof m === 'object' && m !== null ? (m as { method?: unknown }).method : undefined;
  return typeof method === 'string' && !passiveMethods.has(method);
}
