/**
 * The changed-files bar's view of checkpoints (docs/checkpoints.md): the files the session's
 * turns changed whoever wrote them (the agent's own process, a terminal command), each compared with its
 * content before the first turn that changed it, with Keep (the present becomes its baseline), Undo (the
 * baseline is written back) and Open Diff. Files the change tracker knows (writes through the editor) keep
 * the tracker's own behaviour; this adds the rest.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeVersion } from '../../checkpoints/fileWriter';
import type { FileVersion } from '../../checkpoints/fileWriter';
import type { SessionCheckpoints } from '../../checkpoints/sessionCheckpoints';
import type { ChangedFileInput } from './changedFilesList';
import { vscodeFileWriter } from './checkpointFiles';
import { openDiff } from './diffEditor';
import { removeEmptyFolder } from './editorFiles';
import { currentText } from './reviewActions';
import { shown } from './restorePreview';
import { notTextReason } from './textSlice';

/** A changed file with its baseline. */
interface Baseline {
  readonly path: string;
  readonly root: string;
  readonly before: FileVersion | undefined;
}

/** The files the turns changed that differ from their baseline now. */
export class CheckpointBaseline {
  private _last = new Map<string, Baseline>();

  constructor(
    /** Records a Keep (TurnCheckpoints.keep). */
    private readonly keepFiles: (files: readonly string[]) => Promise<void>,
    private readonly checkpoints: () => SessionCheckpoints | undefined,
    /** Files being kept right now (their new baseline is being recorded): not shown meanwhile. */
    private readonly keeping: () => ReadonlySet<string> = () => new Set(),
  ) {}

  /** The bar's rows for files not in `tracked` (the change tracker's), with their texts; those equal to their baseline are left out. */
  async inputs(tracked: ReadonlySet<string>): Promise<ChangedFileInput[]> {
    const cps = this.checkpoints();
    if (!cps) return [];
    const changes = [...(await cps.turnChanges())].filter(([file]) => !tracked.has(file) && !this.keeping().has(file));
    const blobs = await cps.readBlobs(changes.flatMap(([, c]) => (c.before ? [{ root: c.root, ref: c.before }] : [])));
    const rows: ChangedFileInput[] = [];
    const last = new Map<string, Baseline>();
    for (const [file, c] of changes) {
      const before = c.before ? { mode: c.before.mode, bytes: blobs.get(c.before.blob) ?? new Uint8Array() } : undefined;
      const now = await currentText(vscode.Uri.file(file)).catch(() => undefined);
      const beforeText = shown(before);
      if (now === beforeText) continue;
      last.set(file, { path: file, root: c.root, before });
      rows.push({ path: file, before: beforeText, after: now, binary: !!before && notTextReason(before.bytes) !== undefined });
    }
    this._last = last;
    return rows;
  }

  /** True when the bar shows `file` from checkpoints. */
  has(file: string): boolean {
    return this._last.has(file);
  }

  /** The files the bar shows from checkpoints. */
  get files(): string[] {
    return [...this._last.keys()];
  }

  /** Keep: the files as they are now become their baseline. */
  async keep(files: readonly string[]): Promise<void> {
    await this.keepFiles(files);
  }

  /** Undo: writes a file's baseline back (deletes a file the turns created, and the folders left empty). */
  async undo(file: string): Promise<void> {
    const b = this._last.get(file);
    if (!b) return;
    if (b.before) await writeVersion(vscodeFileWriter, file, b.before);
    else {
      await vscodeFileWriter.remove(file);
      for (let dir = path.dirname(file); dir.startsWith(b.root) && dir !== b.root; dir = path.dirname(dir)) if (!(await removeEmptyFolder(dir))) break;
    }
    this._last.delete(file);
  }

  /** Open Diff: the baseline ↔ the file now. */
  async diff(file: string, options: { viewColumn?: vscode.ViewColumn; preserveFocus?: boolean }): Promise<void> {
    const b = this._last.get(file);
    if (!b) return;
    await openDiff({ path: file, oldText: shown(b.before) ?? null, newText: (await currentText(vscode.Uri.file(file))) ?? '' }, options);
  }
}
