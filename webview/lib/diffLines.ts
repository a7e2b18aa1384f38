/**
 * The rows of an inline unified diff (pure, no DOM): hunk headers and context / added / removed lines with
 * their old and new line numbers, computed with the `diff` package (or from hunks the host parsed from an agent's
 * unified diff, src/thread/view/rawOutput.ts). Big inputs are not diffed line by line in the webview (the Open Diff
 * editor shows them); long diffs are cut to a row limit.
 */
import { structuredPatch } from 'diff';
import type { DiffHunkView } from '../../src/shared/rawOutputModel';

/** One row of an inline diff. */
export type DiffRow =
  | { readonly kind: 'hunk'; readonly text: string }
  | { readonly kind: 'context'; readonly oldLine: number; readonly newLine: number; readonly text: string }
  | { readonly kind: 'removed'; readonly oldLine: number; readonly text: string }
  | { readonly kind: 'added'; readonly newLine: number; readonly text: string };

/** The rows of a diff, and how many rows were left out (beyond `maxRows`) or why no rows could be made. */
export interface InlineDiff {
  readonly rows: readonly DiffRow[];
  readonly added: number;
  readonly removed: number;
  /** Rows not shown because of the row limit. */
  readonly omittedRows: number;
  /** Set when the texts were too large to diff here. */
  readonly tooLarge?: boolean;
}

/** Options of {@link inlineDiff}. */
export interface InlineDiffOptions {
  /** Unchanged lines around each change. Default 3. */
  readonly context?: number;
  /** Rows rendered at most. Default 1,000. */
  readonly maxRows?: number;
  /** Characters (old + new) above which no line diff is computed. Default 400,000. */
  readonly maxChars?: number;
}

/** The inline unified diff of `oldText` (null: a new file) to `newText`. */
export function inlineDiff(oldText: string | null, newText: string, options: InlineDiffOptions = {}): InlineDiff {
  const maxRows = options.maxRows ?? 1000;
  if ((oldText?.length ?? 0) + newText.length > (options.maxChars ?? 400_000)) return { rows: [], added: 0, removed: 0, omittedRows: 0, tooLarge: true };
  const patch = structuredPatch('a', 'b', oldText ?? '', newText, '', '', { context: options.context ?? 3 });
  return hunkRows(patch.hunks, maxRows);
}

/** The rows of parsed hunks (lines marked `+`, `-`, ` `; a `\ No newline at end of file` line is not shown). */
export function hunkRows(hunks: readonly DiffHunkView[], maxRows = 1000): InlineDiff {
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  let total = 0;
  const push = (row: DiffRow): void => {
    total++;
    if (rows.length < maxRows) rows.push(row);
  };
  for (const hunk of hunks) {
    push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') { added++; push({ kind: 'added', newLine: newLine++, text }); }
      else if (mark === '-') { removed++; push({ kind: 'removed', oldLine: oldLine++, text }); }
      else if (mark === ' ') push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text });
    }
  }
  return { rows, added, removed, omittedRows: total - rows.length };
}
