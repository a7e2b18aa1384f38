/**
 * A session's live state (src/shared/sessionState.ts), derived in this one place from the thread and the few
 * facts of the host that the thread does not hold (a login running for a prompt, elicitations waiting for an
 * answer, whether the user has seen the end of the last turn), so that the Sessions view, Switch Session, the
 * status bar, the chat's tab and the notifications agree (docs/sessions.md "A home for all sessions").
 * Pure: no vscode, no node; the clock is given.
 */
import { Emitter, type Event } from '../../acp/events';
import type { PlanEntry } from '../../acp/schema/types.gen';
import { sameState, type SessionStateKind, type SessionStateView, type WaitingReason } from '../../shared/sessionState';
import type { NoticeAction, SessionStatus } from '../../shared/viewModel';
import type { PlanState } from '../model/plans';

/** Everything the state is derived from. */
export interface SessionFacts {
  readonly status: SessionStatus;
  /** The status error and the button its banner offers (`restart` after a crash, `continue` when it cannot go on). */
  readonly error?: string;
  readonly errorAction?: NoticeAction;
  /** A crash the user has not seen yet (AcpThread.unseenFailure). */
  readonly unseenFailure?: string;
  /** Shown read-only from the client's store: never streams, never fails. */
  readonly readOnly?: boolean;
  /** A login runs for this session's prompt (auth_required). */
  readonly login?: boolean;
  /** Elicitations waiting for the user's answer. */
  readonly elicitations?: number;
  /** The last turn failed (the agent answered the prompt with an error), until the next turn starts. */
  readonly turnFailure?: string;
  /** The last turn ended while no chat of the session was on screen, and the user has not looked since. */
  readonly unread?: boolean;
}

/** The state of a session at this moment, without its time (see {@link SessionActivity}). */
export function deriveSessionState(f: SessionFacts): { kind: SessionStateKind; reason?: WaitingReason; detail?: string } {
  if (f.readOnly) return { kind: 'idle', detail: 'read-only' };
  if (f.status === 'awaitingPermission') return { kind: 'waiting', reason: 'permission' };
  if (f.login) return { kind: 'waiting', reason: 'login' };
  if ((f.elicitations ?? 0) > 0) return { kind: 'waiting', reason: 'elicitation' };
  if (f.status === 'disconnected' && f.errorAction) return { kind: 'failed', detail: f.unseenFailure ?? f.error };
  if (f.unseenFailure) return { kind: 'failed', detail: f.unseenFailure };
  if (f.status === 'working') return { kind: 'streaming' };
  if (f.turnFailure) return { kind: 'failed', detail: f.turnFailure };
  if (f.unread) return { kind: 'unread' };
  if (f.status === 'starting' || f.status === 'reconnecting') return { kind: 'idle', detail: f.status };
  if (f.status === 'disconnected') return { kind: 'idle', detail: 'stopped' };
  return { kind: 'idle' };
}

/**
 * The plan step the agent is on: the first step in progress of the plans by id (newest plan first), else of the
 * legacy plan; else, while the turn runs, the first pending one.
 */
export function currentPlanStep(plan: readonly PlanEntry[], plans: readonly PlanState[], cancelled: boolean): string | undefined {
  const lists = [...plans].reverse().flatMap((p) => (p.type === 'items' && !p.cancelled ? [p.entries] : []));
  if (!cancelled) lists.push([...plan]);
  for (const status of ['in_progress', 'pending'] as const) {
    for (const list of lists) {
      const step = list.find((e) => e.status === status);
      if (step) return step.content;
    }
  }
  return undefined;
}

/** What the activity reads of the thread (AcpThread has all of it). */
export interface ActivityThread {
  readonly status: SessionStatus;
  readonly error: string | undefined;
  readonly errorAction: NoticeAction | undefined;
  readonly unseenFailure: string | undefined;
  readonly plan: PlanEntry[];
  readonly plans: PlanState[];
  readonly planCancelled: boolean;
  readonly onDidChange: Event<{ readonly type: string }>;
}

