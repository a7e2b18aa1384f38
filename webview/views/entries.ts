/**
 * Renders transcript entries. Text is streamed by appending text nodes (no re-render of a growing message).
 */
import type { AgentTextView, ContentView, EntryView, TerminalView, ToolCallView } from '../../src/shared/viewModel';
import { h } from './dom';
import { terminalNode } from './terminal';

const kindIcons: Record<string, string> = {
  read: '📄', edit: '✏️', delete: '🗑', move: '↔', search: '🔍', execute: '▶', think: '💭', fetch: '🌐', switch_mode: '⇄', other: '⚙',
};
const statusText: Record<string, string> = {
  pending: 'pending', in_progress: 'running', completed: '✓ done', failed: '✗ failed', cancelled: 'cancelled', waitingForConfirmation: 'needs your permission',
};

/** Handlers the rendered entries call back into. */
export interface EntryActions {
  respondPermission(requestId: string, optionId: string): void;
}

/** Finds the output of an agent terminal embedded in a tool call. */
export type TerminalLookup = (terminalId: string) => TerminalView | undefined;

function contentNode(c: ContentView): Node {
  switch (c.type) {
    case 'text': return h('div', { class: 'text' }, c.text);
    case 'image': return h('div', { class: 'chip' }, `image (${c.mimeType})`);
    case 'resource': return h('div', { class: 'chip', title: c.uri }, `📎 ${c.name}`);
    case 'other': return h('div', { class: 'chip' }, c.label);
  }
}

function textEntry(e: AgentTextView): HTMLElement {
  const body = h('div', { class: 'text', 'data-role': 'text' }, e.text);
  if (e.kind === 'thought') {
    return h('details', { class: 'entry thought', 'data-testid': 'thought' }, h('summary', {}, 'Thinking'), body, ...e.blocks.map(contentNode));
  }
  return h('div', { class: 'entry agent', 'data-testid': 'agent-message' }, body, ...e.blocks.map(contentNode));
}

function toolCallEntry(e: ToolCallView, actions: EntryActions, terminals: TerminalLookup): HTMLElement {
  const card = h('div', { class: `entry tool status-${e.status}`, 'data-testid': 'tool-call', 'data-status': e.status },
    h('div', { class: 'tool-head' },
      h('span', { class: 'tool-icon', 'aria-hidden': 'true' }, kindIcons[e.toolKind] ?? kindIcons.other),
      h('span', { class: 'tool-title' }, e.title),
      h('span', { class: 'tool-status' }, statusText[e.status] ?? e.status)),
  );
  for (const c of e.content) {
    if (c.type === 'content') card.append(contentNode(c.content));
    else if (c.type === 'diff') {
      card.append(h('div', { class: 'diff', 'data-testid': 'diff' },
        h('div', { class: 'diff-path' }, c.oldText === null ? `new file ${c.path}` : c.path),
        h('pre', { class: 'diff-new' }, c.newText)));
    } else card.append(terminalNode(c.terminalId, terminals(c.terminalId)));
  }
  if (e.locations.length) card.append(h('div', { class: 'locations' }, ...e.locations.map((l) => h('span', { class: 'chip' }, `${l.path}${l.line ? `:${l.line}` : ''}`))));
  if (e.permission) {
    const p = e.permission;
    const dialog = h('div', { class: 'permission', role: 'alertdialog', 'aria-label': `Permission requested: ${e.title}`, 'data-testid': 'permission' },
      h('div', { class: 'permission-title' }, 'The agent asks for permission'),
      h('div', { class: 'permission-options' }, ...p.options.map((o) => {
        const b = h('button', { class: `perm ${o.kind}`, 'data-testid': 'permission-option', 'data-kind': o.kind }, o.name);
        b.addEventListener('click', () => actions.respondPermission(p.requestId, o.optionId));
        return b;
      })));
    card.append(dialog);
  } else if (e.permissionOutcome) card.append(h('div', { class: 'permission-outcome' }, e.permissionOutcome));
  return card;
}

/** The DOM node of one entry. */
export function renderEntry(e: EntryView, actions: EntryActions, terminals: TerminalLookup = () => undefined): HTMLElement {
  switch (e.kind) {
    case 'user': return h('div', { class: 'entry user', 'data-testid': 'user-message' }, ...e.content.map(contentNode));
    case 'agent':
    case 'thought': return textEntry(e);
    case 'toolCall': return toolCallEntry(e, actions, terminals);
    case 'notice': return h('div', { class: `entry notice ${e.level}`, role: e.level === 'error' ? 'alert' : undefined, 'data-testid': 'notice' }, e.text);
  }
}

/** Appends streamed text to a rendered agent message or thought. */
export function appendText(node: HTMLElement, text: string): void {
  node.querySelector('[data-role="text"]')?.append(document.createTextNode(text));
}
