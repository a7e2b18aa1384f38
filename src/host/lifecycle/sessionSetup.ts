/**
 * The fields every `session/new`, `session/load` and `session/resume` carries: `cwd`, `mcpServers`
 * (McpServersSetting) and, only when the agent advertises `sessionCapabilities.additionalDirectories`, the
 * full list of `additionalDirectories` (sent again on every load and resume: an agent never restores it).
 * See docs/sessions.md "Session roots". The editor's own MCP server joins `mcpServers`, with a grant of its own per
 * setup (docs/editor-tools.md); `applySetup` (editorTools/editorToolsPart.ts) gives the grant to the
 * session that the setup opened.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { McpServer } from '../../acp/schema/types.gen';
import { inert } from '../../shared/inertText';
import type { AgentHost } from '../agentHost';
import { additionalDirectoriesFor, additionalDirectoriesSetting } from '../files/additionalDirectories';
import { editorGrantKey, type EditorGrant } from './editorTools/grant';
import type { EditorMcp } from './editorTools/editorMcp';
export type { EditorMcp } from './editorTools/editorMcp';
import type { Redactor } from '../auth/redactor';
import { filterMcpServers } from './mcpServers';
import { McpServersSetting } from './mcpSetting';
import { agentSupports } from './sessionCapabilities';

/** The shared part of the session setup requests. */
export type SessionSetup = {
  readonly cwd: string;
  readonly mcpServers: McpServer[];
  readonly additionalDirectories?: string[];
  /** The editor tools' grant of this setup (a symbol key: copied by spreads, never sent). */
  readonly [editorGrantKey]?: EditorGrant;
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

  private readonly mcp: McpServersSetting;

  /** `isolated`: true for a folder whose sessions get it as their only root (a worktree of their own: docs/worktrees.md). */
  constructor(redactor: Redactor, private readonly editorTools?: EditorMcp, private readonly isolated: (cwd: string) => boolean = () => false) {
    this.mcp = new McpServersSetting(redactor);
  }

  /**
   * What a session of `host` in `cwd` is opened with now, the editor's MCP server included unless turned off;
   * `only` (a preset's) names the servers of `switchboard.mcpServers` it gets (absent: all).
   */
  async for(host: AgentHost, cwd: string, only?: readonly string[]): Promise<SessionSetup> {
    const all = this.fields(host, cwd);
    const own = only ? { ...all, mcpServers: all.mcpServers.filter((m) => only.includes(m.name)) } : all;
    // VS Code's own MCP servers and the editor's tools are this machine's: not for an agent elsewhere (docs/remote-agents.md)
    if (host.definition.transport) return own;
    const setup = { ...own, mcpServers: [...own.mcpServers, ...await this.fromVsCode(host, own.mcpServers)] };
    if (!this.editorTools?.enabled(host.definition.id)) return setup;
    const roots = [cwd, ...(setup.additionalDirectories ?? [])];
    const caps = host.initializeResponse?.agentCapabilities?.mcpCapabilities;
    const http = caps?.http === true;
    const acp = caps?.acp === true ? { owner: host.connection } : undefined; // MCP over ACP (UNSTABLE), when advertised
    try {
      const { server, grant } = await this.editorTools.serverFor({ id: host.definition.id, http, ...(acp ? { acp } : {}) }, cwd, roots, setup.mcpServers.map((m) => m.name));
      host.log.info(`editor tools: offered as MCP server "${server.name}" over ${acp ? 'the ACP connection' : http ? 'HTTP' : 'stdio'} (log: ${grant.logFile})`);
      return { ...setup, mcpServers: [...setup.mcpServers, server], [editorGrantKey]: grant };
    } catch (error) {
      host.log.warn(`editor tools: not offered: ${error instanceof Error ? error.message : String(error)}`);
      return setup;
    }
  }

  /** VS Code's own MCP servers that the agent gets and takes, after the user's of the same name. */
  private async fromVsCode(host: AgentHost, taken: readonly McpServer[]): Promise<McpServer[]> {
    const vscodeMcp = this.editorTools?.vscodeServers;
    if (!vscodeMcp) return [];
    try {
      const servers = (await vscodeMcp.for(host.definition.id, host.log)).filter((s) => !taken.some((t) => t.name === s.name));
      const { servers: kept, dropped } = filterMcpServers(servers, host.initializeResponse?.agentCapabilities?.mcpCapabilities);
      for (const line of dropped) host.log.info(line);
      if (kept.length) host.log.info(`VS Code's MCP servers: ${kept.map((s) => s.name).join(', ')}`);
      return kept;
    } catch (error) {
      host.log.warn(`VS Code's MCP servers: not read: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  private fields(host: AgentHost, cwd: string): SessionSetup {
    const mcpServers = this.mcp.for(host);
    // an agent on another machine works in its folder there, with the servers of switchboard.mcpServers (it starts them there)
    const remote = host.definition.transport;
    if (remote) return { cwd: remote.cwd, mcpServers };
    if (!supportsAdditionalDirectories(host) || this.isolated(cwd)) return { cwd, mcpServers };
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
