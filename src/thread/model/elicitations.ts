/**
 * Where the thread keeps elicitations (https://agentclientprotocol.com/protocol/v1/elicitation): one scoped to a
 * tool call the thread knows goes into that card (`ToolCallEntry.elicitations`), any other is its own entry.
 * They are part of the transcript, so a chat that is reloaded gets them back with its snapshot.
 */
import type { ElicitationView } from '../../shared/elicitationModel';
import type { AcpThread, ThreadEntry } from './thread';

/** Shows a new elicitation: in the card of `toolCallId` when the thread has it, else as its own entry. */
export function addElicitation(thread: AcpThread, view: ElicitationView, toolCallId?: string): void {
  const index = toolCallId === undefined ? -1 : thread.entries.findIndex((e) => e.kind === 'toolCall' && e.toolCallId === toolCallId);
  const card = thread.entries[index];
  if (card?.kind === 'toolCall') {
    card.elicitations = [...(card.elicitations ?? []), view];
    thread.entryChanged(index);
    return;
  }
  thread.addEntry((id) => ({ kind: 'elicitation', id, elicitation: view }));
}

/** The elicitation with this id and where it is, if the thread has it. */
export function findElicitation(thread: AcpThread, requestId: string): { index: number; view: ElicitationView } | undefined {
  for (let index = thread.entries.length - 1; index >= 0; index--) {
    const e = thread.entries[index];
    if (e.kind === 'elicitation' && e.elicitation.requestId === requestId) return { index, view: e.elicitation };
    const view = e.kind === 'toolCall' ? e.elicitations?.find((x) => x.requestId === requestId) : undefined;
    if (view) return { index, view };
  }
  return undefined;
}

/** Changes an elicitation (a new state, errors, the outcome); nothing when the thread does not have it. */
export function updateElicitation(thread: AcpThread, requestId: string, change: (view: ElicitationView) => ElicitationView): void {
  const found = findElicitation(thread, requestId);
  if (!found) return;
  const next = change(found.view);
  const e = thread.entries[found.index];
  if (e.kind === 'elicitation') e.elicitation = next;
  else if (e.kind === 'toolCall') e.elicitations = e.elicitations?.map((x) => (x.requestId === requestId ? next : x));
  thread.entryChanged(found.index);
}

const settle = (v: ElicitationView): ElicitationView => (v.state === 'done' ? v : { ...v, state: 'done', outcome: 'Not answered' });

/** An entry restored from the client's store: an elicitation still pending then was never answered. */
export function settleElicitations(e: ThreadEntry): ThreadEntry {
  if (e.kind === 'elicitation') return { ...e, elicitation: settle(e.elicitation) };
  if (e.kind === 'toolCall' && e.elicitations) return { ...e, elicitations: e.elicitations.map(settle) };
  return e;
}
