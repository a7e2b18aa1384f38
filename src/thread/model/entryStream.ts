/**
 * One stream of transcript entries and the reducer of the updates that build it: the session's own transcript,
 * or a subagent's inside its card (src/thread/model/subagents.ts), which may hold cards of its own. Message chunks are
 * grouped by `messageId`, or by consecutive kind when there is none (https://agentclientprotocol.com/protocol/prompt-turn);
 * other entries are upserted by the id their updates name them by (a tool call's, a compaction's, a message's, a
 * subagent's session id: src/thread/model/entryKinds.ts `key`), each at the place of its first notification. Ids are unique within a stream
 * (a session), not across them. Every change is reported with the stream's place: its own index in the session's
 * transcript, or the card's index and the path below it. Pure: no vscode, no node.
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import { entryKey, isKind, type EntryKind, type EntryOf } from './entryKinds';
import type { EntryChange, SubagentEntry, ThreadEntry, UserEntry } from './threadEntries';
import { applyToolCallUpdate, newToolCall } from './toolCall';
import type { ToolCallEntry, ToolCallPatch } from './toolCall';

/** A block as JSON with its keys sorted: the same block whatever order the agent's (or the schema's) fields come in. */
function sameJson(block: ContentBlock): string {
  return JSON.stringify(block, (_key, value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value));
}

/** What every stream of a thread shares: its entry ids and where changes go. */
export interface StreamContext {
  newId(): string;
  fire(change: EntryChange): void;
}

/** The entries of one session (the thread's own, or a subagent's card). */
export class EntryStream {
  /** The index of each entry that updates name by an id of its own (src/thread/model/entryKinds.ts `key`). */
  private readonly keyed = new Map<string, number>();
  /**
   * The prompt just sent and how far an echo of it has come (block, and offset in a text block); until an entry other
   * than a notice (the warning shown under a prompt) follows it.
   */
  private echo: { readonly blocks: readonly ContentBlock[]; block: number; offset: number } | undefined;

  /** `location`: empty for the session's own transcript, else the card's index and the path below it. */
  constructor(readonly entries: ThreadEntry[], readonly location: readonly number[], private readonly ctx: StreamContext) {
    this.reindex();
  }

  /** Rebuilds the indices by id (the entries were replaced: restored from the client's store). */
  reindex(): void {
    this.echo = undefined;
    this.keyed.clear();
    this.entries.forEach((e, i) => {
      const key = entryKey(e);
      if (key !== undefined) this.keyed.set(key, i);
    });
  }

  /** The entry at `index` changed in place: the views update it. */
  changed(index: number): void {
    this.emit(index);
  }

  /** Adds an entry; returns its index. */
  push(entry: ThreadEntry): number {
    if (entry.kind !== 'notice') this.echo = undefined;
    this.entries.push(entry);
    const index = this.entries.length - 1;
    this.emit(index);
    return index;
  }

  /**
   * Adds the prompt the user just sent. Agents may echo it back as `user_message_chunk`s (some do, chunk by chunk):
   * until another entry comes, chunks that repeat it in order are that echo, not a new message ({@link appendUserChunk}).
   */
  pushPrompt(entry: UserEntry): void {
    this.push(entry);
    this.echo = { blocks: entry.content, block: 0, offset: 0 };
  }

  /**
   * A `user_message_chunk`: the echo of the prompt just sent is dropped (it is shown already); any other chunk is
   * appended to the user message it continues, else it starts a new one (the history `session/load` replays).
   */
  appendUserChunk(content: ContentBlock): void {
    if (this.isEcho(content)) return;
    this.echo = undefined;
    const last = this.entries[this.entries.length - 1];
    if (last?.kind !== 'user') {
      this.push({ kind: 'user', id: this.ctx.newId(), content: [content] });
      return;
    }
    last.content.push(content);
    this.emit(this.entries.length - 1);
  }

