/**
 * The command palette's fast path between sessions (docs/sessions.md "A home for all sessions"):
 * - ACP: Go to Next Session Waiting for You: the open sessions that wait for the user (a permission, a question,
 *   a login), the one waiting longest first; from one of them, the next. Its chat opens and the pending request
 *   takes the focus, as Ctrl+Shift+A does in the chat.
 * - ACP: Go to Next Running Session: cycles through the open sessions whose agent runs (not read-only), in the
 *   order they were opened.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';

/** The session after `active` in `list` (the first when `active` is not in it). */
export function nextAfter<T>(list: readonly T[], active: T | undefined): T | undefined {
  const at = active === undefined ? -1 : list.indexOf(active);
  return list[(at + 1) % Math.max(1, list.length)];
}

/** The open sessions waiting for the user, the one waiting longest first. */
export function waitingSessions(sessions: readonly AgentSession[]): AgentSession[] {
  return sessions.filter((s) => s.activity.state.kind === 'waiting').sort((a, b) => a.activity.state.since - b.activity.state.since);
}

/** Opens the next session waiting for the user and focuses its request; resolves to it, or undefined when none waits. */
export function goToNextWaiting(sessions: SessionManager, active: AgentSession | undefined, openChat: (s: AgentSession) => void): AgentSession | undefined {
  const next = nextAfter(waitingSessions(sessions.sessions), active);
  if (!next) {
    vscode.window.setStatusBarMessage('No Switchboard session is waiting for you.', 4000);
    return undefined;
  }
  openChat(next);
  next.activity.requestFocus();
  return next;
}

/** Opens the next open session whose agent runs; resolves to it, or undefined when there is none. */
export function goToNextRunning(sessions: SessionManager, active: AgentSession | undefined, openChat: (s: AgentSession) => void): AgentSession | undefined {
  const next = nextAfter(sessions.sessions.filter((s) => !sessions.isReadOnly(s.key)), active);
  if (!next) {
    vscode.window.setStatusBarMessage('No Switchboard session is running.', 4000);
    return undefined;
  }
  openChat(next);
  return next;
}
