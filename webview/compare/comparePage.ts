/**
 * The compare view's page: a header (the prompt, the base branch, the check command) and a table with one row
 * per run (runRow.ts), keyed by run id. An update changes the page in place and never moves the focus: rows
 * that stay are not detached, and one that had to move in the order gets its focused control back.
 */
import type { CompareAction, CompareView } from '../../src/shared/compareView';
import { h, setChildren, setPlain, setText } from './dom';
import { columns, RunRow } from './runRow';

/** The whole page, drawn from the latest view. */
export class ComparePage {
  private readonly rows = new Map<string, RunRow>();
  private readonly prompt = h('div', { class: 'prompt', 'data-testid': 'compare-prompt', tabindex: '0', role: 'region', 'aria-label': 'Prompt' });
  private readonly base = h('code');
  private readonly checkCommand = h('code');
  private readonly noCheck = h('span', { class: 'muted' }, 'No check command');
  private readonly mergedName = h('dd');
  private readonly merged = h('div', {}, h('dt', {}, 'Merged'), this.mergedName);
  private readonly caption = h('caption');
  private readonly body = h('tbody');
  private readonly table: HTMLTableElement;
  private readonly waiting = h('p', { class: 'muted waiting' }, 'Waiting for the runs…');
  private readonly empty = h('p', { class: 'muted' }, 'No runs.');
  private readonly header: HTMLElement;

  /**
   * @param open the runs whose details were open when the page was last drawn (its saved state)
   * @param onToggle called when the user opens or closes a run's details (the page saves its state)
   */
  constructor(root: HTMLElement, private readonly post: (action: CompareAction) => void, private readonly onToggle: () => void, private readonly open: ReadonlySet<string> = new Set()) {
    this.header = h('header', { class: 'page-header' },
      h('h1', {}, 'Compare runs'),
      this.prompt,
      h('dl', { class: 'page-meta' },
        h('div', {}, h('dt', {}, 'Base'), h('dd', {}, this.base)),
        h('div', {}, h('dt', {}, 'Check'), h('dd', {}, this.checkCommand, this.noCheck)),
        this.merged));
    const head = h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)));
    this.table = h('table', { class: 'runs', 'data-testid': 'compare-table' }, this.caption, h('thead', {}, head), this.body);
    root.replaceChildren(this.header, this.waiting, h('div', { class: 'table-scroll' }, this.table), this.empty);
    this.render(undefined);
  }

  /** Draws `view` (undefined: nothing arrived yet). */
  render(view: CompareView | undefined): void {
    this.header.hidden = !view;
    this.table.hidden = !view || view.runs.length === 0;
    this.waiting.hidden = !!view;
    this.empty.hidden = !view || view.runs.length > 0;
    if (!view) return;
    const focused = document.activeElement;
    setText(this.prompt, view.prompt);
    setText(this.base, view.base);
    setText(this.checkCommand, view.check ?? '');
    this.checkCommand.hidden = view.check === undefined;
    this.noCheck.hidden = view.check !== undefined;
    const mergedRun = view.merged === undefined ? undefined : view.runs.find((r) => r.id === view.merged);
    this.merged.hidden = !mergedRun;
    if (mergedRun) setText(this.mergedName, `${mergedRun.agentName} (${mergedRun.branch})`);
    const merged = mergedRun ? ', 1 merged' : '';
    setPlain(this.caption, `${view.runs.length === 1 ? '1 run' : `${view.runs.length} runs`} of this prompt${merged}`);

    const seen = new Set<string>();
    const children: Node[] = [];
    for (const run of view.runs) {
      seen.add(run.id);
      let row = this.rows.get(run.id);
      if (!row) {
        row = new RunRow(run.id, this.post, this.onToggle);
        if (this.open.has(run.id)) row.details.open = true;
        this.rows.set(run.id, row);
      }
      row.update(run, view);
      children.push(row.row, row.detailsRow);
    }
    for (const id of [...this.rows.keys()]) if (!seen.has(id)) this.rows.delete(id);
    setChildren(this.body, children);
    // a row moved in the order was detached for a moment, which drops the focus: give it back, without scrolling
    if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected && !focused.closest('[hidden]')) {
      focused.focus({ preventScroll: true });
    }
  }

  /** The ids of the runs whose details are open. */
  openRuns(): string[] {
    return [...this.rows.values()].filter((r) => r.details.open).map((r) => r.id);
  }
}
