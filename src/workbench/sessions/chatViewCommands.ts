/**
 * The Chat view's title bar: a session picker (the items and state of ACP: Switch Session; the session
 * picked is shown in the view, moved out of its tab if it had one). New Session in the view's title is
 * registered with the other New Session command (src/extension.ts).
 */
import * as vscode from 'vscode';
import type { ChatRouter } from '../../chatHost/chatRouter';
import { commandIds } from '../../constants';
import type { SessionCommandDeps } from './sessionCommands';
import { switchSession } from './switchSession';
import type { ChatFocus } from './recentChats';

/** Registers the view's commands. */
export function registerChatViewCommands(deps: SessionCommandDeps, chats: ChatRouter, focus: ChatFocus): vscode.Disposable[] {
  const inView: SessionCommandDeps = { ...deps, openChat: (s) => chats.showInView(s) };
  // the picker preselects the session shown before the view's own
  const inViewFocus: ChatFocus = { current: () => chats.view.session?.key, recent: () => focus.recent() };
  return [
    // like Switch Session, it resolves to nothing: a session is not a command result
    vscode.commands.registerCommand(commandIds.chatViewPickSession, async (sessionId?: unknown) => {
      await switchSession(inView, typeof sessionId === 'string' ? sessionId : undefined, undefined, inViewFocus);
    }),
  ];
}
