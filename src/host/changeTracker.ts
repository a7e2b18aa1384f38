/**
 * The review record of one session: each file's content before the agent's first write in the session
 * (or "did not exist"), so that changes can be reviewed, kept or undone (ACP: Review Changes).
 * STUB: the editor-side issue fills this in.
 */
import type * as vscode from 'vscode';
import type { SessionContext } from './sessionContext';

/** What a file looked like before the session first wrote it. */
export interface ChangeRecord {
  readonly uri: vscode.Uri;
  /** The text before the first write, or undefined when the agent created the file. */
  readonly original: string | undefined;
}

/** Tracks the files a session changed. */
export class ChangeTracker implements vscode.Disposable {
  private readonly _records = new Map<string, ChangeRecord>();

  constructor(readonly ctx: SessionContext) {}

  /** Records a file's content before a write, only the first time in the session. */
  recordBeforeWrite(uri: vscode.Uri, original: string | undefined): void {
    if (!this._records.has(uri.toString())) this._records.set(uri.toString(), { uri, original });
  }

  /** Every file the session changed. */
  get changes(): readonly ChangeRecord[] {
    return [...this._records.values()];
  }

  dispose(): void {
    this._records.clear();
  }
}
