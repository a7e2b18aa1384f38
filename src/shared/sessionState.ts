/**
 * A session's live state as every place that lists sessions shows it (the Sessions view, Switch Session, the
 * status bar, chat tab titles, notifications): exactly one of streaming, waiting for you, failed, finished and
 * unread, idle; with how long it has been so and the agent's current plan step (docs/sessions.md "A home for
 * all sessions"). The state itself is derived from the thread in one place (src/thread/view/sessionActivity.ts); this
 * file holds the words, icons and order all surfaces share, so they cannot disagree. Pure: no vscode, no node.
 */

/** The five states, in the order a user wants to see them (waiting first). */
export type SessionStateKind = 'waiting' | 'failed' | 'unread' | 'streaming' | 'idle';

/** What a session waiting for you waits for. */
export type WaitingReason = 'permission' | 'elicitation' | 'login';

/** A session's state at one moment. */
export interface SessionStateView {
  readonly kind: SessionStateKind;
  /** Only for `waiting`. */
  readonly reason?: WaitingReason;
  /** Milliseconds since the epoch when the session entered this state (kind and reason). */
  readonly since: number;
  /** More words: the failure, "read-only", "starting" (raw agent text: neutralise it for its sink). */
  readonly detail?: string;
  /** The plan step the agent is on (raw agent text). */
  readonly planStep?: string;
}

const words: Record<SessionStateKind, string> = {
  waiting: 'waiting for you',
  failed: 'failed',
  unread: 'finished, unread',
  streaming: 'streaming',
  idle: 'idle',
};

const reasons: Record<WaitingReason, string> = {
  permission: 'permission',
  elicitation: 'a question',
  login: 'login',
};

/** "waiting for you (permission)", "failed", "finished, unread": the state in words. */
export function stateLabel(state: Pick<SessionStateView, 'kind' | 'reason'>): string {
  return state.kind === 'waiting' && state.reason ? `${words.waiting} (${reasons[state.reason]})` : words[state.kind];
}

/** The state in words as a list shows it: an idle session's detail ("read-only", "starting") stands for "idle". */
export function stateWords(state: Pick<SessionStateView, 'kind' | 'reason' | 'detail'>): string {
  return state.kind === 'idle' && state.detail ? state.detail : stateLabel(state);
}

/** The codicon of a state (the same in the view, the picker and the status bar). */
export function stateIcon(state: Pick<SessionStateView, 'kind' | 'reason'>): string {
  switch (state.kind) {
    case 'waiting': return state.reason === 'login' ? 'key' : state.reason === 'elicitation' ? 'question' : 'bell-dot';
    case 'failed': return 'error';
    case 'unread': return 'circle-filled';
    case 'streaming': return 'sync~spin';
    case 'idle': return 'comment-discussion';
  }
}

/** The theme color id of a state's icon, when it has one. */
export function stateColor(kind: SessionStateKind): string | undefined {
  switch (kind) {
    case 'waiting': return 'notificationsWarningIcon.foreground';
    case 'failed': return 'errorForeground';
    case 'unread': return 'notificationsInfoIcon.foreground';
    default: return undefined;
  }
}

/** Sort key: waiting first, then failed, unread, streaming, idle. */
export function stateRank(kind: SessionStateKind): number {
  return ['waiting', 'failed', 'unread', 'streaming', 'idle'].indexOf(kind);
}

/** How long, in a few characters: "12 s", "4 min", "2 h", "3 days". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h`;
  const d = Math.floor(s / 86400);
  return `${d} day${d === 1 ? '' : 's'}`;
}

/**
 * The state in one line, for descriptions and tooltips: "waiting for you (permission) for 2 min · step: Run the
 * tests" (raw: the plan step and the detail are agent text, neutralise the line for its sink).
 */
export function stateLine(state: SessionStateView, now: number): string {
  const parts = [`${stateWords(state)} for ${duration(now - state.since)}`];
  if (state.kind === 'failed' && state.detail) parts.push(state.detail);
  if (state.planStep && (state.kind === 'streaming' || state.kind === 'waiting')) parts.push(`step: ${state.planStep}`);
  return parts.join(' · ');
}

/**
 * The prefix of a chat tab's title: nothing when idle (the title stays as it was), else a mark that reads without
 * colour (tab titles are plain text).
 */
export function tabPrefix(kind: SessionStateKind): string {
  switch (kind) {
    case 'waiting': return '\u2016 '; // ‖: it waits for you
    case 'failed': return '\u2716 '; // ✖
    case 'unread': return '\u25CF '; // ●
    case 'streaming': return '\u27F3 '; // ⟳
    case 'idle': return '';
  }
}

/** A state with the same kind and reason (a change of only the plan step or the detail keeps `since`). */
export function sameState(a: Pick<SessionStateView, 'kind' | 'reason'>, b: Pick<SessionStateView, 'kind' | 'reason'>): boolean {
  return a.kind === b.kind && a.reason === b.reason;
}
