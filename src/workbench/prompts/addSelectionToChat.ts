/**
 * ACP: Add Selection to Chat: attaches the active editor's selection, with its line range, to the draft of
 * the chat used last (the active chat panel, else the most recently active one). An empty selection
 * attaches the whole file. How a selection reaches the agent is decided at send time (promptBlocks.ts).
 */
import * as vscode from 'vscode';
import type { AttachmentView } from '../../shared/composerModel';
import { embeddedTextMaxChars } from '../../shared/composerModel';
import { ComposerController } from '../../chatHost/composerController';
import { inert } from '../../shared/inertText';

/** Runs the command. */
export async function addSelectionToChat(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Select some text in an editor first: ACP: Add Selection to Chat attaches it to the chat.');
    return;
  }
  const target = ComposerController.mostRecent();
  if (!target) {
    void vscode.window.showInformationMessage('Open a Switchboard chat first (ACP: New Session…): the selection is attached to its message.');
    return;
  }
  const doc = editor.document;
  const name = doc.uri.path.slice(doc.uri.path.lastIndexOf('/') + 1) || doc.uri.toString();
  const id = `sel-${Date.now().toString(36)}`;
  const sel = editor.selection;
  if (sel.isEmpty) {
    target.attach({ kind: 'file', id, uri: doc.uri.toString(), name });
    return;
  }
  // a selection ending at column 0 of a line does not include that line
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  const text = doc.getText(sel);
  if (text.length > embeddedTextMaxChars) {
    void vscode.window.showWarningMessage(inert.message`The selection is too large to attach (${text.length.toLocaleString()} characters; at most ${embeddedTextMaxChars.toLocaleString()}).`);
    return;
  }
  const attachment: AttachmentView = { kind: 'selection', id, uri: doc.uri.toString(), name, startLine: sel.start.line + 1, endLine: endLine + 1, text };
  target.attach(attachment);
}
