/**
 * The chat panel of one session: a WebviewPanel in the editor area. On the webview's ready message the host
 * sends a snapshot (the state and the newest entries: switching to a long session costs what a short one
 * does; the webview asks for the older entries page by page once it painted), then batches of sequenced deltas (appends are merged, at most one post per frame),
 * so a long streamed answer costs O(chunk) per update, not O(message) (ANCHORS.md (e): other clients are
 * quadratic). A gap reported by the webview gets a fresh snapshot; `retainContextWhenHidden` stays false.
 */
import * as vscode from 'vscode';
import { CancelTurnCommand, DidChangeNotification, DidEntriesNotification, DidSnapshotNotification, ReadyCommand, RequestEntriesCommand, RequestSnapshotCommand, RespondPermissionCommand, ToggleFollowCommand } from '../../shared/chatProtocol';
import type { IpcMessageType, RequestEntriesParams, RespondPermissionParams } from '../../shared/chatProtocol';
import { snapshotTailEntries } from '../../shared/viewModel';
import type { ThreadDelta } from '../../shared/viewModel';
import type { AgentSession } from '../../host/agentSession';
import { chatTerminalTailChars } from '../../thread/terminalOutputStore';
import { entryToView, stateToView, threadSnapshot } from '../../thread/toView';
import type { ThreadChange } from '../../thread/thread';
import { chatHtml, localResourceRoots } from './html';
import { inertText } from '../../shared/inertText';
import { handleCardAction } from './cardActions';
import { ComposerController } from './composerController';
import { parseWebviewMessage } from './ipcSchemas';
import { ChatLinkHandler } from './linkHandler';

/** The webview panel type (also the serializer's). */
export const chatViewType = 'switchboard.chat';
const flushMs = 16;

