/**
 * The entry streams of one thread by session id: the session's own, and one per subagent announced in it (nested
 * ones too), each in its card (https://agentclientprotocol.com/protocol/v1/draft/subagents). A subagent's updates
 * carry its own session id; they build its card's transcript and plans. Pure: no vscode, no node.
 */
import type { SubagentUpdate } from '../../acp/schema/types.gen';
import { EntryStream } from './entryStream';
import type { StreamContext } from './entryStream';
import { withPlan } from './plans';
import type { PlanState } from './plans';
import { applySubagentUpdate, newSubagent } from './subagents';
import type { SubagentEntry, ThreadEntry } from './threadEntries';
import type { ToolCallEntry } from './toolCall';
import type { PlanTarget, SessionTarget, UpdateTarget } from './updateKinds';

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
  /** Where each session's updates land, made once per session. */
  private readonly targets = new Map<string, UpdateTarget>();

  /** `session`: the session's own state and plans, where its own updates land. */
  constructor(
    private readonly sessionId: string,
    entries: ThreadEntry[],
    ctx: StreamContext,
    private readonly session: { readonly state: SessionTarget; readonly plans: PlanTarget },
    private readonly log: (message: string) => void,
  ) {
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
    return at?.parent.subagentAt(at.index);
  }

  /** Indexes the entries again after they were replaced (restored from the client's store), with their cards. */
  reset(): void {
    this.streams.clear();
    this.cards.clear();
    this.targets.clear();
    this.streams.set(this.sessionId, this.main);
    this.main.reindex();
    this.main.entries.forEach((e, i) => { if (e.kind === 'subagent') this.addCard(e, this.main, i); });
  }

  /** The highest number of an entry id (`e12`) in any stream. */
  maxEntryNumber(): number {
    return Math.max(0, ...[...this.streams.values()].flatMap((s) => s.entries.map((e) => Number(/^e(\d+)$/.exec(e.id)?.[1] ?? 0))));
  }

  /** The first tool call of any stream that matches. */
  findToolCall(match: (e: ToolCallEntry) => boolean): FoundToolCall | undefined {
    for (const stream of this.streams.values()) {
      for (const [index, entry] of stream.entries.entries()) if (entry.kind === 'toolCall' && match(entry)) return { stream, index, entry };
    }
    return undefined;
  }

  /**
   * Where an update of the session or subagent `sessionId` lands (src/thread/model/updateKinds.ts), or undefined for a
   * session it does not know: the session's own updates change `session` and `plans`, a subagent's its card.
   */
  target(sessionId: string): UpdateTarget | undefined {
    const stream = this.streams.get(sessionId);
    if (!stream) return undefined;
    let target = this.targets.get(sessionId);
    if (!target) {
      const main = stream === this.main;
      const session = main ? this.session : { state: undefined, plans: this.cardPlans(sessionId) };
      target = { stream, plans: session.plans, session: session.state, subagent: (u) => this.upsertSubagent(stream, u), log: this.log };
      this.targets.set(sessionId, target);
    }
    return target;
  }

  /** The plans shown in the card of the subagent `sessionId` (its legacy `plan` under the id ''). */
  private cardPlans(sessionId: string): PlanTarget {
    const change = (next: (plans: PlanState[]) => PlanState[]): boolean => {
      const at = this.cards.get(sessionId);
      const card = at?.parent.subagentAt(at.index);
      const plans = card?.plans ?? [];
      const changed = next(plans);
      if (!at || !card || changed === plans) return false;
      card.plans = changed;
      at.parent.changed(at.index);
      return true;
    };
    return { change, setLegacy: (entries) => void change((plans) => withPlan(plans, { planId: '', type: 'items', entries })) };
  }

  /**
   * A `subagent_update`: a new child gets its card here and its own stream; a known one is patched wherever it was
   * announced (a child never moves to another parent). A session cannot be its own or its ancestor's subagent.
   */
  private upsertSubagent(stream: EntryStream, update: SubagentUpdate): void {
    const known = this.cards.get(update.sessionId);
    const card = known?.parent.subagentAt(known.index);
    if (known && card) {
      applySubagentUpdate(card, update);
      return known.parent.changed(known.index);
    }
    if (this.streams.has(update.sessionId)) return this.log(`ignored a subagent_update that names the session '${update.sessionId}' as a subagent of itself`);
    const { index, entry } = stream.upsert('subagent', update.sessionId, (id) => newSubagent(id, update.sessionId), (e) => applySubagentUpdate(e, update));
    this.addCard(entry, stream, index);
  }

  private addCard(card: SubagentEntry, parent: EntryStream, index: number): void {
    const child = parent.childStream(index, card);
    this.cards.set(card.sessionId, { parent, index });
    this.streams.set(card.sessionId, child);
    child.entries.forEach((e, i) => { if (e.kind === 'subagent') this.addCard(e, child, i); });
  }
}
