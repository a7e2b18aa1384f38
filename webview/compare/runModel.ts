/**
 * What the compare view shows of one run, as data (pure, no DOM): its tone (the coloured dot), its check, its
 * totals, and which of its buttons are shown and which make sense now.
 */
import type { CompareAction, CompareCheckView, CompareFileView, CompareRunStatus, CompareRunView, CompareView } from '../../src/shared/compareView';

/** The colour of a status dot (compare.css maps each to a theme variable). */
export type Tone = 'busy' | 'waiting' | 'passed' | 'failed' | 'merged' | 'muted';

/** A button of a run: every action but `ready`. */
export type RunActionType = Exclude<CompareAction['type'], 'ready'>;

/** One button of a run's row, as it should be drawn now. */
export interface RunActionState {
  readonly type: RunActionType;
  readonly label: string;
  readonly testId: string;
  /** Not drawn at all (Re-run Check without a check command; Discard the Others where it does not apply). */
  readonly shown: boolean;
  readonly enabled: boolean;
  /** Why it is disabled (its tooltip). */
  readonly reason?: string;
}

/** The buttons of a row, in their order on screen (and in the Tab order). */
export const runActionTypes: readonly RunActionType[] = ['open', 'review', 'merge', 'discard', 'rerunCheck', 'discardOthers'];

const testIds: Readonly<Record<RunActionType, string>> = {
  open: 'compare-open', review: 'compare-review', merge: 'compare-merge', discard: 'compare-discard',
  rerunCheck: 'compare-rerun-check', discardOthers: 'compare-discard-others',
};

const statusTones: Readonly<Record<CompareRunStatus, Tone>> = {
  starting: 'busy', running: 'busy', waiting: 'waiting', done: 'passed', failed: 'failed', interrupted: 'waiting', merged: 'merged', discarded: 'muted',
};
const statusNames: Readonly<Record<CompareRunStatus, string>> = {
  starting: 'Starting', running: 'Running', waiting: 'Waiting for you', done: 'Done', failed: 'Failed', interrupted: 'Interrupted', merged: 'Merged', discarded: 'Discarded',
};

/** The dot's tone of a run's status. */
export function statusTone(status: CompareRunStatus): Tone {
  return statusTones[status];
}

/** The status in words: the host's text ("Done in 41 s"), or the status's name when it sent none. */
export function statusLabel(run: Pick<CompareRunView, 'status' | 'statusText'>): string {
  return run.statusText.trim() || statusNames[run.status];
}

/** The check cell: "Passed", "Failed (exit 2)", "Running…", "Pending", "Skipped"; "—" without a check. */
export function checkSummary(check: CompareCheckView | undefined): { readonly text: string; readonly tone: Tone } {
  if (!check) return { text: '—', tone: 'muted' };
  const took = check.durationMs === undefined ? '' : ` in ${formatDuration(check.durationMs)}`;
  switch (check.state) {
    case 'passed': return { text: `Passed${took}`, tone: 'passed' };
    case 'failed': return { text: check.exitCode === undefined ? `Failed${took}` : `Failed (exit ${check.exitCode})${took}`, tone: 'failed' };
    case 'running': return { text: 'Running…', tone: 'busy' };
    case 'pending': return { text: 'Pending', tone: 'muted' };
    case 'skipped': return { text: 'Skipped', tone: 'muted' };
  }
}

/** "850 ms", "41 s", "2 min 5 s", "1 h 3 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** How many files, and the lines added and removed in all of them. */
export function fileTotals(files: readonly CompareFileView[]): { readonly count: number; readonly added: number; readonly removed: number } {
  return { count: files.length, added: files.reduce((n, f) => n + f.added, 0), removed: files.reduce((n, f) => n + f.removed, 0) };
}

/** "1 file", "3 files", "No files". */
export function filesLabel(count: number): string {
  return count === 0 ? 'No files' : count === 1 ? '1 file' : `${count} files`;
}

const busy: ReadonlySet<CompareRunStatus> = new Set(['starting', 'running', 'waiting']);
const closed: ReadonlySet<CompareRunStatus> = new Set(['merged', 'discarded']);

/**
 * The buttons of `run` in `view`. A merged or discarded run only opens its chat (and the merged one offers to
 * discard the others); Merge waits until the turn is over, and is not offered for a second run once one is
 * merged; Re-run Check exists only with a check command.
 */
export function runActions(run: CompareRunView, view: CompareView): RunActionState[] {
  const ended = closed.has(run.status);
  const working = busy.has(run.status);
  const hasFiles = run.files.length > 0 || run.diff !== '';
  const othersLeft = view.runs.some((r) => r.id !== run.id && !closed.has(r.status));
  const state = (type: RunActionType, label: string, shown: boolean, reason: string | undefined): RunActionState =>
    ({ type, label, testId: testIds[type], shown, enabled: reason === undefined, ...(reason === undefined ? {} : { reason }) });
  const closedReason = run.status === 'merged' ? 'This run was merged' : 'This run was discarded';
  return [
    state('open', 'Open Chat', true, undefined),
    state('review', 'Review Changes', true, ended ? closedReason : !hasFiles ? 'No changes yet' : undefined),
    state('merge', `Merge into ${view.base}`, true,
      ended ? closedReason : working ? 'Wait until the agent is done' : view.merged !== undefined ? 'Another run was merged' : !hasFiles ? 'No changes to merge' : undefined),
    state('discard', 'Discard', true, ended ? closedReason : undefined),
    state('rerunCheck', 'Re-run Check', view.check !== undefined,
      ended ? closedReason : working ? 'Wait until the agent is done' : run.check?.state === 'running' ? 'The check is running' : undefined),
    state('discardOthers', 'Discard the Others',
      view.merged !== undefined ? view.merged === run.id : run.status === 'done',
      othersLeft ? undefined : 'No other runs left'),
  ];
}

