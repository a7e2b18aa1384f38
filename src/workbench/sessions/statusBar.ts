/**
 * The sessions status bar item: the active session's agent and its state (idle, working, awaiting
 * permission, disconnected). A crash stays on it, on the error background, until the user has seen it
 * (acted in that chat, or brought it to the front), even after an automatic restart made the session
 * idle again. A click opens Switch Session.
 */
import { untitledSession } from '../../shared/viewModel';
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { inert, inertText } from '../../shared/inertText';
import { commandIds } from '../../constants';

const labels: Record<string, { icon: string; text: string }> = {
  starting: { icon: 'loading~spin', text: 'starting' },
  idle: { icon: 'comment-discussion', text: 'idle' },
  working: { icon: 'sync~spin', text: 'working' },
  awaitingPermission: { icon: 'bell-dot', text: 'awaiting permission' },
  disconnected: { icon: 'debug-disconnect', text: 'disconnected' },
  error: { icon: 'error', text: 'error' },
};

/** Shows the active session's agent and state. */
export class SessionStatusBar implements vscode.Disposable {
  private readonly _item = vscode.window.createStatusBarItem('switchboard.session', vscode.StatusBarAlignment.Left, 100);
  private _sub: { dispose(): void } | undefined;
  private _session: AgentSession | undefined;

  constructor(private readonly active: () => AgentSession | undefined, private readonly isReadOnly: (sessionId: string) => boolean) {
    this._item.name = 'Switchboard Session';
    this._item.command = { command: commandIds.switchSession, title: 'Switch Session…' };
    this.update();
  }

  /** Follows the active session (call when panels or sessions change). */
  update(): void {
    const s = this.active();
    if (s !== this._session) {
      this._sub?.dispose();
      this._session = s;
      this._sub = s?.thread.onDidChange((c) => { if (c.type === 'status' || c.type === 'title') this.render(); });
    }
    this.render();
  }

  private render(): void {
    const s = this._session;
    if (!s) return this._item.hide();
    const readOnly = this.isReadOnly(s.key);
    const failure = s.thread.unseenFailure;
    const l = failure ? { icon: 'error', text: s.thread.status === 'idle' ? 'crashed, restarted' : 'crashed' }
      : readOnly ? { icon: 'lock', text: 'read-only' }
      : labels[s.thread.status] ?? { icon: 'comment-discussion', text: s.thread.status };
    this._item.text = inert.label`$(${l.icon}) ${s.host.displayName}: ${l.text}`;
    const details = [failure, s.thread.error].filter((d): d is string => !!d).map((d) => inertText(d, 'plain'));
    this._item.tooltip = [inert.plain`${s.thread.title || untitledSession} · ${s.host.displayName} (${l.text})`, ...details, 'Click to switch session'].join('\n');
    this._item.accessibilityInformation = { label: inert.plain`Switchboard session: ${s.host.displayName}, ${l.text}. Switch session.`, role: 'button' };
    this._item.backgroundColor = failure ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : s.thread.status === 'awaitingPermission' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this._item.show();
  }

  dispose(): void {
    this._sub?.dispose();
    this._item.dispose();
  }
}
