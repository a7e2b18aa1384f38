/**
 * Where the thread keeps elicitations (https://agentclientprotocol.com/protocol/v1/elicitation): one scoped to a
 * tool call the thread knows goes into that card (`ToolCallEntry.elicitations`), any other is its own entry.
 * They are part of the transcript, so a chat that is reloaded gets them back with its snapshot. The thread's
 * `elicitations` is the only way to change them (the host's broker asks it); each change is an entry change.
 */
import type { ElicitationView } from '../../shared/elicitationModel';
import type { ElicitationEntry, ThreadEntry } from './threadEntries';
import type { ToolCallEntry } from './toolCall';

/** The session's own entries, as the thread lends them (src/thread/model/entryStream.ts). */
interface ElicitationStream {
  readonly entries: readonly ThreadEntry[];
  push(entry: ThreadEntry): number;
  changed(index: number): void;
}

/** The elicitation with this id and where it is, if `entries` have it. */
export function findElicitation(entries: readonly ThreadEntry[], requestId: string): { index: number; view: ElicitationView } | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const e = entries[index];
    if (e.kind === 'elicitation' && e.elicitation.requestId === requestId) return { index, view: e.elicitation };
    const view = e.kind === 'toolCall' ? e.elicitations?.find((x) => x.requestId === requestId) : undefined;
    if (view) return { index, view };
  }
  return undefined;
}

/** The elicitations of one thread. */
export class ThreadElicitations {
  constructor(private readonly stream: ElicitationStream, private readonly newId: () => string) {}

  /** Shows a new elicitation: in the card of `toolCallId` when the thread has it, else as its own entry. */
  add(view: ElicitationView, toolCallId?: string): void {
    const entries = this.stream.entries;
    const index = toolCallId === undefined ? -1 : entries.findIndex((e) => e.kind === 'toolCall' && e.toolCallId === toolCallId);
    const card = entries[index];
    if (card?.kind === 'toolCall') {
      card.elicitations = [...(card.elicitations ?? []), view];
      return this.stream.changed(index);
    }
    this.stream.push({ kind: 'elicitation', id: this.newId(), elicitation: view });
  }

  /** The elicitation with this id and where it is, if the thread has it. */
  find(requestId: string): { index: number; view: ElicitationView } | undefined {
    return findElicitation(this.stream.entries, requestId);
  }

  /** Changes an elicitation (a new state, errors, the outcome); nothing when the thread does not have it. */
  update(requestId: string, change: (view: ElicitationView) => ElicitationView): void {
    const found = this.find(requestId);
    if (!found) return;
    const next = change(found.view);
    const e = this.stream.entries[found.index];
    if (e.kind === 'elicitation') e.elicitation = next;
    else if (e.kind === 'toolCall') e.elicitations = e.elicitations?.map((x) => (x.requestId === requestId ? next : x));
    this.stream.changed(found.index);
  }
}

const settle = (v: ElicitationView): ElicitationView => (v.state === 'done' ? v : { ...v, state: 'done', outcome: 'Not answered' });

/** An elicitation entry restored from the client's store: one still pending then was never answered. */
export function settleElicitationEntry(e: ElicitationEntry): ElicitationEntry {
  return { ...e, elicitation: settle(e.elicitation) };
}

/** A restored tool call's elicitations, settled the same way. */
export function settleToolCallElicitations(e: ToolCallEntry): ToolCallEntry {
  return e.elicitations ? { ...e, elicitations: e.elicitations.map(settle) } : e;
}
