/**
 * An event of every open session at once, for the surfaces that show something of all of them (the Follow Agent
 * status bar item, the Keep and Undo of a diff's title). Each session's own emitter belongs to the session and
 * is disposed with it; a listener follows the sessions that are open, and is told when they change too.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';

/** The open sessions and when they change (the session manager). */
export interface OpenSessions {
  readonly sessions: readonly AgentSession[];
  readonly onDidChangeSessions: vscode.Event<void>;
}

/** Fires when `eventOf` fires for any open session, and when sessions open or close. */
export function onAnySession(open: OpenSessions, eventOf: (session: AgentSession) => vscode.Event<unknown>): vscode.Event<void> {
  return (listener, thisArgs, disposables) => {
    const fire = () => listener.call(thisArgs);
    let subs: vscode.Disposable[] = [];
    const follow = () => {
      subs.forEach((d) => d.dispose());
      subs = open.sessions.map((s) => eventOf(s)(fire));
    };
    follow();
    const onSessions = open.onDidChangeSessions(() => { follow(); fire(); });
    const subscription = new vscode.Disposable(() => {
      onSessions.dispose();
      subs.splice(0).forEach((d) => d.dispose());
    });
    disposables?.push(subscription);
    return subscription;
  };
}
