/**
 * Subagents (`subagent_update`, https://agentclientprotocol.com/protocol/v1/draft/subagents): an agent that the client
 * advertised `subagents: {}` to may expose a subagent as a child session with its own id. The first
 * `subagent_update` for an id announces it (a card at that place of the parent's transcript); later ones patch it:
 * an omitted field is unchanged, `null` clears it, a value replaces it (a `state` replaces the whole state). The
 * child's own `session/update`s (messages, thoughts, tool calls, plans) go into the card (src/thread/model/entryStream.ts).
 * Pure: no vscode, no node.
 */
import type { SubagentUpdate } from '../../acp/schema/types.gen';
import { storedPlans } from './plans';
import type { SubagentEntry, SubagentState, ThreadEntry } from './threadEntries';

/** A new card for the child `sessionId`, before its first update is applied. */
export function newSubagent(id: string, sessionId: string): SubagentEntry {
  return { kind: 'subagent', id, sessionId, entries: [] };
}

/** Applies a `subagent_update` (patch semantics, see the module header). */
export function applySubagentUpdate(e: SubagentEntry, u: SubagentUpdate): void {
  patch(e, 'title', u.title);
  patch(e, 'description', u.description);
  patch(e, 'cwd', u.cwd);
  if (u.additionalDirectories === null) delete e.additionalDirectories;
  else if (u.additionalDirectories !== undefined) e.additionalDirectories = [...u.additionalDirectories];
  // a concrete capability set replaces the whole set; null (or never sent) permits no mutation
  if (u.capabilities !== undefined) e.cancel = u.capabilities?.cancel !== undefined && u.capabilities?.cancel !== null;
  if (u.state === null) delete e.state;
  else if (u.state !== undefined) e.state = stateOf(u.state);
}

function patch(e: SubagentEntry, key: 'title' | 'description' | 'cwd', value: string | null | undefined): void {
  if (value === null) delete e[key];
  else if (value !== undefined) e[key] = value;
}

/** A `state` snapshot as plain fields: its kind, and for `idle` why the work stopped and the error's message. */
function stateOf(u: NonNullable<SubagentUpdate['state']>): SubagentState {
  const s = u as { state: string; stopReason?: unknown; error?: unknown };
  const stopReason = s.state === 'idle' && typeof s.stopReason === 'string' ? s.stopReason : undefined;
  const message = stopReason === 'error' ? (s.error as { message?: unknown } | null | undefined)?.message : undefined;
  return { state: s.state, ...(stopReason ? { stopReason } : {}), ...(typeof message === 'string' && message ? { error: message } : {}) };
}

/**
 * A card read back from the transcript store, if the record has the shape of one (else it is dropped); its own
 * entries are checked (and unknown ones dropped) by `keepEntry`.
 */
export function storedSubagent(v: unknown, keepEntry: (e: unknown) => ThreadEntry | undefined): SubagentEntry | undefined {
  const e = v as Partial<SubagentEntry> | null;
  if (!e || e.kind !== 'subagent' || typeof e.id !== 'string' || typeof e.sessionId !== 'string' || !Array.isArray(e.entries)) return undefined;
  const text = (x: unknown): x is string | undefined => x === undefined || typeof x === 'string';
  if (!text(e.title) || !text(e.description) || !text(e.cwd)) return undefined;
  const { state: rawState, plans: rawPlans, entries: rawEntries, ...rest } = e;
  const state = typeof rawState === 'object' && rawState !== null && typeof rawState.state === 'string' ? rawState : undefined;
  const plans = storedPlans(rawPlans);
  const entries = rawEntries.map(keepEntry).filter((x): x is ThreadEntry => x !== undefined);
  return { ...rest, kind: 'subagent', id: e.id, sessionId: e.sessionId, entries, ...(state ? { state } : {}), ...(plans.length ? { plans } : {}) };
}

/**
 * A card that was still working when the transcript was written: after a reload nothing tells whether it finished,
 * so it shows as cancelled (an update from the agent for it patches it again).
 */
export function settleSubagent(e: SubagentEntry, settleEntry: (e: ThreadEntry) => ThreadEntry): SubagentEntry {
  const working = e.state?.state === 'running' || e.state?.state === 'requires_action';
  return { ...e, entries: e.entries.map(settleEntry), ...(working ? { state: { state: 'idle', stopReason: 'cancelled' } } : {}) };
}

/**
 * Of `sessions` (each with its thread), the one with the id `sessionId`, or else the one in which a subagent with
 * that id was announced: a child's messages carry its own id and belong to its parent's chat
 * (https://agentclientprotocol.com/protocol/v1/draft/subagents; an announcement always comes first).
 */
export function owningSession<S extends { readonly sessionId: string; readonly thread: { subagent(id: string): unknown } }>(sessions: Iterable<S>, sessionId: string): S | undefined {
  let owner: S | undefined;
  for (const s of sessions) {
    if (s.sessionId === sessionId) return s;
    owner ??= s.thread.subagent(sessionId) !== undefined ? s : undefined;
  }
  return owner;
}
