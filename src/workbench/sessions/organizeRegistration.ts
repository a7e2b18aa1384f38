/**
 * Registers Fork, Rename, Archive and Unarchive Session (organizeCommands.ts), Rename with F2 and Archive with
 * Delete in the Sessions view (its focused row: sessionsTreeFocus.ts), and the view's Archived filter (Show / Hide Archived Sessions in its title bar), and
 * gives the tests the same operations without the pickers.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { commandIds } from '../../constants';
import { sessionKey } from '../../host/sessionKey';
import { archiveSessionCommand, forkSessionCommand, openSessionOf, organizeTarget, renameSessionCommand, unarchiveSessionCommand } from './organizeCommands';
import type { SessionCommandDeps, SessionTarget } from './sessionCommands';
import type { SessionsNode, SessionsTreeProvider } from './sessionsTreeView';
import { focusedNode } from './sessionsTreeFocus';

/** How a change went on the agent's side (the client's copy changed either way). */
export interface OrganizeOutcome {
  /** `told`: the agent has it too; `local`: it cannot, or is not running; `failed`: it refused (`error`). */
  readonly agent: 'told' | 'local' | 'failed';
  readonly error?: string;
}

/** Fork, Rename, Archive and Unarchive for tests (part of the extension API). */
export interface OrganizeApi {
  /** Forks an open session (`session/fork`), opens the fork's chat, returns its session id; rejects saying why it cannot. */
  forkSession(sessionId: string): Promise<string>;
  /** Renames a session (kept by Switchboard; `session/set_title` when the agent supports it); resolves to the title shown. */
  renameSession(agentId: string, sessionId: string, title: string): Promise<OrganizeOutcome & { title: string }>;
  /** Archives a session (its chat closes), as the Sessions view does. */
  archiveSession(agentId: string, sessionId: string): Promise<OrganizeOutcome>;
  /** Unarchives a session. */
  unarchiveSession(agentId: string, sessionId: string): Promise<OrganizeOutcome>;
}

/** The commands' disposables and the test API. */
export function registerOrganizeCommands(
  deps: SessionCommandDeps, tree: SessionsTreeProvider, treeView: vscode.TreeView<SessionsNode>, active: () => AgentSession | undefined,
): { disposables: vscode.Disposable[]; api: OrganizeApi } {
  const target = (arg: unknown): SessionTarget | undefined => organizeTarget(deps, arg, active());
  const disposables = [
    vscode.commands.registerCommand(commandIds.forkSession, async (arg?: unknown) => { await forkSessionCommand(deps, openSessionOf(deps, arg, active())); }),
    vscode.commands.registerCommand(commandIds.renameSession, async (arg?: unknown) => { await renameSessionCommand(deps, target(arg)); }),
    // F2 in the Sessions view: a keybinding gets no argument, so the view's focused row is the session
    vscode.commands.registerCommand(commandIds.renameSelectedSession, async () => {
      const node = await focusedNode(treeView);
      if (node?.type !== 'session') return void vscode.window.showInformationMessage('Select a session in the Sessions view to rename it.');
      await renameSessionCommand(deps, node.item);
    }),
    vscode.commands.registerCommand(commandIds.archiveSession, async (arg?: unknown) => { await archiveSessionCommand(deps, target(arg)); }),
    // Delete in the Sessions view archives the focused row (it can be unarchived; Delete Session… asks first)
    vscode.commands.registerCommand(commandIds.archiveSelectedSession, async () => {
      const node = await focusedNode(treeView);
      if (node?.type !== 'session' || node.item.archived) return;
      await archiveSessionCommand(deps, node.item);
    }),
    vscode.commands.registerCommand(commandIds.unarchiveSession, async (arg?: unknown) => { await unarchiveSessionCommand(deps, target(arg)); }),
    vscode.commands.registerCommand(commandIds.showArchivedSessions, () => tree.setShowArchived(true)),
    vscode.commands.registerCommand(commandIds.hideArchivedSessions, () => tree.setShowArchived(false)),
  ];
  const api: OrganizeApi = {
    forkSession: async (id) => {
      const fork = await deps.sessions.forkSession(id);
      deps.openChat(fork);
      return fork.sessionId;
    },
    renameSession: (agentId, sessionId, title) => deps.sessions.organizer.rename(agentId, sessionId, title),
    archiveSession: async (agentId, sessionId) => {
      deps.closeChat(sessionKey(agentId, sessionId));
      const outcome = await deps.sessions.organizer.archive(agentId, sessionId);
      await deps.setArchived?.(sessionKey(agentId, sessionId), true);
      return outcome;
    },
    unarchiveSession: async (agentId, sessionId) => {
      const outcome = await deps.sessions.organizer.unarchive(agentId, sessionId);
      await deps.setArchived?.(sessionKey(agentId, sessionId), false);
      return outcome;
    },
  };
  return { disposables, api };
}
