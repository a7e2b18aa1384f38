/**
 * ACP: Show Editor Tools Log: the active session's log of the editor's MCP tools (docs/editor-tools.md, "The log"):
 * each call with its arguments, answer size and time.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { editorToolsPart } from '../../host/lifecycle/editorTools/editorToolsPart';

/** Opens the log of `session`'s grant in an editor, or says why there is none. */
export async function showEditorToolsLog(session: AgentSession | undefined): Promise<void> {
  if (!session) return void vscode.window.showInformationMessage('No active session: open a Switchboard chat first.');
  const grant = session.part(editorToolsPart).grant;
  if (!grant) return void vscode.window.showInformationMessage('This session was not offered the editor\'s tools: switchboard.editorTools.enabled is off, or the session was opened before it was turned on.');
  if (!fs.existsSync(grant.logFile)) {
    grant.log('the log was opened');
    await grant.flushed();
  }
  await vscode.window.showTextDocument(vscode.Uri.file(grant.logFile), { preview: true });
}
