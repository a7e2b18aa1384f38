/** Tool-call cards: kind icon, title, status, content (text, diff, terminal), locations, permission dialog. */
import { RespondPermissionCommand } from '../../src/shared/chatProtocol';
import type { ToolCallView } from '../../src/shared/viewModel';
import { h } from './dom';
import { contentNode } from './messages';
import type { RenderContext } from './renderContext';
import { terminalNode } from './terminal';

const kindIcons: Record<string, string> = {
  read: '📄', edit: '✏️', delete: '🗑', move: '↔', search: '🔍', execute: '▶', think: '💭', fetch: '🌐', switch_mode: '⇄', other: '⚙',
};
const statusText: Record<string, string> = {
  pending: 'pending', in_progress: 'running', completed: '✓ done', failed: '✗ failed', cancelled: 'cancelled', waitingForConfirmation: 'needs your permission',
};

function permissionDialog(e: ToolCallView, ctx: RenderContext): HTMLElement | undefined {
  const p = e.permission;
  if (!p) return e.permissionOutcome ? h('div', { class: 'permission-outcome' }, e.permissionOutcome) : undefined;
  return h('div', { class: 'permission', role: 'alertdialog', 'aria-label': `Permission requested: ${e.title}`, 'data-testid': 'permission' },
    h('div', { class: 'permission-title' }, 'The agent asks for permission'),
    h('div', { class: 'permission-options' }, ...p.options.map((o) => {
      const b = h('button', { class: `perm ${o.kind}`, 'data-testid': 'permission-option', 'data-kind': o.kind }, o.name);
      b.addEventListener('click', () => ctx.ipc.post(RespondPermissionCommand, { requestId: p.requestId, optionId: o.optionId }));
      return b;
    })));
}

/** The card of one tool call. */
export function toolCallNode(e: ToolCallView, ctx: RenderContext): HTMLElement {
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
    } else card.append(terminalNode(c.terminalId, ctx.terminals(c.terminalId)));
  }
  if (e.locations.length) card.append(h('div', { class: 'locations' }, ...e.locations.map((l) => h('span', { class: 'chip' }, `${l.path}${l.line ? `:${l.line}` : ''}`))));
  const dialog = permissionDialog(e, ctx);
  if (dialog) card.append(dialog);
  return card;
}
