/**
 * ACP v2's structured file change as the client's diffs: a v2 `diff` tool-call content is a list of changes (path
 * and operation: add, delete, modify, move, copy) with an optional git patch; the client shows one diff per change,
 * its old and new text taken from the patch's hunks for that file (docs/acp-v2.md "Files"). Without a patch, or
 * for a file the patch does not cover, only the path and the operation are known, and the card says so.
 */
import { parsePatch } from 'diff';
import type { StructuredPatch } from 'diff';
import type { ToolCallContent } from '../schema/types.gen';
import type { ToolCallContent as V2ToolCallContent } from '../schema/v2/types.gen';

type V2Diff = Extract<V2ToolCallContent, { type: 'diff' }>;

/** What the operations read as, in the card's note when there is no text to show. */
const verbs: Record<string, string> = { add: 'Created', delete: 'Deleted', modify: 'Modified', move: 'Moved', copy: 'Copied' };

/** The client's diff contents of one v2 diff: one per change. */
export function diffContents(diff: V2Diff): ToolCallContent[] {
  const files = readPatch(diff.patch && diff.patch.format === 'git_patch' ? diff.patch.text : undefined);
  const out: ToolCallContent[] = [];
  for (const change of diff.changes) {
    const path = typeof change.path === 'string' ? change.path : undefined;
    if (!path) continue;
    const operation = change.operation;
    const oldPath = 'oldPath' in change && typeof change.oldPath === 'string' ? change.oldPath : undefined;
    const file = files.length === 1 && diff.changes.length === 1 ? files[0] : files.find((f) => samePath(f.newFileName, path) || samePath(f.oldFileName, oldPath ?? path));
    const meta = { 'switchboard/v2Change': { operation, ...(oldPath ? { oldPath } : {}) } };
    if (file) {
      const { oldText, newText } = hunkTexts(file);
      out.push({ type: 'diff', path, oldText: operation === 'add' ? null : oldText, newText, _meta: meta });
    } else {
      const note = `${verbs[operation] ?? operation} ${oldPath ? `${oldPath} → ${path}` : path}; the agent sent no patch for it.`;
      out.push({ type: 'content', content: { type: 'text', text: note }, _meta: meta });
    }
  }
  return out;
}

function readPatch(text: string | undefined): StructuredPatch[] {
  if (!text) return [];
  try {
    return parsePatch(text);
  } catch {
    return [];
  }
}

/** A patch's file name (`a/src/x.ts`, `b/src/x.ts`, `/dev/null`) names the absolute `path` when it is its tail. */
function samePath(patchName: string | undefined, path: string | undefined): boolean {
  if (!patchName || !path || patchName === '/dev/null') return false;
  const tail = patchName.replace(/^[ab]\//, '').replace(/\\/g, '/');
  const full = path.replace(/\\/g, '/');
  return full === tail || full.endsWith(`/${tail}`);
}

/** The old and the new text the hunks show: context and removed lines, context and added lines. */
function hunkTexts(file: StructuredPatch): { oldText: string; newText: string } {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === ' ' || mark === '-') oldLines.push(text);
      if (mark === ' ' || mark === '+') newLines.push(text);
    }
  }
  return { oldText: oldLines.join('\n'), newText: newLines.join('\n') };
}
