/**
 * Where a session's chat goes: an editor tab (chatPanels.ts) or the Chat view in the secondary side bar
 * (chatView.ts), by the setting `switchboard.chat.openIn`. A session has one chat at a time, so both never
 * show the same session and disagree about its draft or focus: opening a session that already has a chat
 * focuses that chat wherever it is; picking a session in the Chat view's title moves it there from its tab
 * (the session stays open).
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../host/agentSession';
import type { SessionManager } from '../host/sessionManager';
import type { ChatPanelRegistry } from './chatPanels';
import type { ChatView } from './chatView';
import type { StartingChat } from './startingChat';
import { chatTarget, parseOpenIn } from './chatPlacement';
import type { OpenIn } from './chatPlacement';

/** The setting that picks where new and reopened chats go. */
export const openInSetting = 'switchboard.chat.openIn';

/** Reads {@link openInSetting}. */
export function openIn(): OpenIn {
  return parseOpenIn(vscode.workspace.getConfiguration().get<unknown>(openInSetting));
}

/** Opens, finds and closes chats in tabs and in the Chat view. */
export class ChatRouter {
  /** Fires when a chat opened or closed, or a tab or the view came to the front or went away. */
  readonly onDidChange: vscode.Event<void>;

  constructor(readonly panels: ChatPanelRegistry, readonly view: ChatView, private readonly sessions: SessionManager) {
    this.onDidChange = (listener, thisArg, disposables) => {
      const subs = [panels.onDidChange(listener, thisArg), view.onDidChange(listener, thisArg)];
      const d = vscode.Disposable.from(...subs);
      disposables?.push(d);
      return d;
    };
  }

  /** Whether a session (by key) has a chat, in a tab or the view. */
  has(key: string): boolean {
    return !!this.panels.get(key) || this.view.session?.key === key;
  }

  /**
   * Opens (or focuses) the chat of a session: its existing chat, else where the setting says; `preserveFocus`
   * shows it and leaves the keyboard where it is.
   */
  open(session: AgentSession, preserveFocus = false, starting?: StartingChat): void {
    const target = chatTarget({ hasTab: !!this.panels.get(session.key), inView: this.view.session === session, openIn: openIn() });
    if (target === 'view') {
      starting?.dispose();
      void this.view.show(session, preserveFocus);
    } else {
      this.panels.open(session, preserveFocus, starting);
    }
  }

  /**
   * A tab for the chat of a new session whose agent starts now, when new chats open in tabs: the chat shows
   * while the agent starts (startingChat.ts). Undefined when they open in the Chat view.
   */
  startChat(agentName: string, log?: vscode.LogOutputChannel): StartingChat | undefined {
    return chatTarget({ hasTab: false, inView: false, openIn: openIn() }) === 'view' ? undefined : this.panels.startChat(agentName, log);
  }

  /** Shows a session in the Chat view, moving it out of its tab if it had one. */
  showInView(session: AgentSession): void {
    this.panels.release(session.key);
    void this.view.show(session);
  }

  /** Closes the chat of a session, and the session; false when it had no chat. */
  close(key: string): boolean {
    if (this.panels.close(key)) return true;
    const session = this.view.session;
    if (!session || (session.key !== key && session.sessionId !== key)) return false;
    this.view.release(session.key);
    this.sessions.close(session.key);
    return true;
  }

  /** Whether the chat of a session (by key) is on screen. */
  isVisible(key: string): boolean {
    return this.panels.isVisible(key) || this.view.isVisible(key);
  }

  /** The session of the active tab, else the Chat view's when it is on screen, else the only open session. */
  activeSession(): AgentSession | undefined {
    return this.panels.all().find((p) => p.panel.active)?.session
      ?? (this.view.visible ? this.view.session : undefined)
      ?? (this.sessions.sessions.length === 1 ? this.sessions.sessions[0] : undefined);
  }
}
