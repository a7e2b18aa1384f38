/**
 * The agents a user can start: the built-in Demo agent (packaged, offline) plus `switchboard.agents`.
 * In an untrusted workspace VS Code itself hides workspace values of `switchboard.agents` (it is a
 * restricted setting in package.json), so only the user's own settings can start a program there.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { parseAgentDefinitions } from '../../agents/agentDefinition';
import { inert } from '../../shared/inertText';
import { demoSessionsDirEnv } from '../../constants';

/** Id of the built-in Demo agent. */
export const demoAgentId = 'demo';

/** Reads and validates the configured agents. */
export class AgentRegistry {
  private _warned = new Set<string>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    /** Agents installed from the ACP Registry; listed after `switchboard.agents` (an id used there wins). */
    private readonly installedAgents: () => readonly AgentDefinition[] = () => [],
    /** Where the Demo agent keeps its sessions (in the extension's global storage), so a reload can resume them. */
    private readonly demoSessionsDir?: string,
  ) {}

  /** The Demo agent: the packaged scripted agent, run by the extension host's own Node. */
  demoAgent(): AgentDefinition {
    return {
      id: demoAgentId,
      name: 'Demo agent',
      command: process.execPath,
      args: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'agents', 'demoAgent.js').fsPath],
      // VS Code desktop's execPath is Electron: make it behave as plain Node
      env: { ELECTRON_RUN_AS_NODE: '1', ...(this.demoSessionsDir ? { [demoSessionsDirEnv]: this.demoSessionsDir } : {}) },
    };
  }

  /** Every usable agent: the configured ones first, then those installed from the registry, then the Demo agent (unless an entry reuses its id). */
  all(): AgentDefinition[] {
    const raw = vscode.workspace.getConfiguration('switchboard').get<unknown>('agents', []);
    const { definitions, errors } = parseAgentDefinitions(raw);
    for (const e of errors) {
      if (this._warned.has(e.message)) continue;
      this._warned.add(e.message);
      this.log.warn(e.message);
      void vscode.window.showWarningMessage(inert.message`Switchboard: ${e.message}`, 'Open Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.agents');
      });
    }
    const ids = new Set(definitions.map((d) => d.id));
    const installed = this.installedAgents().filter((d) => !ids.has(d.id) && d.id !== demoAgentId);
    return definitions.some((d) => d.id === demoAgentId) ? [...definitions, ...installed] : [...definitions, ...installed, this.demoAgent()];
  }

  /** One agent by id. */
  get(id: string): AgentDefinition | undefined {
    return this.all().find((d) => d.id === id);
  }
}
