/**
 * One declaration per `session/update` kind (https://agentclientprotocol.com/protocol/schema#sessionupdate): how it
 * changes the thread, how it is kept (saved by the transcript log and replayed after a reload, and exported to
 * Markdown, through the entries it builds, or as a state record, or not at all), whether it belongs to a prompt
 * turn, and the client capability it needs. The table is keyed by the generated schema's union, so a kind the
 * schema gains and the table lacks does not compile; the recipe is docs/recipes.md. Pure: no vscode, no node.
 */
import type { AvailableCommand, ClientCapabilities, Notice, PlanEntry, SessionConfigOption, SessionUpdate, SubagentUpdate } from '../../acp/schema/types.gen';
import { appendCompactionChunk, applyCompactionUpdate, newCompaction } from './compaction';
import type { EntryStream } from './entryStream';
import { planFromUpdate, withoutPlan, withPlan, type PlanState } from './plans';
import { appendSessionMessageChunk, applySessionMessage, newSessionMessage } from './sessionMessages';
import type { ThreadEntry } from './threadEntries';

/** A `sessionUpdate` kind, as the generated schema lists them. */
export type SessionUpdateKind = SessionUpdate['sessionUpdate'];
/** The update of one kind. */
export type UpdateOf<K extends SessionUpdateKind> = Extract<SessionUpdate, { readonly sessionUpdate: K }>;

/** The plans of the session an update is for: the thread's, or those shown in a subagent's card. */
export interface PlanTarget {
  /** The legacy `plan` replaces the whole plan (a subagent's is kept as its plan with the id ''). */
  setLegacy(entries: PlanEntry[]): void;
  /** Changes the plans by id; false when `change` returned them as they were. */
  change(change: (plans: PlanState[]) => PlanState[]): boolean;
}

/** The session's own state that updates change (AcpThread's fields; a subagent's are not shown). */
export interface SessionTarget {
  setCommands(commands: AvailableCommand[]): void;
  setCurrentMode(modeId: string | undefined): void;
  setConfigOptions(options: SessionConfigOption[]): void;
  /** The agent's title (`null` clears it, absent leaves it); a `title` change fires either way. */
  setAgentTitle(title: string | null | undefined): void;
  setUsage(usage: Pick<UpdateOf<'usage_update'>, 'used' | 'size' | 'cost'>): void;
  addNotice(notice: Notice): void;
}

/** Where an update lands: the things of the session (or subagent) it is for. */
export interface UpdateTarget {
  /** Its entries: the session's own transcript, or a subagent's card. */
  readonly stream: EntryStream;
  readonly plans: PlanTarget;
  /** The session's own state; undefined for a subagent. */
  readonly session: SessionTarget | undefined;
  /** A `subagent_update` announced in (or patching a card of) this stream. */
  subagent(update: SubagentUpdate): void;
  log(message: string): void;
}

/**
 * How an update is kept. `entries`: the entries it builds (of `kinds`), written whole by the transcript log and
 * replayed and exported to Markdown by their kind (src/thread/model/entryKinds.ts, src/thread/export/toMarkdown.ts).
 * `state`: a state record of the transcript log (src/host/history/transcriptLog.ts), not exported. `live`: shown,
 * never stored nor exported (`why`); `inLoad: false` when the replay of `session/load` drops it too.
 */
export type Kept =
  | { readonly as: 'entries'; readonly kinds: readonly ThreadEntry['kind'][] }
  | { readonly as: 'state'; readonly record: 'title' | 'plan' | 'plans' }
  | { readonly as: 'live'; readonly why: string; readonly inLoad?: false };

type SessionCapabilities = NonNullable<ClientCapabilities['session']>;
/** A client capability an update needs (https://agentclientprotocol.com/protocol/schema#clientcapabilities). */
export type CapabilityGate = Exclude<keyof ClientCapabilities & string, '_meta' | 'session'> | `session.${Exclude<keyof SessionCapabilities & string, '_meta'>}`;

