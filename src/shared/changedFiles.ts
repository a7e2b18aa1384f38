/**
 * The changed-files bar above the composer: the files the agent changed in this session that the user has
 * not kept or undone yet (the session's change record, docs/chat.md). Shared by the
 * host, which builds the list, and the webview, which shows it. Pure: no vscode, no node built-ins.
 */

/** What happened to a file, compared with before the agent's first write in the session. */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/** One changed file. */
export interface ChangedFileView {
  /** The file's absolute path: the key the webview sends back with Keep, Undo or Open Diff. */
  readonly path: string;
  /** The file name. */
  readonly name: string;
  /** The folder relative to the workspace ('' at its root). */
  readonly folder: string;
  readonly change: FileChangeKind;
  /** Lines added and removed (absent when the file is not text or too different to count). */
  readonly added?: number;
  readonly removed?: number;
}

/** What the bar shows: the pending files, and the last failure of a bar action (shown until the next one). */
export interface ChangedFilesView {
  readonly files: readonly ChangedFileView[];
  readonly error?: string;
}

/** What the user does with one file from the bar. */
export type ChangedFileAction = 'keep' | 'undo' | 'diff';
/** What the user does with every file from the bar. */
export type ChangedFilesAllAction = 'keep' | 'undo';

/** Lines added and removed over all files. */
export function changeTotals(files: readonly { readonly added?: number; readonly removed?: number }[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const f of files) {
    added += f.added ?? 0;
    removed += f.removed ?? 0;
  }
  return { added, removed };
}

/** The collapsed bar's one line: "2 files changed +5 −1" (U+2212 for minus, as in the inline diffs). */
export function changedFilesSummary(files: readonly ChangedFileView[]): string {
  const { added, removed } = changeTotals(files);
  return `${files.length} ${files.length === 1 ? 'file' : 'files'} changed +${added} \u2212${removed}`;
}
