/**
 * The changed-files bar above the composer: the files the agent changed in this session that are not kept or
 * undone yet. Collapsed it is one line, "2 files changed +5 −1", a button with `aria-expanded`; expanded, one
 * row per file (name, folder, +added −removed, a created/deleted marker) with Open Diff, Keep and Undo, and
 * Keep All / Undo All on the bar. Hidden while nothing is pending. The list comes from the host
 * (DidChangeChangedFilesNotification); every action goes back through ChatActions.
 */
import '../styles/changedFiles.css';
import { changeTotals } from '../../src/shared/changedFiles';
import type { ChangedFileAction, ChangedFileView, ChangedFilesView } from '../../src/shared/changedFiles';
import type { ChatActions } from '../actions';
import { button } from '../components/button';
import { h } from './dom';

const changeIcons: Record<ChangedFileView['change'], string> = { created: 'diff-added', modified: 'diff-modified', deleted: 'diff-removed' };
const rowActions: { action: ChangedFileAction; icon: string; label: (name: string) => string }[] = [
  { action: 'diff', icon: 'diff', label: (n) => `Open Diff of ${n}` },
  { action: 'keep', icon: 'check', label: (n) => `Keep the agent's change of ${n}` },
  { action: 'undo', icon: 'discard', label: (n) => `Undo: restore ${n} as before the agent` },
];

/** Which button had the focus before a re-render: the same one (or its neighbour) gets it back. */
interface FocusSpot { readonly row: number; readonly action: string }

/** The bar; `focusComposer` takes the focus when the bar disappears under it. */
export class ChangedFilesBar {
  readonly element: HTMLElement;
  private expanded = false;
  private view: ChangedFilesView = { files: [] };
  private dismissedError: string | undefined;

  constructor(private readonly actions: Pick<ChatActions, 'changedFile' | 'changedFilesAll'>, private readonly focusComposer: () => void) {
    this.element = h('section', { class: 'changed-files', 'data-testid': 'changed-files', 'aria-label': 'Changed files' });
    this.element.hidden = true;
  }

  /** Shows the host's list (replacing the previous one). */
  render(view: ChangedFilesView): void {
    const spot = this.focusSpot();
    this.view = view;
    if (view.error !== this.dismissedError) this.dismissedError = undefined;
    const error = view.error !== undefined && view.error !== this.dismissedError ? view.error : undefined;
    const { files } = view;
    if (!files.length) this.expanded = false;
    this.element.hidden = !files.length && error === undefined;
    this.element.dataset.count = String(files.length);
    this.element.replaceChildren(...(files.length ? [this.head(files)] : []), ...(error !== undefined ? [this.errorNode(error)] : []), ...(files.length && this.expanded ? [this.list(files)] : []));
    if (spot) this.restoreFocus(spot);
  }

  private head(files: readonly ChangedFileView[]): HTMLElement {
    const { added, removed } = changeTotals(files);
    const toggle = h('button', {
      class: 'changed-files-toggle', type: 'button', 'aria-expanded': String(this.expanded), 'aria-controls': 'changed-files-list',
      'data-testid': 'changed-files-toggle', title: this.expanded ? 'Hide the changed files' : 'Show the changed files',
    },
    h('span', { class: `codicon codicon-chevron-${this.expanded ? 'down' : 'right'}`, 'aria-hidden': 'true' }),
    h('span', { class: 'changed-files-summary', 'data-testid': 'changed-files-summary' },
      `${files.length} ${files.length === 1 ? 'file' : 'files'} changed `,
      h('span', { class: 'changed-stat-added' }, `+${added}`), ' ',
      h('span', { class: 'changed-stat-removed' }, `\u2212${removed}`)));
    toggle.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this.render(this.view);
      this.element.querySelector<HTMLElement>('.changed-files-toggle')?.focus();
    });
    const all = h('div', { class: 'changed-files-all' },
      button({ label: 'Keep All', appearance: 'icon', icon: 'check-all', title: 'Keep All: keep every change of the agent', testId: 'changed-files-keep-all', onClick: () => this.actions.changedFilesAll('keep') }),
      button({ label: 'Undo All', appearance: 'icon', icon: 'discard', title: 'Undo All: restore every file as before the agent (asks first)', testId: 'changed-files-undo-all', onClick: () => this.actions.changedFilesAll('undo') }));
    return h('div', { class: 'changed-files-head' }, toggle, all);
  }

  private list(files: readonly ChangedFileView[]): HTMLElement {
    return h('ul', { class: 'changed-files-list', id: 'changed-files-list', 'data-testid': 'changed-files-list', 'aria-label': 'Changed files' },
      ...files.map((f, i) => this.row(f, i)));
  }

  private row(f: ChangedFileView, index: number): HTMLElement {
    const stat = f.added === undefined ? [] : [h('span', { class: 'changed-file-stat' },
      h('span', { class: 'changed-stat-added' }, `+${f.added}`), ' ', h('span', { class: 'changed-stat-removed' }, `\u2212${f.removed ?? 0}`))];
    const marker = f.change === 'modified' ? [] : [h('span', { class: `changed-file-marker ${f.change}`, 'data-testid': 'changed-file-marker' }, f.change)];
    return h('li', { class: `changed-file ${f.change}`, 'data-testid': 'changed-file', 'data-path': f.path, 'data-change': f.change, 'data-row': String(index) },
      h('span', { class: `codicon codicon-${changeIcons[f.change]} changed-file-icon`, role: 'img', 'aria-label': f.change }),
      h('span', { class: 'changed-file-name', title: f.path }, f.name),
      h('span', { class: 'changed-file-folder' }, f.folder),
      ...marker,
      ...stat,
      h('span', { class: 'changed-file-actions' }, ...rowActions.map((a) => button({
        label: a.label(f.name), appearance: 'icon', icon: a.icon, title: a.label(f.name), testId: `changed-file-${a.action}`,
        attrs: { 'data-action': a.action }, onClick: () => this.actions.changedFile(a.action, f.path),
      }))));
  }

  private errorNode(error: string): HTMLElement {
    const node = h('div', { class: 'changed-files-error', role: 'alert', 'data-testid': 'changed-files-error' },
      h('span', { class: 'codicon codicon-error', 'aria-hidden': 'true' }),
      h('span', { class: 'changed-files-error-text' }, error));
    node.append(button({ label: 'Dismiss', appearance: 'icon', icon: 'close', title: 'Dismiss', testId: 'changed-files-error-dismiss', onClick: () => {
      this.dismissedError = error;
      this.render(this.view);
    } }));
    return node;
  }

  private focusSpot(): FocusSpot | undefined {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.element.contains(active)) return undefined;
    const row = active.closest<HTMLElement>('[data-row]');
    return { row: row ? Number(row.dataset.row) : -1, action: active.dataset.action ?? active.dataset.testid ?? '' };
  }

  /** After a re-render: the same button of the same row, or of the row that took its place, else the toggle. */
  private restoreFocus(spot: FocusSpot): void {
    if (this.element.hidden) return this.focusComposer();
    const rows = this.element.querySelectorAll<HTMLElement>('[data-row]');
    const row = spot.row >= 0 && rows.length ? rows[Math.min(spot.row, rows.length - 1)] : undefined;
    const target = row?.querySelector<HTMLElement>(`[data-action="${spot.action}"]`)
      ?? this.element.querySelector<HTMLElement>(`[data-testid="${spot.action}"]`)
      ?? this.element.querySelector<HTMLElement>('.changed-files-toggle');
    target?.focus();
  }
}