/** What the host tells the activity. */
export interface ActivityHost {
  /** Whether a chat of the session is on screen (a turn that ends then is read at once). */
  isVisible(): boolean;
  /** Elicitations waiting for an answer. */
  pendingElicitations(): number;
}

/** One session's live state, kept current, with the time it entered it. */
export class SessionActivity {
  private _login = false;
  private _readOnly = false;
  private _turnFailure: string | undefined;
  private _unread = false;
  private _status: SessionStatus;
  private _state: SessionStateView;
  private readonly _onDidChange = new Emitter<SessionStateView>();
  /** Fires when the state, its detail or the plan step changed. */
  readonly onDidChange: Event<SessionStateView> = this._onDidChange.event;
  private readonly _sub: { dispose(): void };
  private readonly _onDidRequestFocus = new Emitter<void>();
  /** Fires when the user asked to go to what the session waits for (its chat moves the focus to the request). */
  readonly onDidRequestFocus: Event<void> = this._onDidRequestFocus.event;

  constructor(private readonly thread: ActivityThread, private readonly host: ActivityHost, private readonly now: () => number = Date.now) {
    this._status = thread.status;
    this._state = { ...deriveSessionState(this.facts()), since: now() };
    this._sub = thread.onDidChange((c) => {
      if (c.type === 'status') this.statusChanged();
      if (c.type === 'status' || c.type === 'plan' || c.type === 'entry') this.update();
    });
  }

  /** The state now. */
  get state(): SessionStateView {
    return this._state;
  }

  /** A login for this session's prompt started or ended. */
  setLogin(on: boolean): void {
    this._login = on;
    this.update();
  }

  /** The turn failed: the agent's error, shown until the next turn starts. */
  turnFailed(message: string): void {
    this._turnFailure = message;
    this.update();
  }

  /** The session is shown read-only from the client's store. */
  setReadOnly(): void {
    this._readOnly = true;
    this.update();
  }

  /** The user looked at the session (its chat came to the front): a finished turn is read. */
  markSeen(): void {
    if (!this._unread) return;
    this._unread = false;
    this.update();
  }

  /** The user jumped to this session (Go to Next Session Waiting for You): its chat focuses the pending request. */
  requestFocus(): void {
    this._onDidRequestFocus.fire();
  }

  /** Recomputes the state (the elicitations of the host changed). */
  update(): void {
    const next = deriveSessionState(this.facts());
    const planStep = currentPlanStep(this.thread.plan, this.thread.plans, this.thread.planCancelled);
    const prev = this._state;
    if (sameState(prev, next) && prev.detail === next.detail && prev.planStep === planStep) return;
    this._state = { ...next, since: sameState(prev, next) ? prev.since : this.now(), ...(planStep ? { planStep } : {}) };
    this._onDidChange.fire(this._state);
  }

  /** A turn starts: the last one's failure and unread end are over. A turn ends: unread unless it is on screen. */
  private statusChanged(): void {
    const was = this._status;
    const status = this.thread.status;
    this._status = status;
    if (status === 'working' && was !== 'awaitingPermission') {
      this._turnFailure = undefined;
      this._unread = false;
    }
    const ended = (was === 'working' || was === 'awaitingPermission') && status === 'idle';
    if (ended && !this._turnFailure && !this.host.isVisible()) this._unread = true;
  }

  private facts(): SessionFacts {
    const t = this.thread;
    return {
      status: t.status, error: t.error, errorAction: t.errorAction, unseenFailure: t.unseenFailure, readOnly: this._readOnly,
      login: this._login, elicitations: this.host.pendingElicitations(), turnFailure: this._turnFailure, unread: this._unread,
    };
  }

  dispose(): void {
    this._sub.dispose();
    this._onDidChange.dispose();
    this._onDidRequestFocus.dispose();
  }
}
