/**
 * One log output channel per agent ("Switchboard: <agent>"), created on first use, with every line passed
 * through the redactor: secrets the agent's environment or MCP headers carry never reach the log.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { inert } from '../../shared/inertText';
import { redactingLog } from './redactor';
import type { Redactor } from './redactor';

/** The agents' log channels. */
export class AgentLogs implements vscode.Disposable {
  private readonly _logs = new Map<string, vscode.LogOutputChannel>();

  constructor(private readonly redactor: Redactor) {}

  /** The log channel of an agent. */
  for(def: Pick<AgentDefinition, 'id' | 'name'>): vscode.LogOutputChannel {
    let log = this._logs.get(def.id);
    if (!log) {
      log = redactingLog(vscode.window.createOutputChannel(inert.plain`Switchboard: ${def.name}`, { log: true }), this.redactor);
      this._logs.set(def.id, log);
    }
    return log;
  }

  dispose(): void {
    for (const l of this._logs.values()) l.dispose();
    this._logs.clear();
  }
}
