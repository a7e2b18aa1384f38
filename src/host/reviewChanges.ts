/**
 * ACP: Review Changes: every file the session changed, with Keep or Undo per file and Undo All.
 * STUB: the editor-side issue implements it.
 */
import * as vscode from 'vscode';
import type { AgentSession } from './agentSession';

/** Shows the review of a session's changes. */
export async function reviewChanges(session: AgentSession | undefined): Promise<void> {
  if (!session) {
    void vscode.window.showInformationMessage('Open a Switchboard chat first: Review Changes works on the active session.');
    return;
  }
  void vscode.window.showInformationMessage(`${session.changes.changes.length} file(s) changed in this session.`);
}
