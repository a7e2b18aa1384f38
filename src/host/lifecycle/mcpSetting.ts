/**
 * `switchboard.mcpServers` as each agent gets it: read from the settings at every session request, validated
 * (a bad entry is reported once, in the agent's log and a warning, and skipped), header and env values
 * masked (src/shared/secretMasker.ts), and http/sse servers left out unless the agent advertises them
 * (https://agentclientprotocol.com/protocol/session-setup#mcp-servers).
 */
import * as vscode from 'vscode';
import type { McpServer } from '../../acp/schema/types.gen';
import { inert } from '../../shared/inertText';
import type { AgentHost } from '../agentHost';
import type { Redactor } from '../auth/redactor';
import { filterMcpServers, mcpServersSetting, parseMcpServers } from './mcpServers';

/** Reads the MCP servers setting for an agent. */
export class McpServersSetting {
  private readonly _warned = new Set<string>();

  constructor(private readonly redactor: Redactor) {}

  /** The servers to pass to `host`'s agent. */
  for(host: AgentHost): McpServer[] {
    const { servers, errors, secrets } = parseMcpServers(vscode.workspace.getConfiguration('switchboard').get<unknown>(mcpServersSetting));
    this.redactor.addNamed(host.definition.id, secrets);
    for (const e of errors) {
      if (this._warned.has(e)) continue;
      this._warned.add(e);
      host.log.warn(e);
      void vscode.window.showWarningMessage(inert.message`Switchboard: ${e}`, 'Open Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.mcpServers');
      });
    }
    const filtered = filterMcpServers(servers, host.initializeResponse?.agentCapabilities?.mcpCapabilities);
    for (const line of filtered.dropped) host.log.info(line);
    return filtered.servers;
  }
}
