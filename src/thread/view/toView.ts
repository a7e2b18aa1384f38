/**
 * Projects the thread model into the serializable view model of src/shared (pure; no vscode, no DOM).
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import type { BackgroundWorkView, ChangesView, CompactionStatusView, CompactionView, ContentView, EntryView, SessionMessageView, SubagentView, ThreadSnapshot, ThreadStateView, ToolCallView, ToolContentView } from '../../shared/viewModel';
import type { CompactionEntry } from '../model/compaction';
import { planEntriesToView, planToView } from './planView';
import { isFinished, subagentStatus } from './subagentView';
import { configOptionsToView, modesToView } from './configToView';
import { parseContextHeader } from '../util/contextHeader';
import { permissionSubject } from './permissionSubject';
import { capJson, prettyJson, rawOutputToView } from './rawOutput';
import { previewToolText } from './toolTextPreview';
import { steeredLabels } from '../../shared/composerModel';

import { diffToView } from './diffHunks';
import { turnUsageToView } from './turnUsage';
import type { AcpThread } from '../model/thread';
import type { SessionMessageEntry, SubagentEntry, ThreadEntry } from '../model/threadEntries';
import { isUnfinished, type ParkedPermission, type ToolCallEntry } from '../model/toolCall';
import type { ChangesEntry } from '../model/turnChanges';

/** A content block as the chat renders it. Unknown block types become a labelled placeholder. */
export function contentToView(block: ContentBlock): ContentView {
  switch (block.type) {
    case 'text': return { type: 'text', text: block.text };
    case 'image': return { type: 'image', mimeType: block.mimeType, data: block.data };
    case 'resource_link': return { type: 'resource', uri: block.uri, name: block.title ?? block.name };
    case 'resource': {
      const r = block.resource as { uri: string; text?: string };
      return { type: 'resource', uri: r.uri, name: r.uri.split('/').pop() ?? r.uri, ...(typeof r.text === 'string' ? { text: r.text } : {}) };
    }
    case 'audio': return { type: 'other', label: `audio (${block.mimeType})` };
    default: return { type: 'other', label: 'unsupported content' };
  }
}

function toolCallToView(e: ToolCallEntry): EntryView {
  const content: ToolContentView[] = e.content.map((c): ToolContentView => {
    switch (c.type) {
      case 'diff': return diffToView(c);
      case 'terminal': return { type: 'terminal', terminalId: c.terminalId };
      default: {
        const preview = c.content.type === 'text' ? previewToolText(c.content.text) : undefined;
        return preview ? { type: 'content', content: { type: 'text', text: preview.head }, cut: preview.cut } : { type: 'content', content: contentToView(c.content) };
      }
    }
  });
  return {
    kind: 'toolCall',
    id: e.id,
    toolCallId: e.toolCallId,
    title: e.title,
    ...(e.toolName ? { toolName: e.toolName } : {}),
    toolKind: e.toolKind,
    status: e.status,
    content,
    locations: e.locations.map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) })),
    ...rawInputView(e.rawInput),
    ...rawOutputView(e.rawOutput, content.length > 0),
    ...(e.permission ? { permission: permissionToView(e, e.permission) } : {}),
    ...(e.permissionOutcome ? { permissionOutcome: e.permissionOutcome } : {}),
    ...(e.elicitations?.length ? { elicitations: e.elicitations } : {}),
    ...(e.cancellable && isUnfinished(e) ? { cancellable: true } : {}),
  };
}

/** A pending request as the dialog shows it, with what it is about. */
function permissionToView(e: ToolCallEntry, p: ParkedPermission): NonNullable<ToolCallView['permission']> {
  const subject = permissionSubject(e);
  return { requestId: p.requestId, options: p.options, ...(subject.length ? { subject } : {}), ...(p.fromClient ? { fromClient: true } : {}) };
}

const compactionStatuses: ReadonlySet<string> = new Set<CompactionStatusView>(['in_progress', 'completed', 'failed', 'cancelled']);

/** A compaction as the chat renders it: text blocks joined into the Markdown summary, other blocks as chips. */
function compactionToView(e: CompactionEntry): CompactionView {
  const text = e.summary.filter((b) => b.type === 'text').map((b) => b.text).join('');
  const status = compactionStatuses.has(e.status) ? e.status as CompactionStatusView : 'other';
  return {
    kind: 'compaction', id: e.id, compactionId: e.compactionId, status, summary: text,
    blocks: e.summary.filter((b) => b.type !== 'text').map(contentToView),
    ...(e.error ? { error: e.error } : {}),
  };
}

