/**
 * The tab of a new chat, opened the moment the person picks the agent (New Session), while the agent starts:
 * the chat's page loads beside the agent's start instead of after it. What the page posts meanwhile (its
 * ready, a draft the person types) is kept, and handled once the session exists (`ChatPanel.adopt`); a start
 * that fails or is cancelled closes the tab. See docs/performance.md ("A chat shows fast").
 */
import * as vscode from 'vscode';
import { chatViewType } from '../constants';
import { inertText } from '../shared/inertText';
import { chatHtml } from './html';
import { chatIcon, chatPanelOptions } from './chatPanel';

/** At most this many messages of the page are kept while the agent starts; later ones are logged and dropped. */
const keptMessages = 1000;

/** A chat tab whose session does not exist yet. */
export class StartingChat implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly _posted: unknown[] = [];
  private readonly _listening: vscode.Disposable;
  private _closed = false;
  private _taken = false;
  private _dropped = 0;

  constructor(extensionUri: vscode.Uri, agentName: string, private readonly log?: vscode.LogOutputChannel) {
    const title = `${inertText(agentName, 'plain', 40)} · starting…`;
    this.panel = vscode.window.createWebviewPanel(chatViewType, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, chatPanelOptions(extensionUri));
    this.panel.iconPath = chatIcon(extensionUri);
    this.panel.webview.html = chatHtml(this.panel.webview, extensionUri, title);
    this._listening = vscode.Disposable.from(
      this.panel.webview.onDidReceiveMessage((m: unknown) => {
        if (this._posted.length < keptMessages) this._posted.push(m);
        else this._dropped++;
      }),
      this.panel.onDidDispose(() => { this._closed = true; }),
    );
  }

  /**
   * The tab and what its page posted so far, for the session's chat; undefined when the person closed the
   * tab while the agent started. After this the tab is the caller's.
   */
  take(): { readonly panel: vscode.WebviewPanel; readonly posted: readonly unknown[] } | undefined {
    this._taken = true;
    this._listening.dispose();
    if (this._dropped) this.log?.warn(`the chat's page posted ${this._dropped} messages more than ${keptMessages} while its agent started: those were dropped`);
    return this._closed ? undefined : { panel: this.panel, posted: this._posted.splice(0) };
  }

  /** The start failed or was cancelled: the tab closes (a tab already taken stays). */
  dispose(): void {
    if (this._taken) return;
    this._taken = true;
    this._listening.dispose();
    if (!this._closed) this.panel.dispose();
  }
}
