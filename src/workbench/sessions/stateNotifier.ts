/**
 * Notifications about sessions the user cannot see (docs/sessions.md "A home for all sessions"): when a
 * session whose chat is not on screen finishes a turn, fails, or starts waiting for a login, a notification says
 * so with **Go To** (its chat opens; a pending request takes the focus). A permission request or a question of a
 * hidden session has its own notification or quick input already (permissionEnvironment.ts,
 * elicitationEnvironment.ts), so it gets no second one. Rate-limited: one per session per 30 s, at most three a
 * minute (src/shared/rateLimit.ts); what is held back then is said once, at the end of the window, in one summary.
 * `switchboard.notifications.sessionState: false` silences them.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';
import { inert } from '../../shared/inertText';
import type { SessionStateView } from '../../shared/sessionState';
import { commandIds } from '../../constants';
import { NotificationLimit } from '../../shared/rateLimit';

/** The setting that silences these notifications. */
export const sessionStateNotificationsSetting = 'switchboard.notifications.sessionState';

/** What a notification is about: the kinds that are announced, with their words. */
export function announcement(state: SessionStateView): string | undefined {
  switch (state.kind) {
    case 'unread': return 'finished';
    case 'failed': return state.detail ? `failed: ${state.detail}` : 'failed';
    case 'waiting': return state.reason === 'login' ? 'is waiting for you to log in' : undefined;
    default: return undefined;
  }
}

/** Watches every open session's state and notifies about the hidden ones. */
export class SessionStateNotifier implements vscode.Disposable {
  private readonly _subs = new Map<AgentSession, vscode.Disposable>();
  // one per session per 30 s, three a minute (the rest in one summary)
  private readonly _limit = new NotificationLimit(30_000, 60_000, 3);
  private readonly _held = new Set<AgentSession>();
  private _summaryTimer: NodeJS.Timeout | undefined;
  private readonly _disposables: vscode.Disposable[] = [];

  constructor(private readonly sessions: SessionManager, private readonly isVisible: (key: string) => boolean, private readonly openChat: (s: AgentSession) => void) {
    this._disposables.push(sessions.onDidChangeSessions(() => this.follow()));
    this.follow();
  }

  private follow(): void {
    const open = new Set(this.sessions.sessions);
    for (const [s, sub] of this._subs) if (!open.has(s)) { sub.dispose(); this._subs.delete(s); this._held.delete(s); }
    for (const s of open) {
      if (this._subs.has(s)) continue;
      let kind = s.activity.state.kind;
      this._subs.set(s, s.activity.onDidChange((state) => {
        const entered = state.kind !== kind;
        kind = state.kind;
        if (entered) this.changed(s, state);
      }));
    }
  }

  private changed(s: AgentSession, state: SessionStateView): void {
    const what = announcement(state);
    if (!what || this.isVisible(s.key) || !vscode.workspace.getConfiguration().get<boolean>(sessionStateNotificationsSetting, true)) return;
    if (!this._limit.take(s.key, Date.now())) {
      this._held.add(s);
      this._summaryTimer ??= setTimeout(() => this.summary(), Math.max(1000, this._limit.nextFree(Date.now())));
      return;
    }
    const title = s.thread.titles.shown;
    const message = inert.message`"${title}" (${s.host.displayName}) ${what}.`;
    const shown = state.kind === 'failed' ? vscode.window.showErrorMessage(message, 'Go To') : vscode.window.showInformationMessage(message, 'Go To');
    void shown.then((pick) => {
      if (pick !== 'Go To' || !this.sessions.sessions.includes(s)) return;
      this.openChat(s);
      if (s.activity.state.kind === 'waiting') s.activity.requestFocus();
    });
  }

  /** The sessions held back by the rate limit, in one notification that opens Switch Session. */
  private summary(): void {
    this._summaryTimer = undefined;
    const held = [...this._held].filter((s) => this.sessions.sessions.includes(s) && !this.isVisible(s.key) && announcement(s.activity.state));
    this._held.clear();
    if (!held.length) return;
    void vscode.window.showInformationMessage(inert.message`${held.length} more Switchboard session${held.length === 1 ? '' : 's'} finished or need you.`, 'Switch Session…').then((pick) => {
      if (pick) void vscode.commands.executeCommand(commandIds.switchSession);
    });
  }

  dispose(): void {
    if (this._summaryTimer) clearTimeout(this._summaryTimer);
    for (const sub of this._subs.values()) sub.dispose();
    this._subs.clear();
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}
