/**
 * The status-bar indicator of Follow Agent for the active session (src/host/follow/followAgent.ts): on or
 * off, click to toggle; hidden when no session is active.
 */
import * as vscode from 'vscode';
import type { FollowAgent } from '../../host/follow/followAgent';
import { inert } from '../../shared/inertText';
import { commandIds } from '../../constants';

/** The status-bar indicator of Follow Agent for the active session: on or off, click to toggle. */
export class FollowStatusBar implements vscode.Disposable {
  private readonly _item = vscode.window.createStatusBarItem('switchboard.followAgent', vscode.StatusBarAlignment.Right, 100);
  private readonly _subscriptions: vscode.Disposable[];

  /** `onDidToggle`: Follow Agent was turned on or off in any session. */
  constructor(private readonly _active: () => FollowAgent | undefined, onDidToggle: vscode.Event<void>) {
    this._item.name = 'Switchboard: Follow Agent';
    this._item.command = commandIds.followAgent;
    this._subscriptions = [
      onDidToggle(() => this.update()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.update()),
    ];
    this.update();
  }

  /** Re-renders for the active session (hidden when there is none). */
  update(): void {
    const follow = this._active();
    if (!follow) {
      this._item.hide();
      return;
    }
    const on = follow.enabled;
    this._item.text = on ? '$(eye) Following' : '$(eye-closed) Follow';
    this._item.tooltip = inert.plain`Follow Agent is ${on ? 'on' : 'off'} for ${follow.ctx.agentName}: click to turn it ${on ? 'off' : 'on'}.`;
    this._item.accessibilityInformation = { label: on ? 'Follow Agent, on' : 'Follow Agent, off', role: 'button' };
    this._item.show();
  }

  dispose(): void {
    this._subscriptions.forEach((d) => d.dispose());
    this._item.dispose();
  }
}
