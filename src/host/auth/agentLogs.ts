/**
 * One log output channel per agent ("Switchboard: <agent>"), created on first use, with every line passed
 * through the redactor: secrets the agent's environment or MCP servers carry never reach the log
 * (see {@link AgentLogChannels}).
 */
import * as vscode from 'vscode';
import { inert } from '../../shared/inertText';
import { AgentLogChannels } from './redactor';
import type { Redactor } from './redactor';

/** The agents' log channels. */
export class AgentLogs extends AgentLogChannels implements vscode.Disposable {
  constructor(redactor: Redactor) {
    super(redactor, (agentName) => vscode.window.createOutputChannel(inert.plain`Switchboard: ${agentName}`, { log: true }));
  }
}
