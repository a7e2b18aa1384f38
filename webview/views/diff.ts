/**
 * A diff of a tool call as an inline unified diff: a header (file name, folder, +added −removed, Open Diff)
 * and a table of hunks with old and new line numbers. Open Diff asks the host to show VS Code's diff
 * editor; the host takes the texts from its own thread, the webview only names the tool call and index.
 */
import type { ToolContentView } from '../../src/shared/viewModel';
import { button } from '../components/button';
import { editRows } from '../lib/diffLines';
import type { DiffRow, InlineDiff } from '../lib/diffLines';
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

/** How a file changed, for the diff's header: its icon and badge. */
export type DiffChange = 'added' | 'deleted' | 'modified';

const changeLooks: Record<DiffChange, { icon: string; badge?: string }> = {
  added: { icon: 'new-file', badge: 'new file' }, deleted: { icon: 'trash', badge: 'deleted' }, modified: { icon: 'diff-single' },
};

/**
 * An inline diff: a header (file name, folder, +added −removed, then `extra`, e.g. Open Diff) and the rows.
 * `note` says what was left out beyond the rows (a cap).
 */
export function diffFrame(path: string, change: DiffChange, d: InlineDiff, extra: readonly (Node | undefined)[] = [], note?: string): HTMLElement {
  const name = baseName(path);
  const folder = path.slice(0, Math.max(0, path.length - name.length)).replace(/[\\/]$/, '');
  const look = changeLooks[change];
  const head = h('div', { class: 'diff-head' },
    h('span', { class: `codicon codicon-${look.icon}`, 'aria-hidden': 'true' }),
    h('span', { class: 'diff-name', title: path }, name),
    folder ? h('span', { class: 'diff-folder', title: path }, folder) : undefined,
    look.badge ? h('span', { class: 'diff-badge' }, look.badge) : undefined,
    h('span', { class: 'diff-stat', 'aria-label': `${d.added} lines added, ${d.removed} removed` },
      h('span', { class: 'diff-stat-added' }, `+${d.added}`), ' ', h('span', { class: 'diff-stat-removed' }, `−${d.removed}`)),
    ...extra);
  const node = h('div', { class: 'diff', 'data-testid': 'diff', 'data-path': path }, head);
  if (d.tooLarge) {
    node.append(h('div', { class: 'diff-note' }, 'This change is too large to show here. Use Open Diff.'));
  } else if (!d.rows.length) {
    node.append(h('div', { class: 'diff-note' }, 'No changes.'));
  } else {
    const table = h('table', { class: 'diff-table', 'data-testid': 'diff-table', 'aria-label': `Changes to ${name}` }, h('tbody', {}, ...d.rows.map(rowNode)));
    node.append(h('div', { class: 'diff-body', tabindex: '0', role: 'region', 'aria-label': `Diff of ${name}` }, table));
  }
  const omitted = d.omittedRows ? `${d.omittedRows} more lines not shown.` : '';
  if (omitted || note) node.append(h('div', { class: 'diff-note' }, [omitted, note].filter(Boolean).join(' ')));
  return node;
}

/** The inline diff of the content item at `index` of tool call `toolCallId`. */
export function diffNode(c: DiffView, toolCallId: string, index: number, ctx: RenderContext): HTMLElement {
  const d = editRows(c);
  const name = baseName(c.path);
  const open = button({
    label: 'Open Diff', icon: 'diff', testId: 'open-diff', className: 'diff-open', title: `Open the changes of ${name} in the diff editor`,
    onClick: () => ctx.actions.openDiff(toolCallId, index),
  });
  return diffFrame(c.path, c.added ? 'added' : 'modified', d, [open], d.omittedRows ? 'Use Open Diff.' : undefined);
}
