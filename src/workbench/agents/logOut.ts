/**
 * `ACP: Log Out` (https://agentclientprotocol.com/protocol/initialization): sends `logout` to an agent that advertises
 * `agentCapabilities.auth.logout` (never otherwise), and forgets the values of its `env_var` login kept in
 * SecretStorage (the agent is restarted without them). The command is shown only while such an agent runs
 * (context key {@link canLogOutContextKey}). The chat's Log Out button runs it with its session's key.
 */
import * as vscode from 'vscode';
import { canLogOutContextKey } from '../../constants';
import type { AgentHost } from '../../host/agentHost';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';
import { inert, inertText } from '../../shared/inertText';

/** True while a running agent supports `logout` (the command's `when` clause). */


/** Whether an agent may be sent `logout`. */
export function canLogOut(host: AgentHost): boolean {
  return host.state === 'ready' && !!host.initializeResponse?.agentCapabilities?.auth?.logout;
}

/** Keeps the context key up to date with the running agents. */
export function updateLogOutContext(sessions: SessionManager): void {
  const any = sessions.sessions.some((s) => canLogOut(s.host));
  void vscode.commands.executeCommand('setContext', canLogOutContextKey, any);
}

/** Runs the command for the active session's agent, or one picked among those that support it. */
export async function logOut(sessions: SessionManager, active: AgentSession | undefined): Promise<boolean> {
  const hosts = [...new Map(sessions.sessions.map((s) => [s.host.definition.id, s.host])).values()].filter(canLogOut);
  let host = active && canLogOut(active.host) ? active.host : hosts.length === 1 ? hosts[0] : undefined;
  if (!host && hosts.length) {
    const pick = await vscode.window.showQuickPick(hosts.map((h) => ({ label: inertText(h.definition.name, 'label'), host: h })), { title: 'ACP: Log Out', placeHolder: 'Choose the agent to log out of' });
    host = pick?.host;
  }
  if (!host) {
    if (!hosts.length) void vscode.window.showInformationMessage('No running agent supports logging out.');
    return false;
  }
  const def = host.definition;
  try {
    await host.connection.request('logout', {});
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Could not log out of ${def.name}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  host.log.info('logged out');
  await sessions.accounts.refreshAuthStatus(host); // the chat's account chip follows (docs/acp-features.md#accounts-and-model-providers)
  const hadSecrets = (await sessions.secrets?.clear(def.id)) === true;
  // the values are in the running process's environment: restart it without them
  if (hadSecrets) await sessions.restartAgent(def, host.cwd).catch(() => undefined);
  void vscode.window.showInformationMessage(inert.message`Logged out of ${def.name}.${hadSecrets ? ' The stored keys were removed from the secret storage.' : ''}`);
  return true;
}
