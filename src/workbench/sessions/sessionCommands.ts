/**
 * `ACP: Close Session`, `ACP: Delete Session` (after a modal confirmation) and `Continue in New Session`
 * (for a read-only session from history). Each works on its argument (the Sessions view, Switch Session),
 * else on the active chat.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { sessionKey } from '../../host/sessionKey';
import type { HistoryItem } from '../../host/history/sessionHistory';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import type { SessionManager } from '../../host/sessionManager';
import { inert } from '../../shared/inertText';
import { continuationContext } from '../../thread/export/continuationContext';
import { commandIds } from '../../constants';
import { showStartError } from '../agents/startError';

/** What the session commands need. */
export interface SessionCommandDeps {
  readonly registry: AgentRegistry;
  readonly sessions: SessionManager;
  readonly openChat: (session: AgentSession, options?: ChatOpenOptions) => void;
  /** Closes the chat of a session (by {@link sessionKey}); false when none is open. */
  readonly closeChat: (key: string) => boolean;
  /** The editor column of a session's chat tab (diffs open beside it); undefined in the Chat view. */
  readonly chatColumn?: (key: string) => vscode.ViewColumn | undefined;
  /** Archive / Unarchive of a session in a worktree of its own: what happens to the worktree (docs/worktrees.md). */
  readonly setArchived?: (key: string, archived: boolean) => Promise<void>;
}

/** How a chat opens: `preserveFocus` leaves the keyboard where it is. */
export interface ChatOpenOptions { readonly preserveFocus?: boolean }

/** A session as the commands get it: a history row, a tree node, or a session id. */
export type SessionTarget = Pick<HistoryItem, 'agentId' | 'sessionId' | 'title' | 'agentName' | 'createdAt' | 'untitledName'>;

/** What a command argument refers to (tree nodes and history rows carry `item`). */
export function targetOf(arg: unknown, active: AgentSession | undefined): SessionTarget | undefined {
  const a = (arg as { item?: unknown } | undefined)?.item ?? arg;
  if (a && typeof a === 'object' && typeof (a as SessionTarget).sessionId === 'string' && typeof (a as SessionTarget).agentId === 'string') return a as SessionTarget;
  if (!active) return undefined;
  return { agentId: active.host.definition.id, sessionId: active.sessionId, title: active.thread.title, agentName: active.host.definition.name, createdAt: active.thread.titles.createdAt, untitledName: active.thread.titles.untitled };
}

/** Closes a session's chat (and leaves the session); its transcript stays in history. */
export function closeSession(deps: SessionCommandDeps, target: SessionTarget | undefined): void {
  if (!target) return void vscode.window.showInformationMessage('No session to close: open a Switchboard chat first.');
  const key = sessionKey(target.agentId, target.sessionId);
  if (!deps.closeChat(key)) deps.sessions.close(key);
}

/** Asks for confirmation (modal), then deletes the session from the agent (when it can) and from history. */
export async function deleteSessionConfirmed(deps: SessionCommandDeps, target: SessionTarget | undefined): Promise<boolean> {
  if (!target) {
    void vscode.window.showInformationMessage('No session to delete: open a Switchboard chat, or use ACP: Switch Session….');
    return false;
  }
  const name = target.title || 'this session';
  const pick = await vscode.window.showWarningMessage(
    inert.message`Delete "${name}" (${target.agentName})?`,
    { modal: true, detail: 'Its transcript is removed from Switchboard\'s history, and from the agent too when the agent supports deleting sessions. This cannot be undone.' },
    'Delete',
  );
  if (pick !== 'Delete') return false;
  deps.closeChat(sessionKey(target.agentId, target.sessionId));
  try {
    const agentDeleted = await deps.sessions.delete(target.agentId, target.sessionId);
    if (!agentDeleted) void vscode.window.showInformationMessage(inert.message`"${name}" was removed from Switchboard's history. ${target.agentName} keeps its own copy (it is not running, or cannot delete sessions).`);
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`${target.agentName} could not delete the session: ${error instanceof Error ? error.message : String(error)}. It was removed from Switchboard's history.`);
    return true;
  }
}

/**
 * The first prompt of a continuation: a compact, delimited context block (the user's messages, the final
 * answers, the changed files; capped, oldest turns dropped first), see src/thread/export/continuationContext.ts.
 */
export function continuationPrompt(session: AgentSession): string {
  const files = session.changes.changes.map((r) => r.uri.fsPath);
  return continuationContext(session.thread.entries, { title: session.thread.title || 'an earlier session', files, cwd: session.cwd }).text;
}

/**
 * Continue in New Session: a new session with the same agent (or one the user picks, when it is not
 * configured any more) in the same folder; its first prompt carries the earlier conversation's context block,
 * which the chat shows collapsed.
 */
export async function continueInNewSession(deps: SessionCommandDeps, from: AgentSession | undefined): Promise<AgentSession | undefined> {
  if (!from) return void vscode.window.showInformationMessage('Open the chat of a session that cannot be reopened first.');
  const def = deps.registry.get(from.host.definition.id);
  if (!def) {
    void vscode.window.showWarningMessage(inert.message`The agent '${from.host.definition.name}' is not configured any more: start a session with another agent.`);
    await vscode.commands.executeCommand(commandIds.newSession);
    return undefined;
  }
  try {
    const session = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inert.message`Starting ${def.name}…`, cancellable: true },
      (_p, token) => deps.sessions.newSession(def, from.cwd, token),
    );
    // the context goes first, naming the session ("Continued: …"), so that its chat opens with that title: a
    // title that changes while a webview loads its page does not reach the page's frame (its accessible name)
    const sent = session.prompt([{ type: 'text', text: continuationPrompt(from) }]);
    deps.openChat(session);
    // the prompt a crash interrupted is offered for resend once the context was sent
    void sent.catch(() => undefined).then(() => session.offerResend(from.interruptedPrompt));
    from.thread.acknowledgeFailure();
    return session;
  } catch (error) {
    showStartError(def, error, deps.sessions.logFor(def));
    return undefined;
  }
}
