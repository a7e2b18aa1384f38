/**
 * The inline diff of a file edit (a tool call's `diff` content), computed once on the host with the `diff`
 * package: the chat gets the hunks, not both texts, and the webview bundle no longer carries a diff library
 * (docs/performance.md, "Start fast, ship small").
 */
import { textDiff } from '../util/textDiff';
import type { ToolContentView } from '../../shared/viewModel';

/** Characters (old + new) above which no line diff is computed (Open Diff shows the change). */
export const maxDiffChars = 400_000;

type DiffContentView = Extract<ToolContentView, { type: 'diff' }>;

/** By the thread's content object: an edit is diffed once, however often its tool call is shown again. */
const diffs = new WeakMap<object, DiffContentView>();

/** The view of a file edit from `oldText` (null or absent: a new file) to `newText`, with 3 lines of context. */
export function diffToView(c: { readonly path: string; readonly oldText?: string | null; readonly newText: string }): DiffContentView {
  const known = diffs.get(c);
  if (known) return known;
  const added = c.oldText === null || c.oldText === undefined;
  const view: DiffContentView = (c.oldText?.length ?? 0) + c.newText.length > maxDiffChars
    ? { type: 'diff', path: c.path, added, hunks: [], tooLarge: true }
    : { type: 'diff', path: c.path, added, hunks: textDiff().structuredPatch('a', 'b', c.oldText ?? '', c.newText, '', '', { context: 3 }).hunks };
  diffs.set(c, view);
  return view;
}