/** A subagent's card: its status from its state, and its own entries and plans as the chat renders them. */
function subagentToView(e: SubagentEntry, names: SessionNames): SubagentView {
  const { status, detail } = subagentStatus(e.state);
  const inner: SessionNames = { self: e.sessionId, name: names.name };
  return {
    kind: 'subagent', id: e.id, sessionId: e.sessionId, status, canCancel: e.cancel === true && !isFinished(status),
    ...(e.title ? { title: e.title } : {}), ...(e.description ? { description: e.description } : {}), ...(detail ? { detail } : {}),
    ...(e.cwd ? { cwd: e.cwd } : {}),
    entries: e.entries.map((x) => entryView(x, inner)),
    ...(e.plans?.length ? { plans: e.plans.map(planToView) } : {}),
  };
}

/** Who a session is, for the labels of messages between sessions: the transcript's own session, and names of the others. */
export interface SessionNames {
  /** The session whose transcript the entry is in. */
  readonly self?: string;
  /** A display name of another session (a subagent's title), if known. */
  readonly name?: (sessionId: string) => string | undefined;
}

/** A message between sessions: received or sent by the session whose transcript shows it, and the other one's name. */
function sessionMessageToView(e: SessionMessageEntry, names: SessionNames): SessionMessageView {
  const direction = e.recipient !== undefined && e.recipient === names.self ? 'in' : e.sender !== undefined && e.sender === names.self ? 'out' : 'unknown';
  const other = direction === 'in' ? e.sender : direction === 'out' ? e.recipient : e.sender ?? e.recipient;
  const peer = other === undefined ? undefined : names.name?.(other);
  return {
    kind: 'sessionMessage', id: e.id, direction, ...(peer ? { peer } : {}),
    text: e.content.filter((b) => b.type === 'text').map((b) => b.text).join(''),
    blocks: e.content.filter((b) => b.type !== 'text').map(contentToView),
  };
}

/** One entry as the chat renders it. */
export function entryToView(e: ThreadEntry): EntryView {
  return entryView(e, {});
}

/**
 * One entry as the chat renders it, with `names`: who the sessions are, for the messages between them; marked when
 * it came after a restored checkpoint.
 */
export function entryView(e: ThreadEntry, names: SessionNames): EntryView {
  const view = viewOf(e, names);
  return e.afterRestore ? { ...view, afterRestore: true } : view;
}

function viewOf(e: ThreadEntry, names: SessionNames): EntryView {
  switch (e.kind) {
    case 'user': {
      // the context block of a continuation is the first block (Edit & Resend of an earlier message adds the edited text after it)
      const context = e.content[0]?.type === 'text' ? parseContextHeader(e.content[0].text) : undefined;
      return { kind: 'user', id: e.id, content: e.content.map(contentToView), ...(context ? { context } : {}), ...(e.checkpointId ? { checkpoint: true } : {}), ...(e.steered && Object.hasOwn(steeredLabels, e.steered) ? { steered: e.steered } : {}) };
    }
    case 'agent':
    case 'thought': return { kind: e.kind, id: e.id, text: e.text, blocks: e.blocks.map(contentToView) };
    case 'toolCall': return toolCallToView(e);
    case 'notice': return { kind: 'notice', id: e.id, level: e.level, text: e.text, ...(e.action ? { action: e.action } : {}), ...(e.marker ? { marker: e.marker } : {}) };
    case 'compaction': return compactionToView(e);
    case 'elicitation': return { kind: 'elicitation', id: e.id, elicitation: e.elicitation };
    case 'changes': return changesToView(e);
    case 'subagent': return subagentToView(e, names);
    case 'sessionMessage': return sessionMessageToView(e, names);
  }
}

/**
 * The entry at `path` inside the subagent card at `index` (a nested card, then its entry …) as the chat renders it,
 * or undefined when there is none.
 */
export function nestedEntryView(t: AcpThread, index: number, path: readonly number[]): EntryView | undefined {
  let e: ThreadEntry | undefined = t.entries[index];
  let self = t.sessionId;
  for (const i of path) {
    if (e?.kind !== 'subagent') return undefined;
    self = e.sessionId;
    e = e.entries[i];
  }
  return e && entryView(e, { ...sessionNames(t), self });
}

/** Who the sessions of a thread are: the thread's own session, and the titles of its subagents. */
export function sessionNames(t: AcpThread): SessionNames {
  const name = (id: string): string | undefined => {
    if (id === t.sessionId) return 'the main agent';
    const card = t.subagent(id);
    return card ? card.title ?? 'a subagent' : undefined;
  };
  return { self: t.sessionId, name };
}

/** A changes entry as the chat renders it: each file's name and folder from its path relative to its root. */
function changesToView(e: ChangesEntry): ChangesView {
  const files = e.files.map((f) => {
    const cut = f.rel.lastIndexOf('/');
    return { path: f.path, name: f.rel.slice(cut + 1), folder: cut === -1 ? '' : f.rel.slice(0, cut), change: f.change, ...(f.added !== undefined ? { added: f.added, removed: f.removed ?? 0 } : {}) };
  });
  return {
    kind: 'changes', id: e.id, role: e.role, files,
    ...(e.label ? { label: e.label } : {}), ...(e.leftAlone ? { leftAlone: e.leftAlone } : {}), ...(e.undone ? { undone: true } : {}),
  };
}

