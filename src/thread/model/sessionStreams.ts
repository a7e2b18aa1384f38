/**
 * The entry streams of one thread by session id: the session's own, and one per subagent announced in it (nested
 * ones too), each in its card (https://agentclientprotocol.com/protocol/v1/draft/subagents). A subagent's updates
 * carry its own session id; they build its card's transcript and plans. Pure: no vscode, no node.
 */
import type { SessionUpdate, SubagentUpdate } from '../../acp/schema/types.gen';
import { appendCompactionChunk, applyCompactionUpdate } from './compaction';
import { EntryStream } from './entryStream';
import type { StreamContext } from './entryStream';
import { planFromUpdate, withoutPlan, withPlan } from './plans';
import type { PlanState } from './plans';
import { appendSessionMessageChunk, applySessionMessage } from './sessionMessages';
import { applySubagentUpdate } from './subagents';
import type { SubagentEntry, ThreadEntry } from './threadEntries';
import type { ToolCallEntry } from './toolCall';

/** A tool call found in one of the streams. */
export interface FoundToolCall {
  readonly stream: EntryStream;
  readonly index: number;
  readonly entry: ToolCallEntry;
}

/** The streams of a thread. */
export class SessionStreams {
  /** The session's own entries. */
  readonly main: EntryStream;
  private readonly streams = new Map<string, EntryStream>();
  /** Where each subagent's card is: the stream that announced it, and the card's index there. */
  private readonly cards = new Map<string, { readonly parent: EntryStream; readonly index: number }>();

  constructor(private readonly sessionId: string, entries: ThreadEntry[], ctx: StreamContext, private readonly log: (message: string) => void) {
    this.main = new EntryStream(entries, [], ctx);
    this.streams.set(sessionId, this.main);
  }

  /** The stream of the session or subagent `sessionId`. */
  get(sessionId: string): EntryStream | undefined {
    return this.streams.get(sessionId);
  }

  /** Every stream, the session's first. */
  all(): IterableIterator<EntryStream> {
    return this.streams.values();
  }

  /** The card of the subagent `sessionId`, if it was announced. */
  card(sessionId: string): SubagentEntry | undefined {
    const at = this.cards.get(sessionId);
    return at ? at.parent.entries[at.index] as SubagentEntry : undefined;
  }

  /** Indexes the entries again after they were replaced (restored from the client's store), with their cards. */
  reset(): void {
    this.streams.clear();
    this.cards.clear();
    this.streams.set(this.sessionId, this.main);
    this.main.reindex();
    this.main.entries.forEach((e, i) => { if (e.kind === 'subagent') this.addCard(e.sessionId, this.main, i); });
  }

  /** The highest number of an entry id (`e12`) in any stream. */
  maxEntryNumber(): number {
    return Math.max(0, ...[...this.streams.values()].flatMap((s) => s.entries.map((e) => Number(/^e(\d+)$/.exec(e.id)?.[1] ?? 0))));
  }

  /** The first tool call of any stream that matches. */
  findToolCall(match: (e: ToolCallEntry) => boolean): FoundToolCall | undefined {
    for (const stream of this.streams.values()) {
      const index = stream.entries.findIndex((e) => e.kind === 'toolCall' && match(e));
      if (index !== -1) return { stream, index, entry: stream.entries[index] as ToolCallEntry };
    }
    return undefined;
  }

  /** Applies an update that builds entries, the same in every stream; false for the others. */
  applyEntryUpdate(stream: EntryStream, update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case 'user_message_chunk': stream.appendUserChunk(update.content); return true;
      case 'agent_message_chunk': stream.appendChunk('agent', update.content, update.messageId ?? undefined); return true;
      case 'agent_thought_chunk': stream.appendChunk('thought', update.content, update.messageId ?? undefined); return true;
      case 'tool_call':
      case 'tool_call_update': stream.upsertToolCall(update); return true;
      case 'compaction_update': stream.upsertCompaction(update.compactionId, (e) => applyCompactionUpdate(e, update)); return true;
      case 'compaction_summary_chunk': stream.upsertCompaction(update.compactionId, (e) => appendCompactionChunk(e, update)); return true;
      case 'session_message': stream.upsertSessionMessage(update.messageId, (e) => applySessionMessage(e, update)); return true;
      case 'session_message_chunk': stream.upsertSessionMessage(update.messageId, (e) => appendSessionMessageChunk(e, update)); return true;
      case 'subagent_update': this.upsertSubagent(stream, update); return true;
      default: return false;
    }
  }

  /**
   * A subagent's plans (its legacy `plan` under the id ''), shown in its card; false for any other update (the rest
   * of a subagent's session state is not shown).
   */
  applySubagentPlan(sessionId: string, update: SessionUpdate): boolean {
    const at = this.cards.get(sessionId);
    if (!at) return false;
    const card = at.parent.entries[at.index] as SubagentEntry;
    const plans = card.plans ?? [];
    let next: PlanState[] | undefined;
    if (update.sessionUpdate === 'plan') next = withPlan(plans, { planId: '', type: 'items', entries: update.entries });
    else if (update.sessionUpdate === 'plan_removed') next = withoutPlan(plans, update.planId);
    else if (update.sessionUpdate === 'plan_update') {
      const plan = planFromUpdate(update.plan);
      next = plan ? withPlan(plans, plan) : undefined;
    }
    if (!next) return false;
    card.plans = next;
    at.parent.changed(at.index);
    return true;
  }

  /**
   * A `subagent_update`: a new child gets its card here and its own stream; a known one is patched wherever it was
   * announced (a child never moves to another parent). A session cannot be its own or its ancestor's subagent.
   */
  private upsertSubagent(stream: EntryStream, update: SubagentUpdate): void {
    const known = this.cards.get(update.sessionId);
    if (known) {
      applySubagentUpdate(known.parent.entries[known.index] as SubagentEntry, update);
      return known.parent.changed(known.index);
    }
    if (this.streams.has(update.sessionId)) return this.log(`ignored a subagent_update that names the session '${update.sessionId}' as a subagent of itself`);
    this.addCard(update.sessionId, stream, stream.upsertSubagent(update));
  }

  private addCard(childId: string, parent: EntryStream, index: number): void {
    const child = parent.childStream(index);
    this.cards.set(childId, { parent, index });
    this.streams.set(childId, child);
    child.entries.forEach((e, i) => { if (e.kind === 'subagent') this.addCard(e.sessionId, child, i); });
  }
}
