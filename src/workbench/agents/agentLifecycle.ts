/**
 * Registers the agent-lifecycle features: `ACP: Add Agent…`, `ACP: Restart Agent`, `ACP: Log Out` (with its context key),
 * the chat's continuation of sessions whose agent cannot resume them, and the untrusted-workspace notice.
 */
import * as vscode from 'vscode';
import type * as AddAgent from './addAgent';
import { logOut, updateLogOutContext } from './logOut';
import { canLogOutContextKey, commandIds } from '../../constants';
import { restartAgent } from './restartAgent';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import type { AgentSession } from '../../host/agentSession';
import type { SessionManager } from '../../host/sessionManager';
import { WorkspaceTrustNotice } from './workspaceTrust';

/** What the features need from activation. */
export interface AgentLifecycleDeps {
  readonly registry: AgentRegistry;
  readonly sessions: SessionManager;
  readonly log: vscode.LogOutputChannel;
  readonly activeSession: () => AgentSession | undefined;
  readonly openChat: (session: AgentSession) => void;
}

/** The registered features; dispose to unregister. */
export interface AgentLifecycle extends vscode.Disposable {
  readonly trustNotice: WorkspaceTrustNotice;
}

/** Registers the commands and listeners. */
export function registerAgentLifecycle(deps: AgentLifecycleDeps): AgentLifecycle {
  const { sessions } = deps;
  const trustNotice = new WorkspaceTrustNotice(deps.log);
  void trustNotice.showIfNeeded();
  void vscode.commands.executeCommand('setContext', canLogOutContextKey, false);
  const disposables: vscode.Disposable[] = [
    trustNotice,
    vscode.commands.registerCommand(commandIds.restartAgent, (target?: unknown) => restartAgent(deps, typeof target === 'string' ? target : undefined)),
    // returns the new agent's id, so that New Session can start it (as after Install Agent from Registry)
    vscode.commands.registerCommand(commandIds.addAgent, async (options?: unknown) => {
      const offerStart = !(options && typeof options === 'object' && (options as { offerStart?: unknown }).offerStart === false);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
      const { addAgent } = require('./addAgent') as typeof AddAgent;
      const added = await addAgent({ registry: deps.registry, secrets: () => sessions.secrets }, { offerStart });
      return added && { id: added.id };
    }),
    // the chat's Log Out button passes its session's key; the palette acts on the active chat
    vscode.commands.registerCommand(commandIds.logOut, (key?: unknown) => logOut(sessions, (typeof key === 'string' ? sessions.get(key) : undefined) ?? deps.activeSession())),
    sessions.onDidChangeSessions(() => updateLogOutContext(sessions)),
  ];
  return { trustNotice, dispose: () => disposables.splice(0).forEach((d) => d.dispose()) };
}
