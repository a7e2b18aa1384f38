/**
 * `ACP: Restart Agent`: restarts the agent of the active session (or of a session given by id, as the chat's
 * Restart button does, or one picked from the configured agents) and reopens its sessions: resume, else
 * load, else a new session (src/host/lifecycle/restart.ts). A manual restart also resets the automatic-restart count.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';
import { inert, inertText } from '../../shared/inertText';

/** What the command needs. */
export interface RestartAgentDeps {
  readonly registry: AgentRegistry;
  readonly sessions: SessionManager;
  readonly activeSession: () => AgentSession | undefined;
}

/** Runs the command; `target` is a session id or an agent id (chat button, tests). */
export async function restartAgent(deps: RestartAgentDeps, target?: string): Promise<boolean> {
  const session = target ? deps.sessions.get(target) : deps.activeSession();
  let def: AgentDefinition | undefined = session?.host.definition ?? (target ? deps.registry.get(target) : undefined);
  if (!def) {
    const running = new Set(deps.sessions.sessions.map((s) => s.host.definition.id));
    const pick = await vscode.window.showQuickPick(deps.registry.all().map((a) => ({ label: inertText(a.name, 'label'), description: running.has(a.id) ? 'has open sessions' : undefined, agent: a })),
      { title: 'ACP: Restart Agent', placeHolder: 'Choose the agent to restart' });
    def = pick?.agent;
  }
  if (!def) return false;
  const agent = def;
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: inert.message`Restarting ${agent.name}…` },
      () => deps.sessions.restartAgent(agent, session?.cwd));
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(inert.message`Could not restart ${agent.name}: ${message}`, 'Show Agent Log').then((choice) => {
      if (choice) deps.sessions.logFor(agent).show(true);
    });
    return false;
  }
}
