/**
 * Projects the thread model into the serializable view model of src/shared (pure; no vscode, no DOM).
 */
import type { ContentBlock } from '../acp/schema/types.gen';
import type { CompactionStatusView, CompactionView, ContentView, EntryView, ThreadSnapshot, ThreadStateView, ToolCallView, ToolContentView } from '../shared/viewModel';
import type { CompactionEntry } from './compaction';
import { configOptionsToView, modesToView } from './configToView';
import { parseContextHeader } from './contextHeader';
import { permissionSubject } from './permissionSubject';
import type { AcpThread, ThreadEntry } from './thread';
import type { ParkedPermission, ToolCallEntry } from './toolCall';

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
      case 'diff': return { type: 'diff', path: c.path, oldText: c.oldText ?? null, newText: c.newText };
      case 'terminal': return { type: 'terminal', terminalId: c.terminalId };
      default: return { type: 'content', content: contentToView(c.content) };
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
    ...(e.rawInput !== undefined ? { rawInput: safeJson(e.rawInput) } : {}),
    ...(e.permission ? { permission: permissionToView(e, e.permission) } : {}),
    ...(e.permissionOutcome ? { permissionOutcome: e.permissionOutcome } : {}),
    ...(e.elicitations?.length ? { elicitations: e.elicitations } : {}),
  };
}

/** A pending request as the dialog shows it, with what it is about. */
function permissionToView(e: ToolCallEntry, p: ParkedPermission): NonNullable<ToolCallView['permission']> {
  const subject = permissionSubject(e);
  return { requestId: p.requestId, options: p.options, ...(subject.length ? { subject } : {}) };
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

/** One entry as the chat renders it. */
export function entryToView(e: ThreadEntry): EntryView {
  switch (e.kind) {
    case 'user': {
      const context = e.content.length === 1 && e.content[0].type === 'text' ? parseContextHeader(e.content[0].text) : undefined;
      return { kind: 'user', id: e.id, content: e.content.map(contentToView), ...(context ? { context } : {}) };
    }
    case 'agent':
    case 'thought': return { kind: e.kind, id: e.id, text: e.text, blocks: e.blocks.map(contentToView) };
    case 'toolCall': return toolCallToView(e);
    case 'notice': return { kind: 'notice', id: e.id, level: e.level, text: e.text, ...(e.action ? { action: e.action } : {}), ...(e.marker ? { marker: e.marker } : {}) };
    case 'compaction': return compactionToView(e);
    case 'elicitation': return { kind: 'elicitation', id: e.id, elicitation: e.elicitation };
  }
}

/** The thread-level state. */
export function stateToView(t: AcpThread, agentName: string): ThreadStateView {
  return {
    sessionId: t.sessionId,
    title: t.title,
    agentName,
    status: t.status,
    following: t.following,
    ...(t.canFork ? { canFork: true } : {}),
    ...(t.roots.length ? { roots: t.roots } : {}),
    plan: t.plan.map((p) => ({ content: p.content, priority: p.priority, status: t.planCancelled && p.status !== 'completed' ? 'cancelled' : p.status })),
    commands: t.commands.map((c) => ({ name: c.name, description: c.description, ...(c.input && 'hint' in c.input && typeof c.input.hint === 'string' ? { hint: c.input.hint } : {}) })),
    ...(t.usage ? { usage: t.usage } : {}),
    ...(t.error ? { error: t.error, ...(t.errorAction ? { errorAction: t.errorAction } : {}) } : {}),
    ...(t.configOptions.length ? { configOptions: configOptionsToView(t.configOptions) } : {}),
    ...withModes(modesToView(t.configOptions, t.availableModes, t.currentModeId)),
    ...(t.notices.items.length ? { notices: t.notices.items } : {}),
  };
}

/** Everything the chat shows: state, entries (the newest `tail` of them) and the kept terminal output. */
export function threadSnapshot(t: AcpThread, agentName: string, seq: number, tail = Infinity): ThreadSnapshot {
  const firstIndex = Math.max(0, t.entries.length - tail);
  const entries = t.entries.slice(firstIndex).map(entryToView);
  return { seq, state: stateToView(t, agentName), entries, ...(firstIndex ? { firstIndex } : {}), terminals: t.terminals.views() };
}

function withModes(modes: ThreadStateView['modes']): { modes?: NonNullable<ThreadStateView['modes']> } {
  return modes ? { modes } : {};
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
