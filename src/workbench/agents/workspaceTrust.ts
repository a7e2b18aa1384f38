/**
 * Workspace trust: opening a folder must not be enough to make it run a program. In an untrusted
 * workspace VS Code hides the workspace values of
 * `switchboard.agents` and `switchboard.mcpServers` (package.json `restrictedConfigurations`), so only the
 * user's own settings can start a program. This module says so once, when the workspace defines either,
 * and re-announces nothing after trust is granted (the registry reads the settings on each use, so the
 * workspace's agents simply appear).
 *
 * VS Code hides those values from `inspect()` too while the workspace is untrusted, so the notice reads
 * the workspace's settings files themselves (`.vscode/settings.json` of each folder, and the
 * `.code-workspace` file's `settings`) to find out whether they define either.
 */
import * as vscode from 'vscode';
import { parseJsonc } from '../../host/lifecycle/jsonc';
import { inertText } from '../../shared/inertText';

/** The restricted settings (under `switchboard`). */
export const restrictedSettings = ['agents', 'mcpServers'] as const;

/** The restricted settings that `inspect()` reports as set by the workspace or a folder, e.g. `['agents']`. */
export function workspaceDefinedSettings(): string[] {
  const config = vscode.workspace.getConfiguration('switchboard');
  return restrictedSettings.filter((key) => {
    const i = config.inspect(key);
    return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  });
}

/**
 * The settings objects of the workspace's own files: each folder's `.vscode/settings.json`, and the
 * `settings` of the `.code-workspace` file when there is one. Missing or unparsable files are skipped.
 */
async function workspaceSettingsFiles(): Promise<Record<string, unknown>[]> {
  const read = async (uri: vscode.Uri): Promise<unknown> => {
    try {
      return parseJsonc(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    } catch {
      return undefined;
    }
  };
  const found: unknown[] = await Promise.all((vscode.workspace.workspaceFolders ?? [])
    .map((f) => read(vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'))));
  const file = vscode.workspace.workspaceFile;
  if (file && file.scheme !== 'untitled') {
    const ws = await read(file);
    if (isRecord(ws)) found.push(ws.settings);
  }
  return found.filter(isRecord);
}

/**
 * The restricted settings the workspace defines, by `inspect()` or else by its settings files (which is
 * what works while the workspace is untrusted), e.g. `['agents', 'mcpServers']`.
 */
export async function workspaceDefinedSettingsInFiles(): Promise<string[]> {
  const byInspect = workspaceDefinedSettings();
  const files = await workspaceSettingsFiles();
  return restrictedSettings.filter((key) => byInspect.includes(key)
    || files.some((s) => s[`switchboard.${key}`] !== undefined || (isRecord(s.switchboard) && s.switchboard[key] !== undefined)));
}

/** @param v anything */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The notice text for untrusted workspaces that define agents or MCP servers, or undefined. */
export async function untrustedNotice(): Promise<string | undefined> {
  if (vscode.workspace.isTrusted) return undefined;
  const defined = await workspaceDefinedSettingsInFiles();
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
  get text(): Promise<string | undefined> {
    return untrustedNotice();
  }

  /** Shows the notice if it applies and was not shown yet in this window. */
  async showIfNeeded(): Promise<void> {
    if (this._shown) return;
    const text = await untrustedNotice();
    if (!text || this._shown) return;
    this._shown = true;
    this.log.warn(text);
    void vscode.window.showWarningMessage(inertText(text, 'message', 600), 'Manage Workspace Trust').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  }

  dispose(): void {
    this._subscriptions.splice(0).forEach((d) => d.dispose());
  }
}
