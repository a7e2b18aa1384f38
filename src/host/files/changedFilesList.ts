/**
 * The list the changed-files bar shows (src/shared/changedFiles.ts), built from the session's change record:
 * per file its name, its folder relative to the workspace, created / modified / deleted, and the lines added
 * and removed, counted with the `diff` package. Pure (no vscode): the caller reads the texts.
 */
import { textDiff } from '../../thread/util/textDiff';
import type { ChangedFileView, FileChangeKind } from '../../shared/changedFiles';

/**
 * Past this many edits, or this long, the line diff gives up (it runs on the extension host, after every
 * write); the counts are then those of the one block between the common first and last lines (exact for one
 * contiguous change, an upper bound else). Measured: 20,000 lines all changed cost 1.6 s with a limit of
 * 2,000 edits, 0.4 s with 1,000.
 */
export const maxCountedEdits = 1_000;
const maxDiffMs = 100;

/** Lines added and removed from `before` to `after`. */
export function lineCounts(before: string, after: string): { added: number; removed: number } {
  if (before === after) return { added: 0, removed: 0 };
  const changes = textDiff().diffLines(before, after, { maxEditLength: maxCountedEdits, timeout: maxDiffMs });
  if (!changes) return blockCounts(before, after);
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    if (c.added) added += c.count;
    else if (c.removed) removed += c.count;
  }
  return { added, removed };
}

/** The lines of a text; a last line without a line break counts, an empty text has none. */
function lines(text: string): string[] {
  if (!text) return [];
  const all = text.split(/\r\n|\r|\n/);
  if (all[all.length - 1] === '') all.pop();
  return all;
}

/** The counts of the single block that differs once the common first and last lines are set aside. O(length). */
export function blockCounts(before: string, after: string): { added: number; removed: number } {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { added: b.length - start - end, removed: a.length - start - end };
}

/** One file of the change record, with its texts as the caller read them. */
export interface ChangedFileInput {
  /** The absolute path. */
  readonly path: string;
  /** The text before the agent's first write; undefined when the agent created the file. */
  readonly before: string | undefined;
  /** The text now; undefined when the file is gone. */
  readonly after: string | undefined;
  /** True when either version is not text (no line counts). */
  readonly binary?: boolean;
}

/** What happened to a file. */
export function changeKind(f: Pick<ChangedFileInput, 'before' | 'after'>): FileChangeKind {
  if (f.after === undefined) return 'deleted';
  return f.before === undefined ? 'created' : 'modified';
}

/**
 * The bar's rows, in the record's order. `relativePath` gives a file's path relative to the workspace (or
 * the absolute path outside it); the row's folder is that path without the file name ('' at the root).
 */
export function changedFilesView(files: readonly ChangedFileInput[], relativePath: (file: string) => string): ChangedFileView[] {
  return files.map((f) => {
    const rel = relativePath(f.path);
    const name = baseName(rel);
    const folder = rel.slice(0, rel.length - name.length).replace(/[\\/]+$/, '');
    const counts = f.binary ? undefined : lineCounts(f.before ?? '', f.after ?? '');
    return { path: f.path, name, folder, change: changeKind(f), ...(counts ?? {}) };
  });
}

function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}