/** Everything about one kind. */
export interface UpdateHandling<U extends SessionUpdate> {
  /** How it changes the thread; false when it does not apply where it landed (a subagent's session state), which is logged. */
  readonly apply: (target: UpdateTarget, update: U) => boolean;
  readonly kept: Kept;
  /** Part of a prompt turn: dropped from an abandoned turn until the next prompt (src/host/prompts/turnEnd.ts). */
  readonly turn: boolean;
  /** The capability the client must advertise before the agent may send it (shown anyway when it did not, and logged). */
  readonly capability?: CapabilityGate;
}

/** The table's type: one entry per kind of the schema, no other. */
export type UpdateTable = { readonly [K in SessionUpdateKind]: UpdateHandling<UpdateOf<K>> };

/** Applies `change` to the session's own state; false for a subagent (its session state is not shown). */
function sessionOnly<U extends SessionUpdate>(change: (s: SessionTarget, u: U) => void): (t: UpdateTarget, u: U) => boolean {
  return (t, u) => {
    if (!t.session) return false;
    change(t.session, u);
    return true;
  };
}

const reopenedAgain = 'the agent sends it again when the session is reopened';

/** The table (docs/recipes.md "Add a session/update kind"). */
export const updateKinds: UpdateTable = {
  user_message_chunk: { apply: (t, u) => (t.stream.appendUserChunk(u.content), true), kept: { as: 'entries', kinds: ['user'] }, turn: false },
  agent_message_chunk: { apply: (t, u) => (t.stream.appendChunk('agent', u.content, u.messageId ?? undefined), true), kept: { as: 'entries', kinds: ['agent'] }, turn: true },
  agent_thought_chunk: { apply: (t, u) => (t.stream.appendChunk('thought', u.content, u.messageId ?? undefined), true), kept: { as: 'entries', kinds: ['thought'] }, turn: true },
  tool_call: { apply: (t, u) => (t.stream.upsertToolCall(u), true), kept: { as: 'entries', kinds: ['toolCall'] }, turn: true },
  tool_call_update: { apply: (t, u) => (t.stream.upsertToolCall(u), true), kept: { as: 'entries', kinds: ['toolCall'] }, turn: true },
  plan: { apply: (t, u) => (t.plans.setLegacy(u.entries), true), kept: { as: 'state', record: 'plan' }, turn: true },
  plan_update: {
    apply: (t, u) => {
      const plan = planFromUpdate(u.plan);
      if (!plan) t.log(`ignored a plan_update of the unknown type '${u.plan.type}'`);
      else t.plans.change((plans) => withPlan(plans, plan));
      return true;
    },
    kept: { as: 'state', record: 'plans' }, turn: true, capability: 'plan',
  },
  plan_removed: {
    apply: (t, u) => {
      if (!t.plans.change((plans) => withoutPlan(plans, u.planId))) t.log(`plan_removed for the unknown plan '${u.planId}'`);
      return true;
    },
    kept: { as: 'state', record: 'plans' }, turn: true, capability: 'plan',
  },
  available_commands_update: { apply: sessionOnly((s, u) => s.setCommands(u.availableCommands)), kept: { as: 'live', why: reopenedAgain }, turn: false },
  current_mode_update: {
    // the example of https://agentclientprotocol.com/protocol/session-modes sends `modeId`, the schema `currentModeId`
    apply: sessionOnly((s, u) => s.setCurrentMode(u.currentModeId ?? ('modeId' in u && typeof u.modeId === 'string' ? u.modeId : undefined))),
    kept: { as: 'live', why: reopenedAgain }, turn: false,
  },
  config_option_update: { apply: sessionOnly((s, u) => s.setConfigOptions(u.configOptions)), kept: { as: 'live', why: reopenedAgain }, turn: false },
  session_info_update: { apply: sessionOnly((s, u) => s.setAgentTitle(u.title)), kept: { as: 'state', record: 'title' }, turn: false },
  usage_update: { apply: sessionOnly((s, u) => s.setUsage(u)), kept: { as: 'live', why: 'the context window in use now, sent again as it changes' }, turn: false },
  notice: {
    apply: sessionOnly((s, u) => s.addNotice(u)),
    // https://agentclientprotocol.com/rfds/session-notices: fire-and-forget, not session history
    kept: { as: 'live', why: 'a notice is not history', inLoad: false }, turn: false, capability: 'session.notices',
  },
  compaction_update: {
    apply: (t, u) => (t.stream.upsert('compaction', u.compactionId, (id) => newCompaction(id, u.compactionId), (e) => applyCompactionUpdate(e, u)), true),
    kept: { as: 'entries', kinds: ['compaction'] }, turn: false, capability: 'session.compaction',
  },
  compaction_summary_chunk: {
    apply: (t, u) => (t.stream.upsert('compaction', u.compactionId, (id) => newCompaction(id, u.compactionId), (e) => appendCompactionChunk(e, u)), true),
    kept: { as: 'entries', kinds: ['compaction'] }, turn: false, capability: 'session.compaction',
  },
  subagent_update: { apply: (t, u) => (t.subagent(u), true), kept: { as: 'entries', kinds: ['subagent'] }, turn: false, capability: 'subagents' },
  session_message: {
    apply: (t, u) => (t.stream.upsert('sessionMessage', u.messageId, (id) => newSessionMessage(id, u.messageId), (e) => applySessionMessage(e, u)), true),
    kept: { as: 'entries', kinds: ['sessionMessage'] }, turn: false, capability: 'subagents',
  },
  session_message_chunk: {
    apply: (t, u) => (t.stream.upsert('sessionMessage', u.messageId, (id) => newSessionMessage(id, u.messageId), (e) => appendSessionMessageChunk(e, u)), true),
    kept: { as: 'entries', kinds: ['sessionMessage'] }, turn: false, capability: 'subagents',
  },
};

