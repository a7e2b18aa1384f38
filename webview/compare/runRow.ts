/**
 * One run of the compare view: its row in the table (agent and title, branch, status with its duration, tokens
 * and cost, files, check) and, in the row below it, its buttons and a `<details>` with its changed files, its diff and its
 * check's output. Built once per run id and updated in place: its buttons keep their focus, its `<details>`
 * its open state and its `<pre>`s their scroll position across updates. Model text only as text nodes (dom.ts).
 */
import type { CompareAction, CompareRunView, CompareView } from '../../src/shared/compareView';
import { stripAnsi } from '../lib/ansi';
import { formatCost, formatTokens } from '../lib/usageLevel';
import { diffSegments } from './diffLines';
import { h, setAttr, setPlain, setText, visibleText } from './dom';
import { checkSummary, fileTotals, filesLabel, formatDuration, runActions, runActionTypes, statusLabel, statusTone } from './runModel';
import type { RunActionType, Tone } from './runModel';

/** The table's columns, in order (the narrow layout labels each cell with its column: compare.css). */
export const columns = ['Agent and title', 'Branch', 'Status', 'Tokens · cost', 'Files changed', 'Check'] as const;

const changeLetters = { added: 'A', modified: 'M', deleted: 'D' } as const;
const minus = '\u2212';

/** A status dot and its words. */
function toned(tone: Tone, dot: HTMLElement, text: HTMLElement, label: string): void {
  setAttr(dot, 'class', `dot tone-${tone}`);
  setText(text, label);
}

/** A `+N −M` pair. */
function counts(added: number, removed: number): HTMLElement[] {
  return [h('span', { class: 'plus' }, `+${added}`), h('span', { class: 'minus' }, `${minus}${removed}`)];
}

/** The DOM of one run, kept across updates. */
export class RunRow {
  readonly row: HTMLTableRowElement;
  readonly detailsRow: HTMLTableRowElement;
  readonly details: HTMLDetailsElement;
  private readonly agentName = h('span', { class: 'agent-name' });
  private readonly title = h('span', { class: 'run-title' });
  private readonly agent = h('th', { scope: 'row', 'data-label': columns[0] }, this.agentName, this.title);
  private readonly branch = h('code', { class: 'branch' });
  private readonly statusDot = h('span', { class: 'dot', 'aria-hidden': 'true' });
  private readonly statusText = h('span');
  private readonly statusCell = h('td', { 'data-testid': 'compare-status', 'data-label': columns[2] }, this.statusDot, this.statusText);
  private readonly tokens = h('span', { 'data-testid': 'compare-tokens' });
  private readonly cost = h('span', { 'data-testid': 'compare-cost' });
  private readonly usage = h('td', { class: 'num', 'data-label': columns[3] }, this.tokens, this.cost);
  private readonly files = h('td', { class: 'files', 'data-label': columns[4] });
  private readonly checkDot = h('span', { class: 'dot', 'aria-hidden': 'true' });
  private readonly checkText = h('span');
  private readonly checkCell = h('td', { 'data-testid': 'compare-check', 'data-label': columns[5] }, this.checkDot, this.checkText);
  private readonly buttons = new Map<RunActionType, HTMLButtonElement>();
  private readonly summaryName = h('span');
  private readonly summaryCounts = h('span', { class: 'summary-counts' });
  private readonly error = h('p', { class: 'error' });
  private readonly fileList = h('ul', { class: 'file-list', 'data-testid': 'compare-files' });
  private readonly diffCode = h('code');
  private readonly diffPre = h('pre', { class: 'diff', 'data-testid': 'compare-diff', tabindex: '0', 'aria-label': 'Diff' }, this.diffCode);
  private readonly diffEmpty = h('p', { class: 'muted' }, 'No changes.');
  private readonly truncated = h('p', { class: 'note', 'data-testid': 'compare-diff-truncated' },
    'Diff truncated: only its first part is shown. Review Changes shows every change.');
  private readonly checkSection: HTMLElement;
  private readonly checkLine = h('p', { class: 'check-line' });
  private readonly checkOutput = h('pre', { class: 'output', 'data-testid': 'compare-check-output', tabindex: '0', 'aria-label': 'Check output' });
  private shownDiff: string | undefined;
  private lastRun: CompareRunView | undefined;
  private shownFiles = '';

