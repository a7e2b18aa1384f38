/**
 * Opens VS Code's diff editor for a diff of a tool call: the old text on the left as a read-only virtual
 * document, the file on the right. STUB: the editor-side issue implements it.
 */
import type * as vscode from 'vscode';

/** Arguments of `switchboard.openDiff`. */
export interface OpenDiffArgs {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
}

/** Registers what the diff editor needs (the virtual document provider). */
export function registerDiffEditor(_context: vscode.ExtensionContext): vscode.Disposable {
  return { dispose: () => undefined };
}

/** Opens the diff of one file. */
export async function openDiff(_args: OpenDiffArgs): Promise<void> {
  // not implemented yet
}
