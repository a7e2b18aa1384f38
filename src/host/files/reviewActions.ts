/**
 * Keep, Undo and Open Diff on the files of a session's change record: one behaviour for every place that
 * offers them (ACP: Review Changes, the chat's changed-files bar, the diff editor's title). Undo All asks first.
 */
import * as vscode from 'vscode';
import type { ChangeTracker } from './changeTracker';
import { openDiff } from './diffEditor';
import { findOpenDocument, statOrUndefined } from './editorFiles';
import { decodeText } from './textSlice';
import { inert } from '../../shared/inertText';

/** What the user can do with one changed file. */
export type ReviewAction = 'keep' | 'undo' | 'diff';

/** Where a diff opens: a group (beside the chat, see diffPlacement.ts) and whether the focus stays. */
export interface DiffPlacement {
  readonly viewColumn?: vscode.ViewColumn;
  readonly preserveFocus?: boolean;
}

/** Applies one review action to a file of the session's record (nothing when the file is not in it). */
export async function applyReviewAction(tracker: ChangeTracker, action: ReviewAction, uri: vscode.Uri, placement: DiffPlacement = { preserveFocus: true }): Promise<void> {
  const record = tracker.get(uri);
  if (!record) return;
  switch (action) {
    case 'keep': return tracker.keep(uri);
    case 'undo': return tracker.undo(uri);
    case 'diff': return openDiff({ path: record.uri.fsPath, oldText: record.original ?? null, newText: await currentText(record.uri) ?? '' }, placement);
  }
}

/** The files that could not be restored, as one line for the user. */
export function undoFailures(failed: readonly { uri: vscode.Uri; error: string }[]): string {
  return `Could not undo ${failed.length} change(s): ${failed.map((f) => `${vscode.workspace.asRelativePath(f.uri)} (${f.error})`).join('; ')}`;
}

/** Undoes every change of the session; shows which files could not be restored, if any. */
export async function undoAllChanges(tracker: ChangeTracker): Promise<void> {
  const failed = await tracker.undoAll();
  if (failed.length) void vscode.window.showErrorMessage(inert.message`${undoFailures(failed)}`);
}

/** Asks before Undo All (a modal: it rewrites or deletes every file); true when the user confirmed. */
export async function confirmUndoAll(count: number): Promise<boolean> {
  const files = count === 1 ? '1 file' : `${count} files`;
  const answer = await vscode.window.showWarningMessage(
    inert.message`Undo all of the agent's changes? This restores ${files} as before the agent; files it created are deleted.`,
    { modal: true },
    'Undo All',
  );
  return answer === 'Undo All';
}

/** The file's text now: the open editor's, else the disk's; undefined when the file is gone. */
export async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const doc = findOpenDocument([uri.fsPath]);
  if (doc) return doc.getText();
  if (!(await statOrUndefined(uri).catch(() => undefined))) return undefined;
  return decodeText(await vscode.workspace.fs.readFile(uri));
}
