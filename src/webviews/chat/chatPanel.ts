/**
 * The chat panel of one session: a WebviewPanel in the editor area. On the webview's ready message the host
 * sends a snapshot (the state and the newest entries: switching to a long session costs what a short one
 * does; the webview asks for the older entries page by page once it painted), then batches of sequenced
 * deltas (coalesced by deltaQueue.ts, at most one post per frame, terminal output a few times a second), so
 * a long streamed answer costs O(chunk) per update, not O(message): clients that re-render the whole message per chunk freeze the editor on long
 * answers (docs/architecture.md#the-chat-webview). A gap reported by the webview gets a fresh snapshot;
 * `retainContextWhenHidden` stays false. Every command from the webview goes through one typed dispatcher
 * (ipc.ts), where the panel, the composer, the card actions and the link handler register.
 */
import * as vscode from 'vscode';
import { chatViewType } from '../../constants';
import { ElicitationUrlCommand, RespondElicitationCommand } from '../../shared/chatProtocol';
import { CancelTurnCommand, DidChangeNotification, DidEntriesNotification, DidSnapshotNotification, ReadyCommand, RequestEntriesCommand, RequestSnapshotCommand, RespondPermissionCommand, ToggleFollowCommand } from '../../shared/chatProtocol';
import type { IpcMessageType, RequestEntriesParams } from '../../shared/chatProtocol';
import { snapshotTailEntries, untitledSession } from '../../shared/viewModel';
import type { AgentSession } from '../../host/agentSession';
import { entryToView, stateToView, threadSnapshot } from '../../thread/toView';
import type { ThreadChange } from '../../thread/thread';
import { chatHtml, localResourceRoots } from './html';
import { inertText } from '../../shared/inertText';
import { registerCardActions } from './cardActions';
import { ComposerController } from './composerController';
import type { PromptMemory } from '../../host/prompts/promptHistory';
import { DeltaQueue } from './deltaQueue';
import { IpcDispatcher } from './ipc';
import { ChatLinkHandler } from './linkHandler';
import { WelcomeController } from './welcomeController';
import type { HistorySource } from './welcomeController';

const flushMs = 16;