  /** An agent message or thought chunk: appended to the message it continues, else a new one. */
  appendChunk(kind: 'agent' | 'thought', content: ContentBlock, messageId: string | undefined): void {
    const index = this.entries.length - 1;
    const last = this.entries[index];
    const message = last?.kind === 'agent' || last?.kind === 'thought' ? last : undefined;
    if (!message || message.kind !== kind || (messageId !== undefined && message.messageId !== undefined && message.messageId !== messageId)) {
      this.push({ kind, id: this.ctx.newId(), messageId, text: content.type === 'text' ? content.text : '', blocks: content.type === 'text' ? [] : [content] });
      return;
    }
    if (messageId !== undefined) message.messageId = messageId;
    if (content.type === 'text') {
      message.text += content.text;
      this.emit(index, content.text);
    } else {
      message.blocks.push(content);
      this.emit(index);
    }
  }

  /** True when `chunk` is the next piece of the prompt just sent (its whole block, or the next part of its text). */
  private isEcho(chunk: ContentBlock): boolean {
    const echo = this.echo;
    const block = echo?.blocks[echo.block];
    if (!echo || !block) return false;
    if (chunk.type === 'text' && block.type === 'text') {
      if (!chunk.text || !block.text.startsWith(chunk.text, echo.offset)) return false;
      echo.offset += chunk.text.length;
    } else if (echo.offset !== 0 || sameJson(chunk) !== sameJson(block)) {
      return false;
    }
    if (block.type !== 'text' || echo.offset === block.text.length) {
      echo.block++;
      echo.offset = 0;
    }
    return true;
  }

  /** The entry of `kind` that updates name `id` (a tool call's id, a compaction's, …), and its index. */
  find<K extends EntryKind>(kind: K, id: string): { index: number; entry: EntryOf<K> } | undefined {
    const index = this.keyed.get(`${kind}:${id}`);
    const entry = index === undefined ? undefined : this.entries[index];
    return index !== undefined && entry && isKind(entry, kind) ? { index, entry } : undefined;
  }

  /**
   * Patches the entry of `kind` that updates name `id` with `apply`, or adds the one `create` makes (with a fresh entry
   * id), patched, at this place: the first notification of an id fixes its place in the timeline. Returns it and its index.
   */
  upsert<K extends EntryKind>(kind: K, id: string, create: (entryId: string) => EntryOf<K>, apply: (e: EntryOf<K>) => void): { index: number; entry: EntryOf<K> } {
    const found = this.find(kind, id);
    if (found) {
      apply(found.entry);
      this.emit(found.index);
      return found;
    }
    const entry = create(this.ctx.newId());
    apply(entry);
    return { index: this.add(kind, id, entry), entry };
  }

  /** A `tool_call` or `tool_call_update`; returns the call and its index. */
  upsertToolCall(patch: ToolCallPatch): { index: number; entry: ToolCallEntry } {
    const found = this.find('toolCall', patch.toolCallId);
    if (found) {
      applyToolCallUpdate(found.entry, patch);
      this.emit(found.index);
      return found;
    }
    // also for a tool_call_update of a call never announced: some agents skip the `tool_call`, and its
    // content must not be lost (https://agentclientprotocol.com/protocol/tool-calls)
    const entry = newToolCall(this.ctx.newId(), patch);
    return { index: this.add('toolCall', patch.toolCallId, entry), entry };
  }

  /** The card at `index`, if there is one there. */
  subagentAt(index: number): SubagentEntry | undefined {
    const e = this.entries[index];
    return e?.kind === 'subagent' ? e : undefined;
  }

  /** The stream of the card (its child's transcript). */
  childStream(index: number, card: SubagentEntry): EntryStream {
    return new EntryStream(card.entries, [...this.location, index], this.ctx);
  }

  /** Adds an entry that updates name by `id`; returns its index. */
  private add(kind: EntryKind, id: string, entry: ThreadEntry): number {
    const index = this.push(entry);
    this.keyed.set(`${kind}:${id}`, index);
    return index;
  }

  /** Reports a change of the entry at `index` (with appended `text`) from this stream's place. */
  private emit(index: number, text?: string): void {
    const [top, ...below] = this.location;
    if (top === undefined) this.ctx.fire(text === undefined ? { type: 'entry', index } : { type: 'append', index, text });
    else this.ctx.fire(text === undefined ? { type: 'subEntry', index: top, path: [...below, index] } : { type: 'subAppend', index: top, path: [...below, index], text });
  }
}
