/**
 * The sessions status bar items. The first shows the active session's agent and its live state
 * (src/shared/sessionState.ts: streaming, waiting for you, failed, finished and unread, idle) and how long it has
 * been so; a crash stays on it, on the error background, until the user has seen it (acted in that chat, or
 * brought it to the front), even after an automatic restart made the session idle again. A click opens Switch
 * Session. The second appears while other sessions wait for you ("2 waiting"), and jumps to the next one.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { inert, inertText } from '../../shared/inertText';
import { duration, stateIcon, stateLabel, stateWords } from '../../shared/sessionState';
import { commandIds } from '../../constants';

/** Shows the active session's agent and state, and how many sessions wait for the user. */
export class SessionStatusBar implements vscode.Disposable {
  private readonly _item = vscode.window.createStatusBarItem('switchboard.session', vscode.StatusBarAlignment.Left, 100);
  private readonly _waiting = vscode.window.createStatusBarItem('switchboard.waiting', vscode.StatusBarAlignment.Left, 99);
  private _subs: { dispose(): void }[] = [];
  private _session: AgentSession | undefined;

  constructor(private readonly active: () => AgentSession | undefined, private readonly isReadOnly: (sessionId: string) => boolean, private readonly all: () => readonly AgentSession[]) {
    this._item.name = 'Switchboard Session';
    this._item.command = { command: commandIds.switchSession, title: 'Switch Session…' };
    this._waiting.name = 'Switchboard Sessions Waiting for You';
    this._waiting.command = { command: commandIds.nextWaitingSession, title: 'Go to the Next Session Waiting for You' };
    this.update();
  }

  /** Follows the active session and every session's state (call when chats or sessions change). */
  update(): void {
    this._session = this.active();
    this._subs.splice(0).forEach((d) => d.dispose());
    for (const s of this.all()) {
      this._subs.push(s.activity.onDidChange(() => this.render()));
      if (s === this._session) this._subs.push(s.thread.onDidChange((c) => { if (c.type === 'status' || c.type === 'title') this.render(); }));
    }
    this.render();
  }

  private render(): void {
    this.renderWaiting();
    const s = this._session;
    if (!s) return this._item.hide();
    const state = s.activity.state;
    const failure = s.thread.unseenFailure;
    const l = failure ? { icon: 'error', text: s.thread.status === 'idle' ? 'crashed, restarted' : 'crashed' }
      : this.isReadOnly(s.key) ? { icon: 'lock', text: 'read-only' }
      : { icon: stateIcon(state), text: stateWords(state) };
    this._item.text = inert.label`$(${l.icon}) ${s.host.displayName}: ${l.text}`;
    const details = [failure, s.thread.error, state.planStep && `Step: ${state.planStep}`].filter((d): d is string => !!d).map((d) => inertText(d, 'plain'));
    const since = `for ${duration(Date.now() - state.since)}`;
    this._item.tooltip = [inert.plain`${s.thread.titles.shown} · ${s.host.displayName} (${l.text} ${since})`, ...details, 'Click to switch session'].join('\n');
    this._item.accessibilityInformation = { label: inert.plain`Switchboard session: ${s.host.displayName}, ${l.text}. Switch session.`, role: 'button' };
    this._item.backgroundColor = failure || state.kind === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : state.kind === 'waiting' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this._item.show();
  }

  /** "2 waiting": the sessions that wait for the user, the active one included (its chat may be scrolled away). */
  private renderWaiting(): void {
    const waiting = this.all().filter((s) => s.activity.state.kind === 'waiting');
    if (!waiting.length) return this._waiting.hide();
    this._waiting.text = inert.label`$(bell-dot) ${waiting.length} waiting`;
    this._waiting.tooltip = ['Waiting for you (click: go to the next one):', ...waiting.map((s) => inert.plain`${s.thread.titles.shown} · ${s.host.displayName}: ${stateLabel(s.activity.state)}`)].join('\n');
    this._waiting.accessibilityInformation = { label: inert.plain`${waiting.length} Switchboard sessions waiting for you. Go to the next one.`, role: 'button' };
    this._waiting.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this._waiting.show();
  }

  dispose(): void {
    this._subs.splice(0).forEach((d) => d.dispose());
    this._item.dispose();
    this._waiting.dispose();
  }
}
