/**
 * Fork, Rename, Archive and Unarchive Session (docs/sessions.md "Organizing sessions"). Each command works
 * on its argument: a session key (the chat header's title and Fork button), a Sessions view node (its context
 * menu, F2) or a history row; else on the active chat (the command palette). Fork is offered only for an agent
 * that advertises `session/fork` (the header's button, the view's context value); the palette command says
 * why it is unavailable. Rename and Archive work for every session: Switchboard keeps them, and tells an agent
 * that supports them (an error says what the agent answered, and the change stays in Switchboard).
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { maxSessionTitle } from '../../host/history/sessionMeta';
import type { AgentOutcome } from '../../host/history/sessionOrganizer';
import { sessionKey } from '../../host/sessionKey';
import { inert, inertText } from '../../shared/inertText';
import { rowTitle } from '../../shared/sessionTitles';
import { targetOf, type SessionCommandDeps, type SessionTarget } from './sessionCommands';

/** A command's session: a session key (the chat), a tree node or history row, else the active chat's. */
export function organizeTarget(deps: SessionCommandDeps, arg: unknown, active: AgentSession | undefined): SessionTarget | undefined {
  const byKey = typeof arg === 'string' ? deps.sessions.get(arg) : undefined;
  return targetOf(byKey ? undefined : arg, byKey ?? active);
}

/** The open session a command's argument names (a key, a tree node of an open session), else the active chat's. */
export function openSessionOf(deps: SessionCommandDeps, arg: unknown, active: AgentSession | undefined): AgentSession | undefined {
  if (typeof arg === 'string') return deps.sessions.get(arg);
  const item = (arg as { item?: { open?: AgentSession } } | undefined)?.item;
  return item ? item.open : active;
}

/**
 * Fork Session: asks the agent for a fork of `source` and opens it in a new chat that shows the transcript so
 * far. Resolves to the fork, or undefined (no session, not supported, failed: each said in a message).
 */
export async function forkSessionCommand(deps: SessionCommandDeps, source: AgentSession | undefined): Promise<AgentSession | undefined> {
  if (!source) return void vscode.window.showInformationMessage('No session to fork: open a Switchboard chat first (Fork Session works on the active chat).');
  const title = source.thread.titles.shown;
  if (!source.canFork) {
    return void vscode.window.showInformationMessage(inert.message`Fork Session is unavailable for ${source.host.definition.name}: this agent does not offer forking sessions (session/fork).`);
  }
  try {
    const fork = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inert.message`Forking "${title}"…`, cancellable: true },
      (_p, token) => deps.sessions.forkSession(source.key, token),
    );
    deps.openChat(fork);
    return fork;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Could not fork "${title}": ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * Rename Session: asks for a title (the current one preselected) and renames the session everywhere
 * (tab, header, Switch Session, Sessions view, status bar). Resolves to the title shown, or undefined.
 */
export async function renameSessionCommand(deps: SessionCommandDeps, target: SessionTarget | undefined): Promise<string | undefined> {
  if (!target) return void vscode.window.showInformationMessage('No session to rename: open a Switchboard chat, or select a session in the Sessions view.');
  const current = inertText(rowTitle(target), 'plain', maxSessionTitle);
  const title = await vscode.window.showInputBox({
    title: 'Rename Session',
    prompt: inert.label`A new title for "${current}" (${target.agentName}). Switchboard keeps it; an agent that supports session titles gets it too.`,
    value: current,
    valueSelection: [0, current.length],
    validateInput: (v) => (v.trim() ? undefined : 'Enter a title.'),
  });
  if (title === undefined || !title.trim()) return undefined;
  try {
    const outcome = await deps.sessions.organizer.rename(target.agentId, target.sessionId, title);
    reportAgentFailure(target, outcome, `store the title, so only Switchboard shows "${outcome.title}"`);
    return outcome.title;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Could not rename the session: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * Archive Session: closes its chat (nothing is asked: Unarchive brings it back), hides it from history (the
 * Sessions view's Archived filter shows it) and archives it on the agent when the agent supports it.
 */
export async function archiveSessionCommand(deps: SessionCommandDeps, target: SessionTarget | undefined): Promise<AgentOutcome | undefined> {
  if (!target) return void vscode.window.showInformationMessage('No session to archive: open a Switchboard chat, or select a session in the Sessions view.');
  deps.closeChat(sessionKey(target.agentId, target.sessionId));
  const outcome = await deps.sessions.organizer.archive(target.agentId, target.sessionId);
  await deps.setArchived?.(sessionKey(target.agentId, target.sessionId), true);
  vscode.window.setStatusBarMessage(inert.label`Archived "${rowTitle(target)}": the Sessions view's Archived filter shows it.`, 5000);
  reportAgentFailure(target, outcome, 'archive it, so it stays archived in Switchboard only');
  return outcome;
}

/** Unarchive Session: shows it in history again (it is not opened) and unarchives it on an agent that can. */
export async function unarchiveSessionCommand(deps: SessionCommandDeps, target: SessionTarget | undefined): Promise<AgentOutcome | undefined> {
  if (!target) return void vscode.window.showInformationMessage('No session to unarchive: select an archived session in the Sessions view (its Archived filter shows them).');
  const outcome = await deps.sessions.organizer.unarchive(target.agentId, target.sessionId);
  await deps.setArchived?.(sessionKey(target.agentId, target.sessionId), false);
  reportAgentFailure(target, outcome, 'unarchive it, so it is unarchived in Switchboard only');
  return outcome;
}

/** Shows what the agent answered when it refused a change Switchboard made anyway. */
function reportAgentFailure(target: SessionTarget, outcome: AgentOutcome, what: string): void {
  if (outcome.agent !== 'failed') return;
  void vscode.window.showErrorMessage(inert.message`${target.agentName} could not ${what}: ${outcome.error ?? 'no reason given'}`);
}
