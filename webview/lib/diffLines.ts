/**
 * The rows of an inline unified diff (pure, no DOM): hunk headers and context / added / removed lines with
 * their old and new line numbers, from hunks the host made (src/thread/view/diffHunks.ts for a file edit,
 * src/thread/view/rawOutput.ts for an agent's unified diff). Long diffs are cut to a row limit.
 */
import type { DiffHunkView } from '../../src/shared/rawOutputModel';
import type { ToolContentView } from '../../src/shared/viewModel';

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
  /** Set when the texts were too large to diff (the host did not). */
  readonly tooLarge?: boolean;
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

/** The rows of a file edit's view (hunks the host made), or none when the host found it too large to diff. */
export function editRows(edit: Extract<ToolContentView, { type: 'diff' }>, maxRows = 1000): InlineDiff {
  return edit.tooLarge ? { rows: [], added: 0, removed: 0, omittedRows: 0, tooLarge: true } : hunkRows(edit.hunks, maxRows);
}
