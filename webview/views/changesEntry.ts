/**
 * The transcript's checkpoint entries (docs/checkpoints.md): "Changed in this turn" at the
 * end of a turn that changed files, and a restored checkpoint. One compact line (a disclosure with the file
 * count and +/−) with the entry's button (Undo This Turn, Undo Restore); expanded, one row per file with Open
 * Diff. The user's open/closed choice survives a re-render (the entry is replaced when it is undone).
 */
import '../styles/changedFiles.css';
import '../styles/checkpoints.css';
import { changeTotals } from '../../src/shared/changedFiles';
import type { ChangedFileLineView, ChangesView } from '../../src/shared/viewModel';
import type { ChatActions } from '../actions';
import { button } from '../components/button';
import { h } from './dom';

/** What the entry's buttons ask of the host. */
export type ChangesActions = Pick<ChatActions, 'changesDiff' | 'changesUndo'>;

const changeIcons: Record<ChangedFileLineView['change'], string> = { created: 'diff-added', modified: 'diff-modified', deleted: 'diff-removed' };
/** Open or closed, by entry id, once the user toggled it. */
const userOpen = new Map<string, boolean>();

/** The node of a changes entry. */
export function changesNode(e: ChangesView, actions: ChangesActions): HTMLElement {
  const { added, removed } = changeTotals(e.files);
  const n = e.files.length;
  const what = e.role === 'turn' ? 'Changed in this turn' : `Restored ${e.label ?? 'a checkpoint'}`;
  const summary = h('summary', { class: 'changes-line', 'data-testid': 'changes-summary', title: 'Show the files' },
    h('span', { class: 'codicon codicon-chevron-right changes-chevron', 'aria-hidden': 'true' }),
    h('span', { class: `codicon codicon-${e.role === 'turn' ? 'diff-multiple' : 'history'}`, 'aria-hidden': 'true' }),
    h('span', { class: 'changes-title' }, `${what}: ${n} ${n === 1 ? 'file' : 'files'} `),
    h('span', { class: 'changed-stat-added' }, `+${added}`), ' ', h('span', { class: 'changed-stat-removed' }, `\u2212${removed}`),
    ...(e.undone ? [h('span', { class: 'changes-undone', 'data-testid': 'changes-undone' }, e.role === 'turn' ? ' · undone' : ' · restore undone')] : []));
  const details = h('details', { class: 'changes-details' }, summary,
    h('ul', { class: 'changed-files-list changes-files', 'aria-label': `Files ${e.role === 'turn' ? 'changed in this turn' : 'restored'}` }, ...e.files.map((f) => fileRow(e, f, actions))),
    ...(e.leftAlone ? [h('div', { class: 'changes-note' }, `${e.leftAlone} ${e.leftAlone === 1 ? 'file' : 'files'} not in a checkpoint (over the size cap, or a nested repository) left as ${e.leftAlone === 1 ? 'it was' : 'they were'}.`)] : []));
  (details as HTMLDetailsElement).open = userOpen.get(e.id) ?? false;
  summary.addEventListener('click', () => userOpen.set(e.id, !(details as HTMLDetailsElement).open));
  const undo = e.undone ? [] : [button({
    label: e.role === 'turn' ? 'Undo This Turn' : 'Undo Restore', icon: 'discard', testId: e.role === 'turn' ? 'changes-undo-turn' : 'changes-undo-restore', className: 'changes-undo',
    title: e.role === 'turn' ? 'Restore these files as they were before this turn (shows what will change first)' : 'Put these files back as they were before the restore (shows what will change first)',
    onClick: () => actions.changesUndo(e.id),
  })];
  return h('div', { class: `entry changes ${e.role}${e.undone ? ' undone' : ''}`, 'data-testid': 'changes-entry', 'data-role': e.role, 'data-entry-id': e.id },
    h('div', { class: 'changes-head' }, details, ...undo));
}

function fileRow(e: ChangesView, f: ChangedFileLineView, actions: ChangesActions): HTMLElement {
  const stat = f.added === undefined ? [h('span', { class: 'changed-file-stat' }, 'binary')] : [h('span', { class: 'changed-file-stat' },
    h('span', { class: 'changed-stat-added' }, `+${f.added}`), ' ', h('span', { class: 'changed-stat-removed' }, `\u2212${f.removed ?? 0}`))];
  return h('li', { class: `changed-file ${f.change}`, 'data-testid': 'changes-file', 'data-path': f.path, 'data-change': f.change },
    h('span', { class: `codicon codicon-${changeIcons[f.change]} changed-file-icon`, role: 'img', 'aria-label': f.change }),
    h('span', { class: 'changed-file-name', title: f.path }, f.name),
    h('span', { class: 'changed-file-folder' }, f.folder),
    ...(f.change === 'modified' ? [] : [h('span', { class: `changed-file-marker ${f.change}` }, f.change)]),
    ...stat,
    h('span', { class: 'changed-file-actions' }, button({
      label: `Open Diff of ${f.name}`, appearance: 'icon', icon: 'diff', title: `Open Diff of ${f.name}`, testId: 'changes-file-diff',
      onClick: () => actions.changesDiff(e.id, f.path),
    })));
}
