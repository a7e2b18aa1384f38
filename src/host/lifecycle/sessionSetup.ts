/**
 * The fields every `session/new`, `session/load` and `session/resume` carries: `cwd`, `mcpServers`
 * (McpServersSetting) and, only when the agent advertises `sessionCapabilities.additionalDirectories`, the
 * full list of `additionalDirectories` (sent again on every load and resume: an agent never restores it).
 * See docs/sessions.md "Session roots".
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { McpServer } from '../../acp/schema/types.gen';
import { inert } from '../../shared/inertText';
import type { AgentHost } from '../agentHost';
import { additionalDirectoriesFor, additionalDirectoriesSetting } from '../files/additionalDirectories';
import type { McpServersSetting } from './mcpSetting';
import { agentSupports } from './sessionCapabilities';

/** The shared part of the session setup requests. */
export type SessionSetup = {
  readonly cwd: string;
  readonly mcpServers: McpServer[];
  readonly additionalDirectories?: string[];
};

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** True when the agent takes `additionalDirectories` (the field is never sent otherwise). */
export function supportsAdditionalDirectories(host: AgentHost): boolean {
  return agentSupports(host, 'additionalDirectories');
}


/** Builds the setup fields from the settings at each request. */
export class SessionSetupFields {
  private readonly _warned = new Set<string>();

  constructor(private readonly mcp: McpServersSetting) {}

  /** What a session of `host` in `cwd` is opened with now. */
  for(host: AgentHost, cwd: string): SessionSetup {
    const mcpServers = this.mcp.for(host);
    if (!supportsAdditionalDirectories(host)) return { cwd, mcpServers };
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    // a restricted setting: in an untrusted workspace VS Code returns only the user's value
    const configured = vscode.workspace.getConfiguration('switchboard').get<unknown>(additionalDirectoriesSetting);
    const { directories, problems } = additionalDirectoriesFor(cwd, folders, configured, isDirectory);
    for (const problem of problems) {
      if (this._warned.has(problem)) continue;
      this._warned.add(problem);
      host.log.warn(problem);
      void vscode.window.showWarningMessage(inert.message`Switchboard: ${problem}`, 'Open Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', `switchboard.${additionalDirectoriesSetting}`);
      });
    }
    return { cwd, mcpServers, additionalDirectories: directories };
  }
}
