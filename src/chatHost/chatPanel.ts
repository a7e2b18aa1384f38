/**
 * The chat of one session in an editor tab: a WebviewPanel holding a {@link ChatBinding}, which does all the
 * chat's work (chatBinding.ts; the Chat view in the side bar holds the same binding). The panel adds what is
 * a tab's own: its title and icon, "active" when the tab is the active one, and its end when it is closed.
 */
import * as vscode from 'vscode';
import { chatViewType } from '../constants';
import type { AgentSession } from '../host/agentSession';
import { ChatBinding, chatTitles, chatWebviewOptions } from './chatBinding';
import type { ChatContext, ChatSurface } from './chatBinding';
import type { ComposerController } from './composerController';

/** The icon of a chat's tab. */
export function chatIcon(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media', 'icon-chat.svg');
}

/** The options of a chat's tab. */
export function chatPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    ...chatWebviewOptions(extensionUri),
    retainContextWhenHidden: false,
    // Find in the chat (Ctrl+F / Cmd+F); the parts far from the view keep their text for it (webview/transcript/freezer.ts)
    enableFindWidget: true,
  };
}

/** One open chat panel. */
export class ChatPanel implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private readonly _onDidDispose = new vscode.EventEmitter<void>();
  /** Fires when the panel was closed. */
  readonly onDidDispose = this._onDidDispose.event;
  private readonly binding: ChatBinding;

  /** Opens a new panel for a session (`preserveFocus`: the keyboard stays where it is). */
  static create(session: AgentSession, context: ChatContext, preserveFocus = false): ChatPanel {
    const panel = vscode.window.createWebviewPanel(chatViewType, chatTitles(session).full, { viewColumn: vscode.ViewColumn.Active, preserveFocus }, chatPanelOptions(context.extensionUri));
    return new ChatPanel(panel, session, context);
  }

  /**
   * Takes over the tab opened while the session's agent started (startingChat.ts): its page stays, and what it
   * posted meanwhile is handled now.
   */
  static adopt(panel: vscode.WebviewPanel, session: AgentSession, context: ChatContext, posted: readonly unknown[]): ChatPanel {
    return new ChatPanel(panel, session, context, { posted });
  }

  /** Adopts a panel VS Code restored after a window reload (the serializer), for the session it showed. */
  static restore(panel: vscode.WebviewPanel, session: AgentSession, context: ChatContext): ChatPanel {
    return new ChatPanel(panel, session, context);
  }

  private constructor(readonly panel: vscode.WebviewPanel, readonly session: AgentSession, context: ChatContext, loaded?: { readonly posted: readonly unknown[] }) {
    panel.iconPath = chatIcon(context.extensionUri);
    const becameActive = new vscode.EventEmitter<void>();
    const surface: ChatSurface = {
      webview: panel.webview,
      reveal: () => this.reveal(),
      setTitle: ({ full }) => { panel.title = full; },
      // the same title again reaches the now active frame (its accessible name): VS Code sends only a change
      pageShown: () => {
        const title = panel.title;
        panel.title = ''; // in the same task as the next line: nothing paints it
        panel.title = title;
      },
      onDidBecomeActive: becameActive.event,
      viewColumn: () => panel.viewColumn,
    };
    this.binding = new ChatBinding(surface, session, context, loaded);
    this._disposables.push(
      this.binding,
      becameActive,
      panel.onDidChangeViewState((e) => { if (e.webviewPanel.active) becameActive.fire(); }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** The composer's host side (prompts, queue, draft, config options, file search). */
  get composer(): ComposerController {
    return this.binding.composer;
  }

  /** Shows the panel (`preserveFocus`: without moving the keyboard). */
  reveal(preserveFocus = false): void {
    this.panel.reveal(undefined, preserveFocus);
  }

  dispose(): void {
    this._disposables.splice(0).forEach((d) => d.dispose());
    this._onDidDispose.fire();
    this._onDidDispose.dispose();
  }
}
