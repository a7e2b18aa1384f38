/**
 * VS Code's MCP servers for agents (docs/editor-tools.md, "VS Code's MCP servers"): read at every session request
 * from the user's `mcp.json` (next to the user's settings.json), the `mcp` setting, and, only in a trusted
 * workspace, each folder's `.vscode/mcp.json` and the workspace's `mcp` setting; inputs are asked once through
 * VS Code's input box and kept in SecretStorage; values are masked in every log; `switchboard.mcp.vscodeServers`
 * chooses per agent which servers it gets.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '../../acp/schema/types.gen';
import { inert } from '../../shared/inertText';
import type { Redactor } from '../auth/redactor';
import { stripJsonc } from './jsonc';
import { chosenFor, serverNames, vscodeMcpServers, type McpConfigSource, type McpInput } from './vscodeMcpConfig';

/** The setting that chooses which of VS Code's MCP servers each agent gets. */
export const vscodeServersSetting = 'mcp.vscodeServers';

/** Reads VS Code's MCP configuration for the agents. */
export class VsCodeMcp {
  private readonly _warned = new Set<string>();

  constructor(private readonly deps: { readonly userDir: string; readonly secrets: vscode.SecretStorage; readonly redactor: Pick<Redactor, 'addNamed'> }) {}

  /** The servers `agentId` gets now (before the agent's transports are checked), and what was left out. */
  async for(agentId: string, log: vscode.LogOutputChannel): Promise<McpServer[]> {
    const read: string[] = [];
    const sources = this.sources(read);
    const { servers, errors, secrets } = await vscodeMcpServers(sources, {
      input: (input, source, server) => this.input(input, source, server), env: process.env, home: os.homedir(),
    });
    this.deps.redactor.addNamed(agentId, secrets);
    for (const e of [...read, ...errors]) {
      if (this._warned.has(e)) continue;
      this._warned.add(e);
      log.warn(e);
      void vscode.window.showWarningMessage(inert.message`Switchboard: ${e}`);
    }
    const chosen = chosenFor(vscode.workspace.getConfiguration('switchboard').get<unknown>(vscodeServersSetting), agentId, servers.map((s) => s.name));
    return servers.filter((s) => chosen.includes(s.name)).map(({ scope: _scope, ...s }) => s);
  }

  /** The servers VS Code's configuration names now (nothing resolved, nothing asked), with where each is. */
  names(): { readonly name: string; readonly label: string }[] {
    return serverNames(this.sources([]));
  }

  /** Where VS Code keeps its MCP configuration; a workspace's only when it is trusted. */
  private sources(problems: string[]): McpConfigSource[] {
    const file = (scope: 'user' | 'workspace', p: string, folder?: string): McpConfigSource | undefined => {
      if (!fs.existsSync(p)) return undefined;
      try {
        return { scope, label: p, value: JSON.parse(stripJsonc(fs.readFileSync(p, 'utf8'))) as unknown, ...(folder ? { folder } : {}) };
      } catch (error) {
        problems.push(`${p}: not read: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    };
    const setting = vscode.workspace.getConfiguration().inspect<unknown>('mcp');
    const first = vscode.workspace.workspaceFolders?.[0]?.uri;
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const sources: (McpConfigSource | undefined)[] = [
      file('user', path.join(this.deps.userDir, 'mcp.json')),
      { scope: 'user', label: 'the mcp setting (user)', value: setting?.globalValue, ...(first?.scheme === 'file' ? { folder: first.fsPath } : {}) },
    ];
    if (vscode.workspace.isTrusted) {
      sources.push(...folders.map((f) => file('workspace', path.join(f.uri.fsPath, '.vscode', 'mcp.json'), f.uri.fsPath)));
      sources.push({ scope: 'workspace', label: 'the mcp setting (workspace)', value: setting?.workspaceValue, ...(first?.scheme === 'file' ? { folder: first.fsPath } : {}) });
    }
    return sources.filter((s): s is McpConfigSource => s !== undefined);
  }

  /** An input's value: kept from an earlier answer, or asked once. */
  private async input(input: McpInput, source: McpConfigSource, server: string): Promise<string | undefined> {
    const key = `switchboard.vscodeMcpInput.${source.scope}.${input.id}`;
    const kept = await this.deps.secrets.get(key);
    if (kept !== undefined) return kept;
    const value = await vscode.window.showInputBox({
      title: inert.label`MCP server "${server}" for an agent`, prompt: inert.label`${input.description} (${source.label}; kept in VS Code's secret storage)`,
      password: input.password, ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    await this.deps.secrets.store(key, value);
    return value;
  }
}
