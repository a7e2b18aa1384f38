/**
 * The replay of a `session/load` merged into a transcript that is already shown: an agent that cannot resume is
 * loaded again after a reconnection or a restart (src/host/lifecycle/restart.ts), and its replay is its whole
 * history (https://agentclientprotocol.com/protocol/session-setup#loading-sessions). The transcript has what
 * arrived before the connection was lost; what the agent did meanwhile (the rest of an interrupted turn) is what
 * the replay has beyond it. Those updates are applied, and nothing that is shown already is shown twice.
 */
import type { SessionUpdate } from '../../acp/schema/types.gen';
import { AcpThread } from './thread';
import type { ThreadEntry } from './threadEntries';
import { droppedInLoad } from './updateKinds';

/** An update held back while the replay ran (of the session, or of one of its subagents: `sessionId`). */
export interface HeldUpdate {
  readonly update: SessionUpdate;
  readonly sessionId: string;
}

/** What a merge adds: the updates to apply, in order, and a note for the log when the histories disagree. */
export interface ReplayMerge {
  readonly updates: readonly HeldUpdate[];
  readonly note?: string;
}

const historyKinds: ReadonlySet<string> = new Set(['user', 'agent', 'thought', 'toolCall']);

/** The entries that a replay has too: messages, thoughts, and the agent's tool calls (not the client's own cards: `ours`). */
function history(entries: readonly ThreadEntry[], ours: (e: ThreadEntry) => boolean): ThreadEntry[] {
  return entries.filter((e) => historyKinds.has(e.kind) && !ours(e));
}

/**
 * What of the replay `held` the transcript `shown` does not have yet. The replay's entries are lined up with the
 * shown ones (`ours`: the client's own entries, which no replay has); then
 * - the last shown message, if the replay has more of its text, gets the rest (a turn that went on);
 * - a shown tool call that the replay has finished gets its final status and content;
 * - every update from the one that makes an entry past the shown ones is applied (turns of the agent's own).
 */
export function mergeReplay(shown: readonly ThreadEntry[], held: readonly HeldUpdate[], sessionId: string, ours: (e: ThreadEntry) => boolean): ReplayMerge {
  const kept = held.filter((u) => !droppedInLoad(u.update.sessionUpdate));
  const mine = history(shown, ours);
  const scratch = new AcpThread(sessionId);
  let first = kept.length;
  for (const [i, u] of kept.entries()) {
    const before = scratch.entries.length;
    scratch.handleSessionUpdate(u.update, u.sessionId);
    // the update that makes an entry past the shown ones starts what the transcript does not have
    if (scratch.entries.length > before && history(scratch.entries, () => false).length > mine.length) {
      first = i;
      break;
    }
  }
  // the replay's entries that line up with the shown ones (that update only added one after them)
  const theirs = history(scratch.entries, () => false).slice(0, mine.length);
  const updates: HeldUpdate[] = [];
  const differs: string[] = [];
  for (const [k, e] of mine.entries()) {
    const r = theirs[k];
    if (!r || r.kind !== e.kind) {
      if (r) differs.push(`entry ${k + 1} is ${e.kind} here, ${r.kind} in the replay`);
      continue;
    }
    if ((e.kind === 'agent' || e.kind === 'thought') && r.kind === e.kind && k === mine.length - 1 && r.text.length > e.text.length && r.text.startsWith(e.text)) {
      const sessionUpdate = e.kind === 'agent' ? 'agent_message_chunk' : 'agent_thought_chunk';
      updates.push({ sessionId, update: { sessionUpdate, content: { type: 'text', text: r.text.slice(e.text.length) } } });
    }
    if (e.kind === 'toolCall' && r.kind === 'toolCall' && r.toolCallId === e.toolCallId && r.status !== e.status && (r.status === 'completed' || r.status === 'failed')) {
      updates.push({ sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId: r.toolCallId, status: r.status, content: r.content } });
    }
  }
  updates.push(...kept.slice(first));
  return { updates, ...(differs.length ? { note: `the agent's history differs from the transcript shown (${differs.slice(0, 3).join('; ')})` } : {}) };
}
