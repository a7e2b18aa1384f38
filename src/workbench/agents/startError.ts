/**
 * The error notification of an agent that could not be started (New Session, a preset, Continue in New
 * Session): a short message (src/agents/startFailure.ts), the full one in the agent log, and buttons to it
 * and to the setting.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { startFailure } from '../../agents/startFailure';
import { inert } from '../../shared/inertText';

/** Logs the whole error to the agent's log and shows the short one; `preset` names the preset it was started from. */
export function showStartError(agent: AgentDefinition, error: unknown, log: vscode.LogOutputChannel, preset?: string): void {
  log.error(`could not start a session: ${error instanceof Error ? error.message : String(error)}`);
  const why = startFailure(agent.name, error);
  const text = preset === undefined
    ? inert.message`Could not start ${agent.name}: ${why}`
    : inert.message`Could not start ${agent.name} from the preset "${preset}": ${why}`;
  void vscode.window.showErrorMessage(text, 'Show Agent Log', 'Open Settings').then((choice) => {
    if (choice === 'Show Agent Log') log.show(true);
    else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.agents');
  });
}
