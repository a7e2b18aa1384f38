/**
 * A session's approval level in the workbench (docs/approvals.md, "The approval level"): ACP: Set Approval Level…
 * (also what the chat header's button and the status bar item run) and the status bar item that shows the active
 * session's level. The level itself is the session's permission broker's (src/shared/approvalLevel.ts).
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { levelInfo, levelsFor, levelView } from '../../shared/approvalLevel';
import type { ApprovalLevel } from '../../shared/approvalLevel';
import { inert } from '../../shared/inertText';
import { commandIds } from '../../constants';

interface LevelItem extends vscode.QuickPickItem {
  /** The level; undefined: the settings' level again. */
  readonly level: ApprovalLevel | undefined;
}

/**
 * Asks for the session's level (the current one is selected) and sets it; the choice is kept with the session. Resolves
 * with the level set, or undefined when the user closed the list.
 */
export async function setApprovalLevel(session: AgentSession | undefined): Promise<ApprovalLevel | undefined> {
  if (!session) {
    void vscode.window.showInformationMessage('Open a Switchboard chat first: the approval level is set for each session.');
    return undefined;
  }
  const broker = session.permissions;
  const current = broker.level;
  const fromSettings = broker.settingsLevel;
  const items: LevelItem[] = levelsFor(broker.isolated).map((level) => ({
    label: inert.label`$(${levelInfo[level].icon}) ${levelInfo[level].label}`,
    description: level === current ? (broker.chosenLevel ? 'current' : 'current, from your settings') : level === fromSettings ? 'your settings' : '',
    detail: levelInfo[level].detail,
    level,
  }));
  if (broker.chosenLevel) {
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, level: undefined }, {
      label: '$(settings) Follow the Settings', description: levelInfo[fromSettings].label, detail: 'switchboard.permissions.level: this session follows it when it changes', level: undefined,
    });
  }
  const pick = vscode.window.createQuickPick<LevelItem>();
  pick.title = inert.label`Approvals: ${session.thread.titles.shown} · ${session.host.displayName}`;
  pick.placeholder = 'How much Switchboard answers for you in this session (a deny rule always answers)';
  pick.items = items;
  pick.activeItems = items.filter((i) => i.level === current && i.kind !== vscode.QuickPickItemKind.Separator).slice(0, 1);
  const chosen = await new Promise<LevelItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return undefined;
  broker.setLevel(chosen.level);
  vscode.window.setStatusBarMessage(`Approvals: ${levelInfo[broker.level].label}${chosen.level ? '' : ' (your settings)'}`, 4000);
  return broker.level;
}

/** The status bar item of the active session's approval level: click to change it. */
export class ApprovalStatusBar implements vscode.Disposable {
  private readonly _item = vscode.window.createStatusBarItem('switchboard.approvals', vscode.StatusBarAlignment.Left, 98);
  private readonly _subscriptions: vscode.Disposable[];

  /** `onDidChange`: a session's level was chosen, or the sessions changed. */
  constructor(private readonly _active: () => AgentSession | undefined, onDidChange: vscode.Event<void>) {
    this._item.name = 'Switchboard: Approval Level';
    this._item.command = { command: commandIds.setApprovalLevel, title: 'Set Approval Level…' };
    this._subscriptions = [
      onDidChange(() => this.update()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.update()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('switchboard.permissions')) this.update(); }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
    ];
    this.update();
  }

  /** Re-renders for the active session (hidden when there is none). */
  update(): void {
    const session = this._active();
    if (!session) return this._item.hide();
    const level = session.permissions.level;
    const view = levelView(level);
    this._item.text = inert.label`$(${view.icon}) Approvals: ${view.label}`;
    this._item.tooltip = inert.plain`${view.title}\n${session.thread.titles.shown} · ${session.host.displayName}${session.permissions.chosenLevel ? '' : ' (the level of your settings)'}`;
    this._item.accessibilityInformation = { label: inert.plain`Approvals: ${levelInfo[level].label}. Change the approval level.`, role: 'button' };
    this._item.show();
  }

  dispose(): void {
    this._subscriptions.forEach((d) => d.dispose());
    this._item.dispose();
  }
}
