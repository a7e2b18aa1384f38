/**
 * The compare view of "Ask Several Agents…" (docs/worktrees.md): one row per run, each in its own git worktree.
 * The host builds a `CompareView` and posts it whole; the webview answers with a `CompareAction`. Titles, agent
 * names, diffs and check output are untrusted text: the webview only ever sets them as text, never as HTML.
 */

/** The webview panel type of the compare view (restored after a reload by the worktrees' serializer). */
export const compareViewType = 'switchboard.compare';

/** Where one run is. */
export type CompareRunStatus = 'starting' | 'running' | 'waiting' | 'done' | 'failed' | 'interrupted' | 'merged' | 'discarded';

/** One changed file of a run, against the base commit. */
export interface CompareFileView {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  readonly added: number;
  readonly removed: number;
}

/** The check command's result in one run's worktree, after its turn. */
export interface CompareCheckView {
  readonly state: 'pending' | 'running' | 'passed' | 'failed' | 'skipped';
  readonly command: string;
  readonly exitCode?: number;
  readonly durationMs?: number;
  /** The last lines it printed (capped). */
  readonly output: string;
}

/** One run: an agent, its session and its worktree. */
export interface CompareRunView {
  readonly id: string;
  readonly agentName: string;
  readonly title: string;
  readonly branch: string;
  readonly status: CompareRunStatus;
  /** "Running for 12 s", "Done in 41 s", "Failed: …" */
  readonly statusText: string;
  readonly durationMs?: number;
  readonly tokens?: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
  readonly files: readonly CompareFileView[];
  /** The unified diff against the base commit (capped; `diffTruncated` says so). */
  readonly diff: string;
  readonly diffTruncated: boolean;
  readonly check?: CompareCheckView;
  /** What went wrong, as git or the agent said it (secrets masked). */
  readonly error?: string;
}

/** The whole view. */
export interface CompareView {
  readonly id: string;
  readonly prompt: string;
  /** The branch the runs started from, and that Merge merges into. */
  readonly base: string;
  readonly check?: string;
  readonly runs: readonly CompareRunView[];
  /** The run that was merged, once one was. */
  readonly merged?: string;
  readonly createdAt: number;
}

/** What the webview asks the host to do. */
export type CompareAction =
  | { readonly type: 'ready' }
  | { readonly type: 'open'; readonly runId: string }
  | { readonly type: 'review'; readonly runId: string }
  | { readonly type: 'merge'; readonly runId: string }
  | { readonly type: 'discard'; readonly runId: string }
  | { readonly type: 'discardOthers'; readonly runId: string }
  | { readonly type: 'rerunCheck'; readonly runId: string };

/** What the host posts. */
export type CompareMessage = { readonly type: 'view'; readonly view: CompareView };
