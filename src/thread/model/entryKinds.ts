/**
 * One declaration per kind of transcript entry, for what keeping it needs: how a record the transcript store reads
 * back is checked (`stored`: the entry when the record has its shape, else undefined, and it is dropped: a log
 * written by another version may have other kinds or shapes), and how a restored (or forked) entry is settled
 * (what cannot have survived: a pending permission, an unfinished call). Keyed by the kinds of ThreadEntry, so a
 * new kind does not compile until it says both (docs/recipes.md). Its view and its Markdown are declared by kind in
 * src/thread/view/toView.ts and src/thread/export/toMarkdown.ts. Pure: no vscode, no node.
 */
import { isCompactionEntry, settleCompaction } from './compaction';
import { settleElicitationEntry, settleToolCallElicitations } from './elicitations';
import { isSessionMessageEntry } from './sessionMessages';
import { settleSubagent, storedSubagent } from './subagents';
import type { ElicitationEntry, NoticeEntry, TextEntry, ThreadEntry, UserEntry } from './threadEntries';
import type { ToolCallEntry } from './toolCall';
import { isChangesEntry } from './turnChanges';

/** The kind of an entry. */
export type EntryKind = ThreadEntry['kind'];
/** The entry of one kind. */
export type EntryOf<K extends EntryKind> = ThreadEntry & { readonly kind: K };

/** What keeping an entry of one kind needs. */
export interface EntryHandling<E extends ThreadEntry> {
  /** The entry a record read back is, if it has the shape of one (`nested` checks the entries a card holds). */
  readonly stored: (record: object, nested: (v: unknown) => ThreadEntry | undefined) => E | undefined;
  /** The entry restored after a reload, or copied into a fork (`nested` settles the entries a card holds). */
  readonly settle: (e: E, nested: (e: ThreadEntry) => ThreadEntry) => E;
  /** The id updates name it by, for an entry they upsert (src/thread/model/entryStream.ts). */
  readonly key?: (e: E) => string;
}

const isUser = (v: object): v is UserEntry => 'content' in v && Array.isArray(v.content);
const isText = (v: object): v is TextEntry => 'text' in v && typeof v.text === 'string' && 'blocks' in v && Array.isArray(v.blocks);
const isToolCall = (v: object): v is ToolCallEntry => 'toolCallId' in v && typeof v.toolCallId === 'string'
  && 'content' in v && Array.isArray(v.content) && 'locations' in v && Array.isArray(v.locations);
const isNotice = (v: object): v is NoticeEntry => 'text' in v && typeof v.text === 'string';
const isElicitation = (v: object): v is ElicitationEntry => 'elicitation' in v && typeof v.elicitation === 'object' && v.elicitation !== null
  && 'requestId' in v.elicitation && typeof v.elicitation.requestId === 'string';
const same = <E>(e: E): E => e;

/** A tool call that was unfinished when it was written did not finish: it shows as cancelled, without its pending permission. */
function settleToolCall(e: ToolCallEntry): ToolCallEntry {
  const unfinished = e.status === 'pending' || e.status === 'in_progress' || e.status === 'waitingForConfirmation';
  // the work an ACP v2 agent could stop is not the work of a reopened session: no Stop
  return { ...settleToolCallElicitations(e), permission: undefined, status: unfinished ? 'cancelled' : e.status, cancellable: undefined };
}

/** The table (docs/recipes.md "Add a session/update kind"). */
export const entryKinds: { readonly [K in EntryKind]: EntryHandling<EntryOf<K>> } = {
  user: { stored: (v) => (isUser(v) ? v : undefined), settle: same },
  agent: { stored: (v) => (isText(v) && v.kind === 'agent' ? { ...v, kind: 'agent' } : undefined), settle: same },
  thought: { stored: (v) => (isText(v) && v.kind === 'thought' ? { ...v, kind: 'thought' } : undefined), settle: same },
  toolCall: { stored: (v) => (isToolCall(v) ? v : undefined), settle: settleToolCall, key: (e) => e.toolCallId },
  // Queue It holds the message only in memory (src/host/prompts/steering.ts): a restored notice no longer offers it
  notice: { stored: (v) => (isNotice(v) ? v : undefined), settle: (e) => (e.action === 'queue' ? { ...e, action: undefined } : e) },
  elicitation: { stored: (v) => (isElicitation(v) ? v : undefined), settle: settleElicitationEntry },
  compaction: { stored: (v) => (isCompactionEntry(v) ? v : undefined), settle: settleCompaction, key: (e) => e.compactionId },
  subagent: { stored: (v, nested) => storedSubagent(v, nested), settle: settleSubagent, key: (e) => e.sessionId },
  sessionMessage: { stored: (v) => (isSessionMessageEntry(v) ? v : undefined), settle: same, key: (e) => e.messageId },
  changes: { stored: (v) => (isChangesEntry(v) ? v : undefined), settle: same },
};

function isEntryKind(kind: string): kind is EntryKind {
  return Object.hasOwn(entryKinds, kind);
}

/** True for an entry of `kind`. */
export function isKind<K extends EntryKind>(e: ThreadEntry, kind: K): e is EntryOf<K> {
  return e.kind === kind;
}

/** `kind:id` for an entry that updates name by an id of its own, else undefined. */
export function entryKey(e: ThreadEntry): string | undefined {
  const id = keyOfKind(e.kind, e);
  return id === undefined ? undefined : `${e.kind}:${id}`;
}

function keyOfKind<K extends EntryKind>(kind: K, e: EntryOf<K>): string | undefined {
  return entryKinds[kind].key?.(e);
}

/**
 * A recorded entry this version can show: a kind it knows, with the fields the chat needs (a card's own entries
 * checked the same way); undefined for anything else.
 */
export function storedEntry(v: unknown): ThreadEntry | undefined {
  if (typeof v !== 'object' || v === null || !('kind' in v) || typeof v.kind !== 'string' || !isEntryKind(v.kind)) return undefined;
  return storedOfKind(v.kind, v);
}

function storedOfKind<K extends EntryKind>(kind: K, v: object): EntryOf<K> | undefined {
  return entryKinds[kind].stored(v, storedEntry);
}

/**
 * A restored (or copied: a fork) entry: a pending permission or elicitation cannot survive, an unfinished tool
 * call did not finish, nor did a compaction in progress or a subagent at work (nor anything in its card).
 */
export function settleEntry(e: ThreadEntry): ThreadEntry {
  return settleOfKind(e.kind, e);
}

function settleOfKind<K extends EntryKind>(kind: K, e: EntryOf<K>): EntryOf<K> {
  return entryKinds[kind].settle(e, settleEntry);
}