/** One open chat panel. */
export class ChatPanel implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private _seq = 0;
  private _ready = false;
  private _queue: ThreadDelta[] = [];
  private _timer: NodeJS.Timeout | undefined;
  private readonly _onDidDispose = new vscode.EventEmitter<void>();
  /** Fires when the panel was closed. */
  readonly onDidDispose = this._onDidDispose.event;

  /** Opens a new panel for a session. */
  static create(extensionUri: vscode.Uri, session: AgentSession, log: vscode.LogOutputChannel): ChatPanel {
    const panel = vscode.window.createWebviewPanel(chatViewType, title(session), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: localResourceRoots(extensionUri),
    });
    return new ChatPanel(panel, extensionUri, session, log);
  }

  /** Adopts a panel VS Code restored after a window reload (the serializer), for the session it showed. */
  static restore(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, session: AgentSession, log: vscode.LogOutputChannel): ChatPanel {
    panel.webview.options = { enableScripts: true, localResourceRoots: localResourceRoots(extensionUri) };
    panel.title = title(session);
    return new ChatPanel(panel, extensionUri, session, log);
  }

  /** The composer's host side (prompts, queue, draft, config options, file search). */
  readonly composer: ComposerController;
  /** Links and code blocks of agent Markdown. */
  private readonly links: ChatLinkHandler;

  private constructor(readonly panel: vscode.WebviewPanel, extensionUri: vscode.Uri, readonly session: AgentSession, private readonly log: vscode.LogOutputChannel) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon-chat.svg');
    panel.webview.html = chatHtml(panel.webview, extensionUri, title(session), { sessionId: session.sessionId, agentId: session.host.definition.id, cwd: session.cwd });
    this.composer = new ComposerController(session, (type, params) => this.post(type, params), () => this.reveal(), log);
    this.links = new ChatLinkHandler(session.cwd, log);
    this._disposables.push(
      this.composer,
      this.links,
      panel.onDidChangeViewState((e) => { if (e.webviewPanel.active) this.composer.markActive(); }),
      panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      session.thread.onDidChange((c) => this.onThreadChange(c)),
    );
  }

  /** Shows the panel. */
  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  private onMessage(raw: unknown): void {
    const msg = parseWebviewMessage(raw);
    if (!msg.ok) {
      this.log.warn(`chat webview sent an invalid message, ignored: ${msg.error}`);
      return;
    }
    if (handleCardAction(this.session, msg.method, msg.params)) return;
    if (this.composer.handle(msg.method, msg.params)) return;
    if (this.links.handle(msg.method, msg.params)) return;
    switch (msg.method) {
      case ReadyCommand.method:
      case RequestSnapshotCommand.method:
        this._ready = true;
        this.sendSnapshot();
        return this.composer.sendState();
      case RequestEntriesCommand.method: return this.sendEntries(msg.params as RequestEntriesParams);
      case CancelTurnCommand.method: return this.session.cancel();
      case RespondPermissionCommand.method: {
        const { requestId, optionId } = msg.params as RespondPermissionParams;
        this.session.respondPermission(requestId, optionId);
        return;
      }
      case ToggleFollowCommand.method: return this.session.follow.toggle();
    }
  }

  private sendSnapshot(): void {
    this._queue = [];
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
    this.flush();
    const entries = this.session.thread.entries;
    const end = Math.min(before, entries.length);
    const from = Math.max(0, end - count);
    this.post(DidEntriesNotification, { seq: this._seq, from, entries: entries.slice(from, end).map(entryToView) });
  }

  private onThreadChange(c: ThreadChange): void {
    if (c.type === 'state') this.panel.title = title(this.session);
    if (!this._ready) return; // the snapshot on ready will include it
    const t = this.session.thread;
    const last = this._queue[this._queue.length - 1];
    if (c.type === 'terminalOutput' || c.type === 'terminal') {
      this.queueTerminalChange(c);
    } else if (c.type === 'append' && last?.op === 'append' && last.index === c.index) {
      this._queue[this._queue.length - 1] = { op: 'append', index: c.index, text: last.text + c.text };
    } else if (c.type === 'append') {
      this._queue.push({ op: 'append', index: c.index, text: c.text });
    } else if (c.type === 'entry') {
      // a later full entry makes earlier deltas of the same entry redundant only if they are the tail
      if (last && (last.op === 'append' || last.op === 'entry') && last.index === c.index) this._queue.pop();
      this._queue.push({ op: 'entry', index: c.index, entry: entryToView(t.entries[c.index]) });
    } else {
      if (last?.op === 'state') this._queue.pop();
      this._queue.push({ op: 'state', state: stateToView(t, this.session.host.definition.name) });
    }
    this._timer ??= setTimeout(() => this.flush(), flushMs);
  }

  /**
   * Terminal output: consecutive appends to one terminal are merged (a merge that outgrows the chat's tail
   * becomes one whole view); a whole view makes the queued appends of that terminal redundant.
   */
  private queueTerminalChange(c: Extract<ThreadChange, { type: 'terminalOutput' | 'terminal' }>): void {
    const terminals = this.session.thread.terminals;
    const last = this._queue[this._queue.length - 1];
    if (c.type === 'terminalOutput') {
      if (last?.op !== 'terminalOutput' || last.terminalId !== c.terminalId) {
        this._queue.push({ op: 'terminalOutput', terminalId: c.terminalId, text: c.text });
        return;
      }
      if (last.text.length + c.text.length <= chatTerminalTailChars) {
        this._queue[this._queue.length - 1] = { op: 'terminalOutput', terminalId: c.terminalId, text: last.text + c.text };
        return;
      }
    }
    this._queue = this._queue.filter((d) => !((d.op === 'terminalOutput' || d.op === 'terminal') && d.terminalId === c.terminalId));
    this._queue.push({ op: 'terminal', terminalId: c.terminalId, terminal: terminals.view(c.terminalId) ?? null });
  }

  private flush(): void {
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    if (!this._queue.length) return;
    const deltas = this._queue;
    this._queue = [];
    const firstSeq = this._seq + 1;
    this._seq += deltas.length;
    this.post(DidChangeNotification, { firstSeq, deltas });
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
  return `${inertText(session.thread.title || 'New session', 'plain', 80)} · ${inertText(session.host.definition.name, 'plain', 40)}`;
}
