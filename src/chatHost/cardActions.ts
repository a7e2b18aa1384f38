/**
 * The host side of the tool-call card and notice buttons: Open Diff (the diff editor, through
 * `switchboard.openDiff`), a location link (the file at its line), Show in terminal (the agent terminal in
 * the panel), Retry (resend the last prompt), Restart, Resend, Continue in New Session, and closing one of the
 * agent's live notices. The webview refers
 * to a diff or a location by tool call and index; the texts and paths come from the thread, never from the
 * webview.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { OpenDiffCommand, OpenLocationCommand, OpenToolOutputCommand, RetryPromptCommand, ShowTerminalCommand } from '../shared/chatProtocol';
import { ContinueSessionCommand, DismissNoticeCommand, QueueUntakenCommand, ResendPromptCommand, RestartAgentCommand, RevertFlaggedCommand, StopWorkCommand } from '../shared/chatProtocol';
import { checkpointActionsFor } from '../host/files/checkpointActionsPart';
import type { OpenDiffParams, OpenLocationParams, OpenToolOutputParams, StopWorkParams } from '../shared/chatProtocol';
import * as z from 'zod/mini';
import type { AgentSession } from '../host/agentSession';
import type { IpcDispatcher } from './ipc';
import { openDiff, openReadOnlyText } from '../host/files/diffEditor';
import { toolOutputText } from '../thread/view/toolTextPreview';
import { besideChat } from '../host/files/diffPlacement';
import type { ToolCallEntry } from '../thread/model/toolCall';
import { inertText } from '../shared/inertText';
import { commandIds } from '../constants';

/** The tool call of the session, or of the subagent `sessionId` (in its card). */
function toolCall(session: AgentSession, toolCallId: string, sessionId?: string): ToolCallEntry | undefined {
  return session.thread.toolCall(toolCallId, sessionId);
}

function showError(message: string): void {
  void vscode.window.showErrorMessage(inertText(message, 'message'));
}

/**
 * Opens the diff editor (what `switchboard.openDiff` does) for the diff at `index` of a tool call's content,
 * beside the chat shown in `chatColumn` (diffPlacement.ts), never over it.
 */
export async function openToolCallDiff(session: AgentSession, { toolCallId, index, sessionId }: OpenDiffParams, chatColumn?: vscode.ViewColumn): Promise<void> {
  const item = toolCall(session, toolCallId, sessionId)?.content[index];
  if (item?.type !== 'diff') return showError('This diff is no longer available.');
  await openDiff({ path: item.path, oldText: item.oldText ?? null, newText: item.newText }, { viewColumn: besideChat(chatColumn) ?? vscode.ViewColumn.Beside });
}

/** Opens the file of the location at `index` of a tool call beside the chat, at its (1-based) line. */
export async function openToolCallLocation(session: AgentSession, { toolCallId, index, sessionId }: OpenLocationParams): Promise<void> {
  const location = toolCall(session, toolCallId, sessionId)?.locations[index];
  if (!location) return showError('This location is no longer available.');
  const file = path.isAbsolute(location.path) ? location.path : path.join(session.cwd, location.path);
  const line = typeof location.line === 'number' && location.line > 0 ? location.line - 1 : 0;
  const position = new vscode.Position(line, 0);
  try {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.Beside, preview: true, selection: new vscode.Range(position, position) });
  } catch (e) {
    showError(`Cannot open ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Opens the whole text of a capped part of a tool call's card in a read-only editor beside the chat. */
export async function openToolCallOutput(session: AgentSession, params: OpenToolOutputParams, chatColumn?: vscode.ViewColumn): Promise<void> {
  const call = toolCall(session, params.toolCallId, params.sessionId);
  const text = call && toolOutputText(call, params);
  if (text === undefined || !call) return showError('This output is no longer available.');
  // a fixed name, not the agent's title: the tab shows it (docs/security.md#agent-text-in-the-workbench)
  const what = params.part === 'rawInput' ? 'raw input' : params.part === 'rawJson' ? 'raw output' : params.label && params.label !== 'output' ? params.label : 'output';
  const name = `Tool call ${what}${params.part === 'rawInput' || params.part === 'rawJson' ? '.json' : '.txt'}`;
  await openReadOnlyText(name, text, besideChat(chatColumn) ?? vscode.ViewColumn.Beside);
}

/** Registers the card and notice actions of a chat webview (the dispatcher validates their params). */
export function registerCardActions(ipc: IpcDispatcher, session: AgentSession, chatColumn: () => vscode.ViewColumn | undefined = () => undefined): void {
  ipc.on(OpenDiffCommand, (params) => { void openToolCallDiff(session, params, chatColumn()); });
  ipc.on(OpenLocationCommand, (params) => { void openToolCallLocation(session, params); });
  ipc.on(OpenToolOutputCommand, (params) => { void openToolCallOutput(session, params, chatColumn()); });
  ipc.on(ShowTerminalCommand, ({ terminalId }) => {
    if (!session.terminals.reveal(terminalId)) {
      void vscode.window.showInformationMessage('This terminal is no longer open: its output is kept in the chat only.');
    }
  });
  ipc.on(RetryPromptCommand, () => {
    session.retryLastPrompt().catch((e: unknown) => showError(e instanceof Error ? e.message : String(e)));
  });
  ipc.on(RestartAgentCommand, () => { void vscode.commands.executeCommand(commandIds.restartAgent, session.key); });
  ipc.on(ContinueSessionCommand, () => { void vscode.commands.executeCommand(commandIds.continueInNewSession, session.key); });
  ipc.on(RevertFlaggedCommand, () => {
    const spot = besideChat(chatColumn());
    void checkpointActionsFor(session).revertFlagged(session.permissions.audit, spot !== undefined ? { viewColumn: spot } : {});
  });
  ipc.on(DismissNoticeCommand, ({ noticeId }) => { session.thread.notices.dismiss(noticeId); });
  ipc.on(StopWorkCommand, (p) => stopWork(session, p).catch((e: unknown) => showError(`Could not stop it: ${e instanceof Error ? e.message : String(e)}`)));
  ipc.on(QueueUntakenCommand, () => {
    if (!session.steering.queueUntaken()) showError('That message was queued or sent already.');
  });
  ipc.on(ResendPromptCommand, () => {
    session.resendInterrupted().catch((e: unknown) => showError(e instanceof Error ? e.message : String(e)));
  });
}

/**
 * Stop on one tool call or terminal of an ACP v2 agent (docs/acp-v2.md): sent only for one the agent said it lets the
 * user stop, and only over a v2 connection; the agent confirms with the call's final status or the terminal's exit.
 */
async function stopWork(session: AgentSession, { kind, id }: StopWorkParams): Promise<void> {
  const thread = session.thread;
  const allowed = kind === 'toolCall' ? thread.toolCall(id)?.cancellable === true : thread.terminals.view(id)?.cancellable === true;
  if (!allowed || session.host.initializeResponse?.protocolVersion !== 2) throw new Error(`the agent does not let you stop this ${kind === 'toolCall' ? 'tool call' : 'terminal'}.`);
  const connection = session.host.connection;
  if (kind === 'toolCall') await connection.requestExtension('tool_call/cancel', { sessionId: session.sessionId, toolCallId: id }, z.unknown());
  else await connection.requestExtension('terminal/cancel', { sessionId: session.sessionId, terminalId: id }, z.unknown());
}
