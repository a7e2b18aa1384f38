/**
 * A session's pending changed files, and Keep, Undo and Open Diff on them: one behaviour for the chat's
 * changed-files bar (src/chatHost/changedFilesController.ts) and the Sessions view (the files under each
 * session). Two sources: the ChangeTracker's record (writes through the editor; the same review actions as ACP:
 * Review Changes, reviewActions.ts), and the checkpoints (files the turns changed on disk, by any means:
 * checkpointBaseline.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangedFileAction, ChangedFilesAllAction, ChangedFileView } from '../../shared/changedFiles';
import type { ChangeRecord, ChangeTracker } from './changeTracker';
import { changedFilesView } from './changedFilesList';
import type { ChangedFileInput } from './changedFilesList';
import { CheckpointBaseline } from './checkpointBaseline';
import { applyReviewAction, confirmUndoAll, currentText, undoFailures } from './reviewActions';
import type { DiffPlacement } from './reviewActions';
import { notTextReason } from './textSlice';
import type { TurnCheckpoints } from './turnCheckpoints';

/** What the list is built from: the session's change record and its checkpoints. */
export interface ChangedFilesSources {
  readonly changes: ChangeTracker;
  readonly checkpoints: TurnCheckpoints;
}

/** One session's pending changes (create one per place that shows them; dispose it with that place). */
export class SessionChangedFiles implements vscode.Disposable {
  private readonly baseline: CheckpointBaseline;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when the record or the checkpoints changed, or a changed file was saved (not coalesced). */
  readonly onDidChange = this._onDidChange.event;
  private readonly _disposables: vscode.Disposable[] = [this._onDidChange];

  constructor(private readonly session: ChangedFilesSources, private readonly log: { warn(message: string): void }) {
    const cps = session.checkpoints;
    this.baseline = new CheckpointBaseline((files) => cps.keep(files), () => cps.current, () => cps.keeping);
    this._disposables.push(
      session.changes.onDidChange(() => this._onDidChange.fire()),
      cps.onDidChange(() => this._onDidChange.fire()),
      vscode.workspace.onDidSaveTextDocument((d) => { if (session.changes.get(d.uri) || this.baseline.has(d.uri.fsPath)) this._onDidChange.fire(); }),
    );
  }

  /** The pending files, in the record's order, then those from checkpoints; each with its line counts. */
  async list(): Promise<ChangedFileView[]> {
    const records = this.session.changes.changes;
    const inputs = await Promise.all(records.map(readInput));
    const fromCheckpoints = await this.baseline.inputs(new Set(records.map((r) => r.uri.fsPath))).catch((e: unknown) => {
      this.log.warn(`changed files: could not read the checkpoints: ${message(e)}`);
      return [];
    });
    // a file that is as it was before the agent (a restore brought it back) is no change any more
    const pending = inputs.filter((i) => i.binary || i.before !== i.after);
    return changedFilesView([...pending, ...fromCheckpoints], (file) => vscode.workspace.asRelativePath(vscode.Uri.file(file), false));
  }

  /** Keep, Undo or Open Diff on one file; resolves to what went wrong, in words, or undefined. */
  async act(action: ChangedFileAction, file: string, placement: DiffPlacement): Promise<string | undefined> {
    const tracker = this.session.changes;
    const uri = path.isAbsolute(file) ? vscode.Uri.file(file) : undefined;
    const fromCheckpoints = !!uri && !tracker.get(uri) && this.baseline.has(uri.fsPath);
    if (!uri || (!tracker.get(uri) && !fromCheckpoints)) {
      return `${path.basename(file)} is not among the agent's pending changes in this session (it may have been kept or undone already).`;
    }
    try {
      if (fromCheckpoints) await this.checkpointAction(action, uri.fsPath, placement);
      else await applyReviewAction(tracker, action, uri, placement); // a kept file's checkpoint baseline follows (ChangeTracker.onDidKeep)
      return undefined;
    } catch (e) {
      const rel = vscode.workspace.asRelativePath(uri, false);
      return `${action === 'undo' ? 'Could not undo' : action === 'keep' ? 'Could not keep' : 'Could not open the diff of'} ${rel}: ${message(e)}`;
    }
  }

  /** Keep All, or Undo All after the user confirmed; resolves to what went wrong, or undefined. */
  async actAll(action: ChangedFilesAllAction): Promise<string | undefined> {
    const tracker = this.session.changes;
    const others = this.baseline.files;
    const count = tracker.changes.length + others.length;
    if (!count) return 'There are no pending changes in this session.';
    if (action === 'keep') {
      tracker.keepAll();
      await this.baseline.keep(others);
      return undefined;
    }
    if (!(await confirmUndoAll(count))) return undefined;
    const failed = await tracker.undoAll();
    for (const file of others) {
      try {
        await this.baseline.undo(file);
      } catch (e) {
        failed.push({ uri: vscode.Uri.file(file), error: message(e) });
      }
    }
    return failed.length ? undoFailures(failed) : undefined;
  }

  private async checkpointAction(action: ChangedFileAction, file: string, placement: DiffPlacement): Promise<void> {
    switch (action) {
      case 'keep': return this.baseline.keep([file]);
      case 'undo': return this.baseline.undo(file);
      case 'diff': return this.baseline.diff(file, placement);
    }
  }

  dispose(): void {
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

/** A record with its texts: before (from the record) and now (editor or disk). */
async function readInput(record: ChangeRecord): Promise<ChangedFileInput> {
  const p = record.uri.fsPath;
  const beforeIsBinary = record.before.kind === 'bytes' && notTextReason(record.before.bytes) !== undefined;
  try {
    return { path: p, before: record.original, after: await currentText(record.uri), binary: beforeIsBinary };
  } catch {
    return { path: p, before: record.original, after: '', binary: true }; // unreadable now: no counts
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
