/**
 * The host side of the per-message actions of the chat: Copy (a message as Markdown, to the clipboard),
 * Retry (the prompt that produced an answer, sent again as a new turn), Edit & Resend (the latest user
 * message, edited; an earlier one goes to `switchboard.editEarlierMessage`, which restores its checkpoint and
 * continues in a new session), and the checkpoint actions: Restore Checkpoint on a user message, Open Diff and
 * Undo on a checkpoint entry (src/host/files/checkpointActions.ts). Retry and Edit & Resend cancel a running
 * turn and send when it ended (docs/errors-and-cancellation.md#a-turn-always-ends). Messages are referred to by entry
 * id: texts and blocks come from the thread, never from the webview, except the edited text.
 */
import * as vscode from 'vscode';
import { DiffCheckpointCommand, UndoCheckpointCommand, CopyMessageCommand, EditResendMessageCommand, RestoreCheckpointCommand, RetryMessageCommand } from '../shared/chatProtocol';
import type { AgentSession } from '../host/agentSession';
import type { ContentBlock } from '../acp/schema/types.gen';
import { checkpointActionsFor } from '../host/files/checkpointActionsPart';
import { besideChat } from '../host/files/diffPlacement';
import { editedPrompt, latestUserMessage, messageMarkdown, promptOfAnswer } from '../thread/export/messageActions';
import { inertText } from '../shared/inertText';
import { internalCommandIds } from '../constants';
import type { IpcDispatcher } from './ipc';

function showError(message: string): void {
  void vscode.window.showErrorMessage(inertText(message, 'message'));
}

function send(session: AgentSession, r: { readonly prompt: ContentBlock[] } | { readonly error: string }): void {
  if ('error' in r) return showError(r.error);
  session.sendNext(r.prompt).catch((e: unknown) => showError(`The prompt could not be sent: ${e instanceof Error ? e.message : String(e)}`));
}

/** Registers the message actions of a chat webview (the dispatcher validates their params); diffs open beside the chat's column. */
export function registerMessageActions(ipc: IpcDispatcher, session: AgentSession, chatColumn: () => vscode.ViewColumn | undefined = () => undefined): void {
  let actions: ReturnType<typeof checkpointActionsFor> | undefined;
  const checkpoints = () => (actions ??= checkpointActionsFor(session));
  const spot = () => ({ viewColumn: besideChat(chatColumn()) ?? vscode.ViewColumn.Beside });
  ipc.on(CopyMessageCommand, ({ entryId }) => {
    const text = messageMarkdown(session.thread.entries, entryId);
    if (text === undefined) return showError('This message is no longer in the chat.');
    void vscode.env.clipboard.writeText(text);
  });
  ipc.on(RetryMessageCommand, ({ entryId }) => send(session, promptOfAnswer(session.thread.entries, entryId)));
  ipc.on(EditResendMessageCommand, ({ entryId, text }) => {
    if (latestUserMessage(session.thread.entries)?.id === entryId) return send(session, editedPrompt(session.thread.entries, entryId, text));
    void vscode.commands.executeCommand(internalCommandIds.editEarlierMessage, session.key, entryId, text);
  });
  ipc.on(RestoreCheckpointCommand, ({ entryId }) => { void checkpoints().restoreMessage(entryId, spot()); });
  ipc.on(DiffCheckpointCommand, ({ entryId, path }) => { void checkpoints().openDiff(entryId, path, spot()); });
  ipc.on(UndoCheckpointCommand, ({ entryId }) => { void checkpoints().undo(entryId, spot()); });
}