/**
 * Applies an update through its kind's entry of the table; false when it does not apply where it landed, or when its
 * kind is not in the table (validation lets none through; a caller that skipped it is told).
 */
export function applyUpdate(target: UpdateTarget, update: SessionUpdate): boolean {
  return Object.hasOwn(updateKinds, update.sessionUpdate) && applyKind(update.sessionUpdate, update, target);
}

function applyKind<K extends SessionUpdateKind>(kind: K, update: UpdateOf<K>, target: UpdateTarget): boolean {
  return updateKinds[kind].apply(target, update);
}

/** Whether updates of this kind belong to a prompt turn (see {@link UpdateHandling.turn}). */
export function isTurnContent(kind: SessionUpdateKind): boolean {
  return updateKinds[kind].turn;
}

/** Whether the replay of `session/load` drops updates of this kind (see {@link Kept}). */
export function droppedInLoad(kind: SessionUpdateKind): boolean {
  const kept = updateKinds[kind].kept;
  return kept.as === 'live' && kept.inLoad === false;
}

/**
 * The capability (`session.notices`, `session.compaction`, `plan`, `subagents`) the update needs that
 * `capabilities` does not advertise, or undefined when it needs none or it is advertised. The client is lenient:
 * such an update is still shown, and the agent's breach is logged.
 */
export function unadvertisedCapability(update: Pick<SessionUpdate, 'sessionUpdate'>, capabilities: ClientCapabilities): string | undefined {
  const gate = updateKinds[update.sessionUpdate].capability;
  if (!gate) return undefined;
  const [holder, key] = gate.startsWith('session.') ? [capabilities.session, gate.slice('session.'.length)] : [capabilities, gate];
  const value = holder ? Object.entries(holder).find(([k]) => k === key)?.[1] : undefined;
  return value !== undefined && value !== null ? undefined : gate;
}
