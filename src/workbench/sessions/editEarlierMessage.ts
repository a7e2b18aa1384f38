/**
 * Edit & Resend of an earlier user message (docs/checkpoints.md): the files go back to that
 * message's checkpoint (after the preview), the conversation goes on in another session, and its first
 * prompt is the edited message after a compact context of the turns before it (the same block as Continue
 * in New Session, src/thread/export/continuationContext.ts). Both chats say what happened. The latest message keeps
 * its simple Edit & Resend in the same session (src/chatHost/messageActions.ts).
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { besideChat } from '../../host/files/diffPlacement';
import { checkpointActionsFor } from '../../host/files/checkpointActionsPart';
import { inert } from '../../shared/inertText';
import { editedContinuation } from '../../thread/export/messageActions';
import type { SessionCommandDeps } from './sessionCommands';

/**
 * Where the edited message goes on: a fork of the session, made from its key. This is the seam for
 * `session/fork` (https://agentclientprotocol.com/rfds/session-fork): when it is given and the agent can fork,
 * it returns the forked session; without it (or when it returns undefined) a new session is started.
 */
export type ForkSession = (key: string) => Promise<AgentSession | undefined>;

/** What a fork is told before the edited message: the agent still has the turns from the edited one on. */
export function forkedEditNote(message: number): string {
  return `I am going back to my message ${message} of this conversation: the workspace's files were restored to how they were before it. `
    + 'Disregard that message and everything after it, and continue from here with my edited message instead.';
}

/**
 * Runs Edit & Resend of the earlier message `entryId` of `from` with the edited `text`. Nothing happens when
 * the user cancels the preview.
 */
export async function editEarlierMessage(deps: SessionCommandDeps, from: AgentSession, entryId: string, text: string, fork?: ForkSession): Promise<AgentSession | undefined> {
  const index = from.thread.entries.findIndex((e) => e.id === entryId);
  if (index === -1) return void vscode.window.showErrorMessage('This message is no longer in the chat.');
  const actions = checkpointActionsFor(from);
  const column = deps.chatColumn?.(from.key);
  if (!(await actions.restoreMessage(entryId, { viewColumn: besideChat(column) ?? vscode.ViewColumn.Beside }, 'Edit & Resend'))) return undefined;
  const def = deps.registry.get(from.host.definition.id);
  if (!def) return void vscode.window.showWarningMessage(inert.message`The files were restored, but the agent '${from.host.definition.name}' is not configured any more: start a session with another agent.`);
  const title = from.thread.title || 'an earlier session';
  const prompt = editedContinuation(from.thread.entries, index, text, { title, cwd: from.cwd });
  let session: AgentSession | undefined;
  let forked = false;
  try {
    session = fork ? await fork(from.key) : undefined;
    forked = !!session;
    session ??= await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inert.message`Starting ${def.name}…`, cancellable: true },
      (_p, token) => deps.sessions.newSession(def, from.cwd, token),
    );
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`The files were restored, but ${def.name} could not start a session: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const turns = from.thread.entries.slice(0, index).filter((e) => e.kind === 'user').length;
  // a fork keeps the whole conversation on the agent's side: it is told which part no longer holds
  if (forked) prompt.unshift({ type: 'text', text: forkedEditNote(turns + 1) });
  session.thread.addNotice('info', forked
    ? `Edit & Resend of an earlier message of "${title}": the files were restored to before it, and this session is a fork of that one.`
    : `Edit & Resend of an earlier message of "${title}": the files were restored to before it, and this is a new session (${def.name} cannot fork sessions)${turns ? ` that starts with a summary of the ${turns} turn${turns === 1 ? '' : 's'} before it` : ''}.`);
  from.thread.addNotice('info', forked ? 'Your edited message was sent in a fork of this session.' : 'Your edited message was sent in a new session.');
  deps.openChat(session);
  void session.prompt(prompt).catch((e: unknown) => session?.thread.addNotice('error', `The edited message could not be sent: ${e instanceof Error ? e.message : String(e)}`));
  return session;
}