/** One open chat panel. */
export class ChatPanel implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private _seq = 0;
  private _ready = false;
  private readonly _queue: DeltaQueue;
  private _timer: NodeJS.Timeout | undefined;
  private readonly _onDidDispose = new vscode.EventEmitter<void>();
  /** Fires when the panel was closed. */
  readonly onDidDispose = this._onDidDispose.event;

  /** Opens a new panel for a session. */
  static create(extensionUri: vscode.Uri, session: AgentSession, log: vscode.LogOutputChannel, memory?: PromptMemory, history?: HistorySource): ChatPanel {
    const panel = vscode.window.createWebviewPanel(chatViewType, title(session), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: localResourceRoots(extensionUri),
    });
    return new ChatPanel(panel, extensionUri, session, log, memory, history);
  }

  /** Adopts a panel VS Code restored after a window reload (the serializer), for the session it showed. */
  static restore(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, session: AgentSession, log: vscode.LogOutputChannel, memory?: PromptMemory, history?: HistorySource): ChatPanel {
    panel.webview.options = { enableScripts: true, localResourceRoots: localResourceRoots(extensionUri) };
    panel.title = title(session);
    return new ChatPanel(panel, extensionUri, session, log, memory, history);
  }

  /** The composer's host side (prompts, queue, draft, config options, file search). */
  readonly composer: ComposerController;
  /** Links and code blocks of agent Markdown. */
  private readonly links: ChatLinkHandler;
  /** The welcome of an empty chat. */
  private readonly welcome: WelcomeController;

  private constructor(readonly panel: vscode.WebviewPanel, extensionUri: vscode.Uri, readonly session: AgentSession, log: vscode.LogOutputChannel, memory?: PromptMemory, history?: HistorySource) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon-chat.svg');
    panel.webview.html = chatHtml(panel.webview, extensionUri, title(session), { sessionId: session.sessionId, agentId: session.host.definition.id, cwd: session.cwd });
    this._queue = new DeltaQueue({
      entry: (index) => entryToView(session.thread.entries[index]),
      state: () => stateToView(session.thread, session.host.definition.name),
      terminal: (terminalId) => session.thread.terminals.view(terminalId) ?? null,
    });
    this.composer = new ComposerController(session, (type, params) => this.post(type, params), () => this.reveal(), log, memory);
    this.links = new ChatLinkHandler(session.cwd, log);
    this.welcome = new WelcomeController(session, history, (type, params) => this.post(type, params), log);
    const ipc = new IpcDispatcher(log);
    this.registerCommands(ipc);
    registerCardActions(ipc, session);
    this.composer.register(ipc);
    this.links.register(ipc);
    this.welcome.register(ipc);
    this._disposables.push(
      this.composer,
      this.links,
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.active) return;
        this.composer.markActive();
        session.thread.acknowledgeFailure(); // brought to the front: the failure in it is seen
      }),
      panel.webview.onDidReceiveMessage((m: unknown) => {
        ipc.dispatch(m);
        if (isUserAction(m)) session.thread.acknowledgeFailure();
      }),
      panel.onDidDispose(() => this.dispose()),
      session.thread.onDidChange((c) => this.onThreadChange(c)),
    );
  }

  /** Shows the panel. */
  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** The panel's own commands: the webview's ready and resync, older entries, cancel, permissions, Follow Agent. */
  private registerCommands(ipc: IpcDispatcher): void {
    const ready = (): void => {
      this._ready = true;
      this.sendSnapshot();
      this.composer.sendState();
      void this.welcome.send();
    };
    ipc.on(ReadyCommand, ready);
    ipc.on(RequestSnapshotCommand, ready);
    ipc.on(RequestEntriesCommand, (params) => this.sendEntries(params));
    ipc.on(CancelTurnCommand, () => this.session.cancel());
    ipc.on(RespondPermissionCommand, ({ requestId, optionId }) => { this.session.respondPermission(requestId, optionId); });
    ipc.on(ToggleFollowCommand, () => this.session.follow.toggle());
    ipc.on(RespondElicitationCommand, ({ requestId, action, content }) => { this.session.elicitations.respond(requestId, action, content); });
    ipc.on(ElicitationUrlCommand, ({ requestId, op }) => { this.session.elicitations.urlAction(requestId, op); });
  }

  private sendSnapshot(): void {
    this._queue.clear();
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    const t = this.session.thread;
    this.post(DidSnapshotNotification, threadSnapshot(t, this.session.host.definition.name, this._seq, snapshotTailEntries));
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
    this.post(DidEntriesNotification, { seq: this._seq, from, entries: entries.slice(from, end).map(entryToView) });
  }

  private onThreadChange(c: ThreadChange): void {
    // the agent's name is in the title too: a restart may move the session to an agent renamed meanwhile,
    // and it always ends with a status change
    if (c.type === 'title' || c.type === 'status') this.panel.title = title(this.session);
    if (!this._ready) return; // the snapshot on ready will include it
    this._queue.add(c);
    this.schedule();
  }

  /** Sets the timer for the next post: the next frame, or when paced terminal output is due. */
  private schedule(): void {
    if (this._timer) return;
    const due = this._queue.dueIn(Date.now());
    if (due !== undefined) this._timer = setTimeout(() => this.flush(), Math.max(flushMs, due));
  }

  /** Posts what is due (everything when `all`: an answer that must be current at the seq it carries). */
  private flush(all = false): void {
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    const deltas = all ? this._queue.take() : this._queue.take(Date.now());
    if (deltas.length) {
      const firstSeq = this._seq + 1;
      this._seq += deltas.length;
      this.post(DidChangeNotification, { firstSeq, deltas });
    }
    this.schedule();
  }

  private post<P>(type: IpcMessageType<P>, params: P): void {
    // a hidden webview drops messages; it asks for a snapshot when it is shown again
    void this.panel.webview.postMessage({ method: type.method, params }).then((delivered) => {
      if (!delivered) this._ready = false;
    });
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._disposables.splice(0).forEach((d) => d.dispose());
    this._onDidDispose.fire();
    this._onDidDispose.dispose();
  }
}

/** The tab title: the session's title and the agent's name, both inert (plain text, capped, no invisible characters). */
function title(session: AgentSession): string {
  return `${inertText(session.thread.title || untitledSession, 'plain', 80)} · ${inertText(session.host.definition.name, 'plain', 40)}`;
}

// what the webview sends by itself (loading, resyncing, paging): every other command is the user acting in the chat
const passiveMethods = new Set<string>([ReadyCommand.method, RequestSnapshotCommand.method, RequestEntriesCommand.method]);

function isUserAction(m: unknown): boolean {
  const method = typeof m === 'object' && m !== null ? (m as { method?: unknown }).method : undefined;
  return typeof method === 'string' && !passiveMethods.has(method);
}
