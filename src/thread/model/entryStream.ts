/**
 * One stream of transcript entries and the reducer of the updates that build it: the session's own transcript,
 * or a subagent's inside its card (src/thread/model/subagents.ts), which may hold cards of its own. Message chunks are
 * grouped by `messageId`, or by consecutive kind when there is none (https://agentclientprotocol.com/protocol/prompt-turn);
 * tool calls are upserted by id, compactions by `compactionId`, messages between sessions by `messageId`, subagent
 * cards by the child's session id, each at the place of its first notification. Ids are unique within a stream
 * (a session), not across them. Every change is reported with the stream's place: its own index in the session's
 * transcript, or the card's index and the path below it. Pure: no vscode, no node.
 */
import type { ContentBlock, SubagentUpdate } from '../../acp/schema/types.gen';
import type { CompactionEntry } from './compaction';
import { newCompaction } from './compaction';
import { newSessionMessage } from './sessionMessages';
import { applySubagentUpdate, newSubagent } from './subagents';
import type { EntryChange, SessionMessageEntry, SubagentEntry, TextEntry, ThreadEntry } from './threadEntries';
import { applyToolCallUpdate, newToolCall } from './toolCall';
import type { ToolCallEntry, ToolCallPatch } from './toolCall';

/** What every stream of a thread shares: its entry ids and where changes go. */
export interface StreamContext {
  newId(): string;
  fire(change: EntryChange): void;
}

/** The entries of one session (the thread's own, or a subagent's card). */
export class EntryStream {
  private readonly toolCalls = new Map<string, number>();
  private readonly compactions = new Map<string, number>();
  private readonly messages = new Map<string, number>();
  private readonly cards = new Map<string, number>();

  /** `location`: empty for the session's own transcript, else the card's index and the path below it. */
  constructor(readonly entries: ThreadEntry[], readonly location: readonly number[], private readonly ctx: StreamContext) {
    this.reindex();
  }

  /** Rebuilds the indices by id (the entries were replaced: restored from the client's store). */
  reindex(): void {
    for (const map of [this.toolCalls, this.compactions, this.messages, this.cards]) map.clear();
    this.entries.forEach((e, i) => {
      if (e.kind === 'toolCall') this.toolCalls.set(e.toolCallId, i);
      else if (e.kind === 'compaction') this.compactions.set(e.compactionId, i);
      else if (e.kind === 'sessionMessage') this.messages.set(e.messageId, i);
      else if (e.kind === 'subagent') this.cards.set(e.sessionId, i);
    });
  }

  /** The entry at `index` changed in place: the views update it. */
  changed(index: number): void {
    this.emit(index);
  }

  /** Adds an entry; returns its index. */
  push(entry: ThreadEntry): number {
    this.entries.push(entry);
    const index = this.entries.length - 1;
    this.emit(index);
    return index;
  }

  /** A `user_message_chunk`: appended to the user message it continues, else a new one. */
  appendUserChunk(content: ContentBlock): void {
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
    const continues = last !== undefined && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId);
    if (!continues) {
      this.push({ kind, id: this.ctx.newId(), messageId, text: content.type === 'text' ? content.text : '', blocks: content.type === 'text' ? [] : [content] });
      return;
    }
    const entry = last as TextEntry;
    if (messageId !== undefined) entry.messageId = messageId;
    if (content.type === 'text') {
      entry.text += content.text;
      this.emit(index, content.text);
    } else {
      entry.blocks.push(content);
      this.emit(index);
    }
  }

  /** The tool call with this id, and its index. */
  toolCall(toolCallId: string): { index: number; entry: ToolCallEntry } | undefined {
    const index = this.toolCalls.get(toolCallId);
    const entry = index === undefined ? undefined : this.entries[index];
    return index !== undefined && entry?.kind === 'toolCall' ? { index, entry } : undefined;
  }

  /** A `tool_call` or `tool_call_update`; returns the call's index. */
  upsertToolCall(patch: ToolCallPatch): number {
    const found = this.toolCall(patch.toolCallId);
    if (!found) {
      // also for a tool_call_update of a call never announced: some agents skip the `tool_call`, and its
      // content must not be lost (https://agentclientprotocol.com/protocol/tool-calls)
      const index = this.push(newToolCall(this.ctx.newId(), patch));
      this.toolCalls.set(patch.toolCallId, index);
      return index;
    }
    applyToolCallUpdate(found.entry, patch);
    this.emit(found.index);
    return found.index;
  }

  /** A compaction is upserted by id; the first notification of an id fixes its place in the timeline. */
  upsertCompaction(compactionId: string, apply: (e: CompactionEntry) => void): void {
    this.upsert(this.compactions, compactionId, () => newCompaction(this.ctx.newId(), compactionId), apply);
  }

  /** A message between sessions is upserted by `messageId`, like a compaction. */
  upsertSessionMessage(messageId: string, apply: (e: SessionMessageEntry) => void): void {
    this.upsert(this.messages, messageId, () => newSessionMessage(this.ctx.newId(), messageId), apply);
  }

  /** A `subagent_update`: the card of its child, created at this place for a child never seen; returns its index. */
  upsertSubagent(update: SubagentUpdate): number {
    return this.upsert(this.cards, update.sessionId, () => newSubagent(this.ctx.newId(), update.sessionId), (e) => applySubagentUpdate(e, update));
  }

  /** The stream of the card at `index` (its child's transcript). */
  childStream(index: number): EntryStream {
    const card = this.entries[index] as SubagentEntry;
    return new EntryStream(card.entries, [...this.location, index], this.ctx);
  }

  private upsert<E extends ThreadEntry>(ids: Map<string, number>, id: string, create: () => E, apply: (e: E) => void): number {
    const index = ids.get(id);
    const entry = index === undefined ? create() : this.entries[index] as E;
    apply(entry);
    if (index !== undefined) {
      this.emit(index);
      return index;
    }
    const at = this.push(entry);
    ids.set(id, at);
    return at;
  }

  /** Reports a change of the entry at `index` (with appended `text`) from this stream's place. */
  private emit(index: number, text?: string): void {
    const [top, ...below] = this.location;
    if (top === undefined) this.ctx.fire(text === undefined ? { type: 'entry', index } : { type: 'append', index, text });
    else this.ctx.fire(text === undefined ? { type: 'subEntry', index: top, path: [...below, index] } : { type: 'subAppend', index: top, path: [...below, index], text });
  }
}
