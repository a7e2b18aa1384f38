/**
 * Context compactions (`compaction_update`, `compaction_summary_chunk`,
 * https://agentclientprotocol.com/protocol/schema#compactionupdate): one transcript entry per `compactionId`, at
 * the place of its first notification. An update patches it: `summary`, `error` and `_meta` omitted are
 * unchanged, `null` clears them (and `summary: []` clears the summary); a chunk appends one block to the
 * summary, and a chunk for an id never seen creates an in-progress compaction. Pure: no vscode, no node.
 */
import type { CompactionSummaryChunk, CompactionUpdate, ContentBlock } from '../../acp/schema/types.gen';

/** A compaction in the thread (and in the transcript store). */
export interface CompactionEntry {
  readonly kind: 'compaction';
  readonly id: string;
  readonly compactionId: string;
  /** As the agent sent it (a status this client does not know is kept, and shown as `other`). */
  status: string;
  summary: ContentBlock[];
  error?: string;
  meta?: Record<string, unknown>;
}

/** A new in-progress compaction with an empty summary. */
export function newCompaction(id: string, compactionId: string): CompactionEntry {
  return { kind: 'compaction', id, compactionId, status: 'in_progress', summary: [] };
}

/** Applies a `compaction_update` (patch semantics, see the module header). */
export function applyCompactionUpdate(e: CompactionEntry, u: CompactionUpdate): void {
  e.status = u.status;
  if (u.summary !== undefined) e.summary = u.summary ?? [];
  if (u.error === null) delete e.error;
  else if (u.error !== undefined) e.error = u.error;
  if (u._meta === null) delete e.meta;
  else if (u._meta !== undefined) e.meta = u._meta;
}

/** Applies a `compaction_summary_chunk`: its block is appended to the summary. */
export function appendCompactionChunk(e: CompactionEntry, chunk: Pick<CompactionSummaryChunk, 'content'>): void {
  e.summary.push(chunk.content);
}

/** A compaction read back from the transcript store, if the record has the shape of one (else it is dropped). */
export function isCompactionEntry(v: unknown): v is CompactionEntry {
  const e = v as Partial<CompactionEntry> | null;
  return !!e && e.kind === 'compaction' && typeof e.id === 'string' && typeof e.compactionId === 'string'
    && typeof e.status === 'string' && Array.isArray(e.summary) && e.summary.every((b) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string')
    && (e.error === undefined || typeof e.error === 'string');
}

/**
 * A compaction that was still running when the transcript was written: after a reload nothing tells whether it
 * finished, so it shows as cancelled (an update from the agent for it patches it again).
 */
export function settleCompaction(e: CompactionEntry): CompactionEntry {
  return e.status === 'in_progress' ? { ...e, status: 'cancelled' } : e;
}
