/**
 * The review record of one session: each file's content before the agent's first write in the session
 * (or "did not exist"), so that changes can be reviewed, kept or undone (ACP: Review
 * Changes). Undo goes through the editor when the file is open (so Edit > Undo can bring the agent's
 * version back) and deletes the files, and the empty folders, that the agent created.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createMissingFolders, deleteFile, findOpenDocument, removeEmptyFolder, replaceDocumentText } from './editorFiles';
import { platformCaseInsensitive } from './pathPolicy';
import type { SessionContext, SessionPart } from '../sessionContext';
import { decodeText, notTextReason } from './textSlice';

/** A file's content before the session first wrote it. */
export type FileBefore =
  /** the agent created the file */
  | { readonly kind: 'missing' }
  /** the text of the open editor, unsaved edits included */
  | { readonly kind: 'text'; readonly text: string }
  /** the bytes on disk (kept as bytes, so that Undo restores them exactly) */
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array };

/** What a file looked like before the session first wrote it. */
export interface ChangeRecord {
  /** The file (its real path). */
  readonly uri: vscode.Uri;
  readonly before: FileBefore;
  /** The text before the first write (for a diff), or undefined when the agent created the file. */
  readonly original: string | undefined;
}

/** True when the agent created the file of `record`. */
export function isCreated(record: ChangeRecord): boolean {
  return record.before.kind === 'missing';
}

/** Tracks the files a session changed. */
export class ChangeTracker implements vscode.Disposable {
  private readonly _records = new Map<string, ChangeRecord>();
  /** Folders the session's writes created (to remove them again, when empty, on Undo). */
  private readonly _createdFolders = new Set<string>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a file is added to the record, written again (its line counts change), kept or undone. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidKeep = new vscode.EventEmitter<string[]>();
  /** Fires with the paths of the files the user kept (from any place: the bar, the diff's title, Review Changes). */
  readonly onDidKeep = this._onDidKeep.event;

  constructor(readonly ctx: SessionContext) {}

  /** Records a file's content before a write, only the first time in the session (called after every write). */
  recordBeforeWrite(uri: vscode.Uri, before: FileBefore): void {
    const key = this.key(uri);
    if (!this._records.has(key)) this._records.set(key, { uri, before, original: textOf(before) });
    this._onDidChange.fire();
  }

  /** Remembers folders created for a write (see {@link createMissingFolders}). */
  recordCreatedFolders(folders: readonly string[]): void {
    for (const f of folders) this._createdFolders.add(f);
  }

  /** Every file the session changed, in the order of the first write. */
  get changes(): readonly ChangeRecord[] {
    return [...this._records.values()];
  }

  /** The record of a file, if the session changed it. */
  get(uri: vscode.Uri): ChangeRecord | undefined {
    return this._records.get(this.key(uri));
  }

  /** Keeps the agent's version of a file: the record is dropped. */
  keep(uri: vscode.Uri): void {
    this.drop(uri);
    this._onDidKeep.fire([uri.fsPath]);
  }

  /** Keeps every change. */
  keepAll(): void {
    if (!this._records.size) return;
    const kept = this.changes.map((r) => r.uri.fsPath);
    this._records.clear();
    this._onDidChange.fire();
    this._onDidKeep.fire(kept);
  }

  /** Drops a file's record (kept or undone). */
  private drop(uri: vscode.Uri): void {
    if (this._records.delete(this.key(uri))) this._onDidChange.fire();
  }

  /**
   * Restores a file as it was before the session's first write: an open file through the editor (then
   * saved), a closed one on disk; a file the agent created is deleted. The record is dropped.
   */
  async undo(uri: vscode.Uri): Promise<void> {
    const record = this.get(uri);
    if (!record) return;
    const { before } = record;
    if (before.kind === 'missing') {
      await deleteFile(record.uri);
      await this.removeCreatedFolders(path.dirname(record.uri.fsPath));
    } else {
      await restore(record.uri, before);
    }
    this.ctx.log.info(`review: undid the session's change of ${record.uri.fsPath}`);
    this.drop(uri);
  }

  /** Undoes every change; returns the files that could not be restored, with the reason. */
  async undoAll(): Promise<{ uri: vscode.Uri; error: string }[]> {
    const failed: { uri: vscode.Uri; error: string }[] = [];
    for (const record of [...this.changes].reverse()) {
      try {
        await this.undo(record.uri);
      } catch (error) {
        failed.push({ uri: record.uri, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return failed;
  }

  dispose(): void {
    this._records.clear();
    this._createdFolders.clear();
    this._onDidChange.dispose();
    this._onDidKeep.dispose();
  }

  /** Removes `dir` and its parents while the session created them and they are empty. */
  private async removeCreatedFolders(dir: string): Promise<void> {
    for (let current = dir; this._createdFolders.has(current); current = path.dirname(current)) {
      if (!(await removeEmptyFolder(current))) return;
      this._createdFolders.delete(current);
    }
  }

  private key(uri: vscode.Uri): string {
    const p = uri.scheme === 'file' ? uri.fsPath : uri.toString();
    return platformCaseInsensitive ? p.toLowerCase() : p;
  }
}

/** The text of a previous version (bytes that are not text are shown as decoded as far as possible). */
function textOf(before: FileBefore): string | undefined {
  switch (before.kind) {
    case 'missing': return undefined;
    case 'text': return before.text;
    case 'bytes': return decodeText(before.bytes);
  }
}

/** Writes a previous version back: through the editor when the file is open and the version is text. */
async function restore(uri: vscode.Uri, before: Exclude<FileBefore, { kind: 'missing' }>): Promise<void> {
  const doc = findOpenDocument([uri.fsPath]);
  const text = before.kind === 'text' ? before.text : notTextReason(before.bytes) ? undefined : decodeText(before.bytes);
  if (doc && text !== undefined) return replaceDocumentText(doc, text);
  await createMissingFolders(path.dirname(uri.fsPath));
  await vscode.workspace.fs.writeFile(uri, before.kind === 'bytes' ? before.bytes : new TextEncoder().encode(before.text));
}

/** Each session's record of the files its agent changed. */
export const changesPart: SessionPart<ChangeTracker> = { name: 'change tracker', create: (session) => new ChangeTracker(session.context) };
