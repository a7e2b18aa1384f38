/**
 * Starting a session for New Session and a preset, with its chat's tab open while the agent starts
 * (src/chatHost/startingChat.ts), and the error notification of an agent that could not be started (also
 * Continue in New Session): a short message (src/agents/startFailure.ts), the full one in the agent log, and
 * buttons to it and to the setting.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import type { StartingChat } from '../../chatHost/startingChat';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';
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

/** What {@link startInChat} needs. */
export interface StartInChatDeps {
  readonly sessions: SessionManager;
  readonly openChat: (session: AgentSession, starting?: StartingChat) => void;
  /** Opens the new session's chat while its agent starts; absent or undefined: the chat opens once it started. */
  readonly startChat?: (agentName: string) => StartingChat | undefined;
}

/**
 * Runs `start` under a cancellable progress notification titled `progress`, with the chat's tab already open
 * (its page loads while the agent starts), then gives the session its chat; a start that fails or is cancelled
 * closes the tab and says why. `preset` names the preset it was started from.
 */
export async function startInChat(deps: StartInChatDeps, agent: AgentDefinition, progress: string, start: (token: vscode.CancellationToken) => Promise<AgentSession>, preset?: string): Promise<AgentSession | undefined> {
  const starting = deps.startChat?.(agent.name);
  try {
    const session = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: progress, cancellable: true }, (_p, token) => start(token));
    deps.openChat(session, starting);
    return session;
  } catch (error) {
    starting?.dispose();
    showStartError(agent, error, deps.sessions.logFor(agent), preset);
    return undefined;
  }
}
