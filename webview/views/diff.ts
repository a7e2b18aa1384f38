/**
 * A diff of a tool call as an inline unified diff: a header (file name, folder, +added −removed, Open Diff)
 * and a table of hunks with old and new line numbers. Open Diff asks the host to show VS Code's diff
 * editor; the host takes the texts from its own thread, the webview only names the tool call and index.
 */
import type { ToolContentView } from '../../src/shared/viewModel';
import { button } from '../components/button';
import { inlineDiff } from '../lib/diffLines';
import type { DiffRow } from '../lib/diffLines';
import { h } from './dom';
import type { RenderContext } from './renderContext';

type DiffView = Extract<ToolContentView, { type: 'diff' }>;

function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

function rowNode(r: DiffRow): HTMLTableRowElement {
  if (r.kind === 'hunk') return h('tr', { class: 'diff-hunk' }, h('td', { class: 'diff-ln', colspan: '2' }), h('td', { class: 'diff-code', colspan: '2' }, r.text));
  const oldLine = r.kind === 'added' ? '' : String(r.oldLine);
  const newLine = r.kind === 'removed' ? '' : String(r.newLine);
  const sign = r.kind === 'added' ? '+' : r.kind === 'removed' ? '−' : ' ';
  return h('tr', { class: `diff-line ${r.kind}` },
    h('td', { class: 'diff-ln old' }, oldLine),
    h('td', { class: 'diff-ln new' }, newLine),
    h('td', { class: 'diff-sign', 'aria-label': r.kind === 'context' ? undefined : r.kind }, sign),
    h('td', { class: 'diff-code' }, r.text));
}

/** The inline diff of the content item at `index` of tool call `toolCallId`. */
export function diffNode(c: DiffView, toolCallId: string, index: number, ctx: RenderContext): HTMLElement {
  const d = inlineDiff(c.oldText, c.newText);
  const isNew = c.oldText === null;
  const name = baseName(c.path);
  const folder = c.path.slice(0, Math.max(0, c.path.length - name.length)).replace(/[\\/]$/, '');
  const head = h('div', { class: 'diff-head' },
    h('span', { class: `codicon codicon-${isNew ? 'new-file' : 'diff-single'}`, 'aria-hidden': 'true' }),
    h('span', { class: 'diff-name', title: c.path }, name),
    folder ? h('span', { class: 'diff-folder', title: c.path }, folder) : undefined,
    isNew ? h('span', { class: 'diff-badge' }, 'new file') : undefined,
    h('span', { class: 'diff-stat', 'aria-label': `${d.added} lines added, ${d.removed} removed` },
      h('span', { class: 'diff-stat-added' }, `+${d.added}`), ' ', h('span', { class: 'diff-stat-removed' }, `−${d.removed}`)),
    button({
      label: 'Open Diff', icon: 'diff', testId: 'open-diff', className: 'diff-open', title: `Open the changes of ${name} in the diff editor`,
      onClick: () => ctx.actions.openDiff(toolCallId, index),
    }));
  const node = h('div', { class: 'diff', 'data-testid': 'diff', 'data-path': c.path }, head);
  if (d.tooLarge) {
    node.append(h('div', { class: 'diff-note' }, 'This change is too large to show here. Use Open Diff.'));
  } else if (!d.rows.length) {
    node.append(h('div', { class: 'diff-note' }, 'No changes.'));
  } else {
    const table = h('table', { class: 'diff-table', 'data-testid': 'diff-table', 'aria-label': `Changes to ${name}` }, h('tbody', {}, ...d.rows.map(rowNode)));
    node.append(h('div', { class: 'diff-body', tabindex: '0', role: 'region', 'aria-label': `Diff of ${name}` }, table));
    if (d.omittedRows) node.append(h('div', { class: 'diff-note' }, `${d.omittedRows} more lines not shown. Use Open Diff.`));
  }
  return node;
}