  constructor(readonly id: string, post: (action: CompareAction) => void, onToggle: () => void) {
    const actions = h('div', { class: 'actions', role: 'group', 'aria-label': 'Actions of this run' });
    for (const type of runActionTypes) {
      const button = h('button', { type: 'button', class: type === 'merge' ? 'primary' : 'secondary', 'data-action': type });
      button.addEventListener('click', () => {
        if (button.getAttribute('aria-disabled') !== 'true') post({ type, runId: this.id });
      });
      this.buttons.set(type, button);
      actions.append(button);
    }
    this.row = h('tr', { class: 'run', 'data-testid': 'compare-row', 'data-run-id': id },
      this.agent,
      h('td', { 'data-label': columns[1] }, this.branch),
      this.statusCell, this.usage, this.files, this.checkCell);
    this.checkSection = h('section', { class: 'check' }, h('h3', {}, 'Check'), this.checkLine, this.checkOutput);
    this.details = h('details', { 'data-testid': 'compare-details' },
      h('summary', {}, 'Details of ', this.summaryName, this.summaryCounts),
      this.error,
      h('section', {}, h('h3', {}, 'Files changed'), this.fileList),
      h('section', {}, h('h3', {}, 'Diff'), this.diffPre, this.diffEmpty, this.truncated),
      this.checkSection);
    this.details.addEventListener('toggle', () => {
      // a diff is drawn when its section is first shown: a closed one costs nothing while the runs stream in
      if (this.details.open && this.lastRun) this.updateDiff(this.lastRun);
      onToggle();
    });
    // the run's buttons head the row under it: the table keeps six columns, which fit a panel beside the editor
    this.detailsRow = h('tr', { class: 'details-row', 'data-run-id': id }, h('td', { colspan: String(columns.length) }, actions, this.details));
  }

  /** Draws `run` of `view`, touching only what changed. */
  update(run: CompareRunView, view: CompareView): void {
    setAttr(this.row, 'class', `run status-${run.status}`);
    setAttr(this.detailsRow, 'class', `details-row status-${run.status}`);
    setText(this.agentName, run.agentName);
    setText(this.title, run.title);
    setText(this.branch, run.branch, true);
    setAttr(this.statusCell, 'data-status', run.status);
    toned(statusTone(run.status), this.statusDot, this.statusText, statusLabel(run));
    setPlain(this.tokens, run.tokens === undefined ? '—' : formatTokens(run.tokens));
    setAttr(this.tokens, 'title', run.tokens === undefined ? undefined : `${run.tokens.toLocaleString()} tokens`);
    setPlain(this.cost, run.cost ? ` · ${formatCost(run.cost)}` : '');
    setAttr(this.statusCell, 'title', run.durationMs === undefined ? undefined : `Ran for ${formatDuration(run.durationMs)}`);
    const totals = fileTotals(run.files);
    const filesKey = JSON.stringify(run.files);
    if (filesKey !== this.shownFiles) {
      this.shownFiles = filesKey;
      this.files.replaceChildren(filesLabel(totals.count), ...(totals.count ? [' ', ...counts(totals.added, totals.removed)] : []));
      this.summaryCounts.replaceChildren(totals.count ? ` (${filesLabel(totals.count).toLowerCase()} changed)` : '');
      this.fileList.replaceChildren(...(run.files.length ? run.files.map((f) => h('li', {},
        h('span', { class: `change ${f.change}`, title: f.change }, changeLetters[f.change]),
        h('span', { class: 'path' }, visibleText(f.path)),
        ...counts(f.added, f.removed))) : [h('li', { class: 'muted' }, 'No files changed.')]));
    }
    const check = checkSummary(run.check);
    setAttr(this.checkCell, 'data-state', run.check?.state ?? 'none');
    toned(check.tone, this.checkDot, this.checkText, check.text);
    setText(this.summaryName, run.agentName);
    setText(this.error, run.error ?? '');
    this.error.hidden = !run.error;
    this.updateDiff(run);
    this.checkSection.hidden = !run.check;
    if (run.check) {
      this.checkLine.replaceChildren(h('code', {}, visibleText(run.check.command)), ` ${minus} ${check.text}`);
      setText(this.checkOutput, stripAnsi(run.check.output));
      this.checkOutput.hidden = run.check.output === '';
    }
    for (const action of runActions(run, view)) {
      const button = this.buttons.get(action.type);
      if (!button) continue;
      setText(button, action.label);
      setAttr(button, 'data-testid', action.testId);
      button.hidden = !action.shown;
      // aria-disabled, not disabled: a button that an update disables (Merge, once merged) keeps the focus
      setAttr(button, 'aria-disabled', action.enabled ? undefined : 'true');
      setAttr(button, 'title', action.reason);
    }
  }

  private updateDiff(run: CompareRunView): void {
    this.lastRun = run;
    if (!this.details.open) return;
    this.truncated.hidden = !run.diffTruncated;
    this.diffPre.hidden = run.diff === '';
    this.diffEmpty.hidden = run.diff !== '';
    if (run.diff === this.shownDiff) return;
    this.shownDiff = run.diff;
    this.diffCode.replaceChildren(...diffSegments(run.diff).map((s) =>
      // a block ignores its text's last line break: an empty last line needs one more to be drawn
      h('span', { class: `ln ${s.kind}` }, visibleText(s.text.endsWith('\n') || s.text === '' ? `${s.text}\n` : s.text))));
  }
}

