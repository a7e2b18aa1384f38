/**
 * Workspace trust (issue 5 item 9). In an untrusted workspace VS Code hides the workspace values of
 * `switchboard.agents` and `switchboard.mcpServers` (package.json `restrictedConfigurations`), so only the
 * user's own settings can start a program. This module says so once, when the workspace defines either,
 * and re-announces nothing after trust is granted (the registry reads the settings on each use, so the
 * workspace's agents simply appear).
 */
import * as vscode from 'vscode';

/** The restricted settings (under `switchboard`). */
export const restrictedSettings = ['agents', 'mcpServers'] as const;

/** The restricted settings the workspace (or a folder of it) defines, e.g. `['agents']`. */
export function workspaceDefinedSettings(): string[] {
  const config = vscode.workspace.getConfiguration('switchboard');
  return restrictedSettings.filter((key) => {
    const i = config.inspect(key);
    return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  });
}

/** The notice text for untrusted workspaces that define agents or MCP servers, or undefined. */
export function untrustedNotice(): string | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  const defined = workspaceDefinedSettings();
  if (!defined.length) return undefined;
  const what = defined.map((k) => (k === 'agents' ? 'agent definitions' : 'MCP servers')).join(' and ');
  return `This workspace is not trusted, so Switchboard ignores the ${what} in its settings (${defined.map((k) => `switchboard.${k}`).join(', ')}). Only your user settings and the Demo agent are used. Trust the workspace to use them.`;
}

/** Shows {@link untrustedNotice} once per window, and logs it. */
export class WorkspaceTrustNotice implements vscode.Disposable {
  private _shown = false;
  private readonly _subscriptions: vscode.Disposable[] = [];

  constructor(private readonly log: vscode.LogOutputChannel) {
    this._subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => {
      this.log.info('workspace trusted: agent definitions and MCP servers from the workspace settings are used now');
    }));
  }

  /** The text shown (or that would be shown), for tests. */
  get text(): string | undefined {
    return untrustedNotice();
  }

  /** Shows the notice if it applies and was not shown yet in this window. */
  showIfNeeded(): void {
    if (this._shown) return;
    const text = untrustedNotice();
    if (!text) return;
    this._shown = true;
    this.log.warn(text);
    void vscode.window.showWarningMessage(text, 'Manage Workspace Trust').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  }

  dispose(): void {
    this._subscriptions.splice(0).forEach((d) => d.dispose());
  }
}
