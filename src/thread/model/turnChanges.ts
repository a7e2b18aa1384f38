/**
 * The transcript's record of checkpoints (docs/checkpoints.md): a compact "Changed in this
 * turn" entry at the end of each turn that changed files, and an entry for each restore. The files and their
 * line counts come from the checkpoints (src/checkpoints), which the host takes; the thread only keeps what
 * the chat shows and what its buttons need (the two checkpoints a diff compares). Pure: no vscode, no node.
 */
import * as z from 'zod/mini';
import { changeTotals } from '../../shared/changedFiles';

/** What happened to a file, from the first checkpoint to the second. */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/** One file of a changes entry. */
export interface ChangedFileLine {
  /** Absolute path. */
  readonly path: string;
  /** Relative to its root (shown with the folder). */
  readonly rel: string;
  readonly change: FileChangeKind;
  /** Lines added and removed; absent for a binary file. */
  readonly added?: number;
  readonly removed?: number;
}

/**
 * `turn`: what a turn changed, from the checkpoint before it (`from`) to the one at its end (`to`); Undo this
 * turn restores these files from `from`. `restore`: what a restore changed, from the checkpoint it took of the
 * present (`from`, its undo point) to the restored state (`to`); Undo Restore restores these files from `from`.
 */
export interface ChangesEntry {
  readonly kind: 'changes';
  readonly id: string;
  readonly role: 'turn' | 'restore';
  readonly files: readonly ChangedFileLine[];
  readonly from: string;
  readonly to: string;
  /** A restore: what it restored, e.g. `the checkpoint before "Fix the bug"`. */
  readonly label?: string;
  /** A restore of a whole checkpoint: the first and last entries it marked "after restored checkpoint". */
  readonly marked?: { readonly first: string; readonly last: string };
  /** Files left as they were because no checkpoint has them (over the size cap, nested repositories). */
  readonly leftAlone?: number;
  /** Set once the turn or the restore was undone. */
  undone?: boolean;
}

const fileSchema = z.object({
  path: z.string(), rel: z.string(), change: z.enum(['created', 'modified', 'deleted']),
  added: z.optional(z.int().check(z.nonnegative())), removed: z.optional(z.int().check(z.nonnegative())),
});

const changesSchema = z.object({
  kind: z.literal('changes'), id: z.string(), role: z.enum(['turn', 'restore']), files: z.array(fileSchema),
  from: z.string(), to: z.string(), label: z.optional(z.string()),
  marked: z.optional(z.object({ first: z.string(), last: z.string() })),
  leftAlone: z.optional(z.int().check(z.nonnegative())), undone: z.optional(z.boolean()),
  afterRestore: z.optional(z.boolean()),
});

/** True for a changes entry as the transcript store wrote it (a line of another version may not be). */
export function isChangesEntry(v: unknown): v is ChangesEntry {
  return changesSchema.safeParse(v).success;
}

/** The one line a changes entry reads as (the Markdown export, the chat's summary). */
export function changesSummary(e: Pick<ChangesEntry, 'role' | 'files' | 'label' | 'undone'>): string {
  const n = e.files.length;
  const { added, removed } = changeTotals(e.files);
  const files = `${n} ${n === 1 ? 'file' : 'files'} +${added} \u2212${removed}`;
  if (e.role === 'turn') return `Changed in this turn: ${files}${e.undone ? ' (undone)' : ''}`;
  return `Restored ${e.label ?? 'a checkpoint'}: ${files}${e.undone ? ' (restore undone)' : ''}`;
}

/**
 * The entries that came after a restored checkpoint: the `marked` range (indexes) of the newest whole
 * restore that was not undone. An older restore's range applies again once the newer one is undone.
 */
export function restoreMarkRange(entries: readonly { readonly kind: string; readonly id: string }[]): [number, number] | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as Partial<ChangesEntry>;
    if (e.kind !== 'changes' || !e.marked || e.undone) continue;
    const { first, last } = e.marked;
    const from = entries.findIndex((x) => x.id === first);
    const to = entries.findIndex((x) => x.id === last);
    if (from !== -1 && to >= from) return [from, to];
  }
  return undefined;
}