/** What the chat's header shows that the host keeps, not the thread: the agent's name, Follow Agent, whether Fork is offered. */
export interface HeaderFacts {
  readonly agentName: string;
  readonly following: boolean;
  readonly canFork: boolean;
  /** The session's approval level, as the header shows it (absent in tests that do not have one). */
  readonly approvals?: ThreadStateView['approvals'];
  /** The MCP servers the session got, for the header's tooltip. */
  readonly mcp?: string;
}

/** The thread-level state, with the host's {@link HeaderFacts}. */
export function stateToView(t: AcpThread, host: HeaderFacts): ThreadStateView {
  return {
    sessionId: t.sessionId,
    title: t.title,
    untitledTitle: t.titles.untitled,
    agentName: host.agentName,
    status: t.status,
    following: host.following,
    ...(host.canFork ? { canFork: true } : {}),
    ...(host.approvals ? { approvals: host.approvals } : {}),
    ...(host.mcp ? { mcp: host.mcp } : {}),
    ...(t.roots.length ? { roots: t.roots } : {}),
    plan: planEntriesToView(t.plan, t.planCancelled),
    ...(t.plans.length ? { plans: t.plans.map(planToView) } : {}),
    commands: t.commands.map((c) => ({ name: c.name, description: c.description, ...(c.input && 'hint' in c.input && typeof c.input.hint === 'string' ? { hint: c.input.hint } : {}) })),
    ...(t.usage ? { usage: t.usage } : {}),
    ...(t.turnUsage ? { turnUsage: turnUsageToView(t.turnUsage) } : {}),
    ...(t.agentInfo ? { agentInfo: { name: t.agentInfo.name, ...(t.agentInfo.title ? { title: t.agentInfo.title } : {}), version: t.agentInfo.version } } : {}),
    ...(t.error ? { error: t.error, ...(t.errorAction ? { errorAction: t.errorAction } : {}) } : {}),
    ...(t.configOptions.length ? { configOptions: configOptionsToView(t.configOptions) } : {}),
    ...withModes(modesToView(t.configOptions, t.availableModes, t.currentModeId)),
    ...(t.notices.items.length ? { notices: t.notices.items } : {}),
    ...(t.work.background.length ? { background: backgroundToView(t) } : {}),
  };
}

/** Everything the chat shows: state, entries (the newest `tail` of them) and the kept terminal output. */
export function threadSnapshot(t: AcpThread, host: HeaderFacts, seq: number, tail = Infinity): ThreadSnapshot {
  const firstIndex = Math.max(0, t.entries.length - tail);
  const names = sessionNames(t);
  const entries = t.entries.slice(firstIndex).map((e) => entryView(e, names));
  return { seq, state: stateToView(t, host), entries, ...(firstIndex ? { firstIndex } : {}), terminals: t.terminals.views() };
}

function withModes(modes: ThreadStateView['modes']): { modes?: NonNullable<ThreadStateView['modes']> } {
  return modes ? { modes } : {};
}

/** The raw input as the card's JSON block shows it, capped (docs/chat.md "Raw output of a tool call"). */
function rawInputView(raw: unknown): Pick<ToolCallView, 'rawInput' | 'rawInputDroppedChars'> {
  if (raw === undefined) return {};
  const { json, jsonDroppedChars } = capJson(prettyJson(raw));
  return { rawInput: json, ...(jsonDroppedChars ? { rawInputDroppedChars: jsonDroppedChars } : {}) };
}

function rawOutputView(raw: unknown, hasContent: boolean): Pick<ToolCallView, 'rawOutput'> {
  const view = rawOutputToView(raw, hasContent);
  return view ? { rawOutput: view } : {};
}

/** The background work an ACP v2 agent listed, named by the terminals and tool calls the thread has. */
function backgroundToView(t: AcpThread): BackgroundWorkView[] {
  return t.work.background.map((item): BackgroundWorkView => {
    if (item.type === 'terminal') {
      const view = t.terminals.view(item.id);
      return { kind: 'terminal', id: item.id, title: view?.command || `terminal ${item.id}`, cancellable: !!view?.cancellable };
    }
    if (item.type === 'tool_call') {
      const call = t.toolCall(item.id);
      return { kind: 'toolCall', id: item.id, title: call?.title || `tool call ${item.id}`, cancellable: !!call?.cancellable && isUnfinished(call) };
    }
    return { kind: 'other', id: item.id, title: item.id ? `${item.type} ${item.id}` : item.type, cancellable: false };
  });
}
