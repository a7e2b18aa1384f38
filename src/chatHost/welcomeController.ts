/**
 * The host side of the welcome an empty chat shows (webview/views/welcome.ts): on the webview's ready, while
 * the session's transcript is empty, it sends the agent's name, its capabilities in plain words and its
 * recent sessions (src/thread/view/welcomeView.ts); a recent session the user picks opens in its chat like a row
 * of the Sessions view. The webview names a session by id only: the host looks it up in its own history.
 */
import * as vscode from 'vscode';
import { commandIds } from '../constants';
import type { AgentSession } from '../host/agentSession';
import { clientCapabilities } from '../host/features';
import type { HistoryItem } from '../host/history/sessionHistory';
import { DidChangeWelcomeNotification, OpenRecentSessionCommand } from '../shared/chatProtocol';
import type { PostNotification } from '../shared/chatProtocol';
import { welcomeView } from '../thread/view/welcomeView';
import type { IpcDispatcher } from './ipc';

/** The session history, as the Sessions view has it (open sessions, the client's store, agents' lists). */
export type HistorySource = () => Promise<readonly HistoryItem[]>;

/** The welcome of one chat. */
export class WelcomeController {
  constructor(
    private readonly session: AgentSession,
    private readonly history: HistorySource | undefined,
    private readonly post: PostNotification,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Handles the welcome's commands. */
  register(ipc: IpcDispatcher): void {
    ipc.on(OpenRecentSessionCommand, ({ sessionId }) => this.open(sessionId));
  }

  /** Sends the welcome's data, when the transcript is empty (the welcome is gone once it is not). */
  async send(): Promise<void> {
    if (this.session.thread.entries.length) return;
    const def = this.session.host.definition;
    const view = (history: readonly HistoryItem[]) => welcomeView({
      agentId: def.id, agentName: def.name, sessionId: this.session.sessionId,
      agent: this.session.host.initializeResponse?.agentCapabilities, client: clientCapabilities, history,
      protocolVersion: this.session.host.initializeResponse?.protocolVersion,
    });
    this.post(DidChangeWelcomeNotification, view([])); // at once; the recent sessions follow
    this.post(DidChangeWelcomeNotification, view(await this.rows()));
  }

  private async rows(): Promise<readonly HistoryItem[]> {
    try {
      return (await this.history?.()) ?? [];
    } catch (error) {
      this.log.warn(`the welcome could not read the session history: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  private async open(sessionId: string): Promise<void> {
    const item = (await this.rows()).find((i) => i.agentId === this.session.host.definition.id && i.sessionId === sessionId);
    if (!item) return void vscode.window.showErrorMessage('That session is no longer in the history: use ACP: Switch Session… to find another one.');
    await vscode.commands.executeCommand(commandIds.openSession, { item });
  }
}
