/**
 * Starting a session in a worktree of its own (docs/worktrees.md): `ACP: Start Session in Worktree…`, a preset with
 * `"worktree": true`, and each run of Ask Several Agents. The worktree is made before the agent is asked for the
 * session, so the session's `cwd` (and with it its only root, its checkpoints and its audit) is the worktree; its
 * branch is named after the first prompt once there is one.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import type { AgentSession } from '../../host/agentSession';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import type { SessionManager } from '../../host/sessionManager';
import { inert, inertText } from '../../shared/inertText';
import { WorktreeGitError } from '../../worktrees/worktreeGit';
import type { WorktreeRecord } from '../../worktrees/worktreeRecords';
import { showStartError } from '../agents/startError';
import { errorText, WorktreeUserError, type WorktreeService } from './worktreeService';

/** What starting a worktree session needs. */
export interface WorktreeSessionDeps {
  readonly registry: AgentRegistry;
  readonly sessions: SessionManager;
  readonly worktrees: WorktreeService;
  readonly openChat: (session: AgentSession) => void;
}

/** The name a worktree's branch has until the session's first prompt names it. */
const unnamed = 'new session';

/**
 * Makes a worktree of the workspace's folder, then a session of `def` in it, tied to its record. `name` names the
 * branch (absent: renamed after the first prompt). Throws what went wrong (git's words for a git failure).
 */
export async function sessionInWorktree(deps: WorktreeSessionDeps, def: AgentDefinition, o: { readonly name?: string; readonly fanOutId?: string; readonly mcpServers?: readonly string[] } = {}, token?: vscode.CancellationToken): Promise<{ session: AgentSession; record: WorktreeRecord }> {
  const { record, cwd } = await deps.worktrees.create(deps.sessions.defaultCwd(), { name: o.name ?? unnamed, agentId: def.id, ...(o.fanOutId ? { fanOutId: o.fanOutId } : {}) });
  let session: AgentSession;
  try {
    session = await deps.sessions.newSession(def, cwd, token, o.mcpServers ? { mcpServers: o.mcpServers } : {});
  } catch (error) {
    // the agent did not start: the worktree stays (nothing is deleted without asking); Discard removes it
    deps.worktrees.log.warn(`worktrees: ${record.branch} has no session: ${errorText(error)}`);
    throw error;
  }
  const bound = { ...record, sessionKey: session.key };
  await deps.worktrees.put(bound);
  if (!o.name) nameOnFirstPrompt(deps.worktrees, session, bound);
  return { session, record: bound };
}

/** Renames the branch after the session's first prompt. */
function nameOnFirstPrompt(worktrees: WorktreeService, session: AgentSession, record: WorktreeRecord): void {
  const sub = session.thread.onDidChange((c) => {
    const entry = c.type === 'entry' ? session.thread.entries[c.index] : undefined;
    if (entry?.kind !== 'user') return;
    sub.dispose();
    // the prompt's own words (the session's title is made from them, a moment later)
    const text = entry.content.map((b) => (b.type === 'text' ? b.text : '')).join(' ');
    void worktrees.nameAfter(worktrees.records.worktrees().find((r) => r.id === record.id) ?? record, text);
  });
}

/** `ACP: Start Session in Worktree…`: picks the agent (or takes `agentId`), makes the worktree, opens the chat. */
export async function newSessionInWorktree(deps: WorktreeSessionDeps, agentId?: string): Promise<AgentSession | undefined> {
  let def = agentId ? deps.registry.get(agentId) : undefined;
  if (agentId && !def) throw new Error(`No agent with id '${agentId}' is configured.`);
  if (!def) {
    const pick = await vscode.window.showQuickPick(deps.registry.all().map((a) => ({ label: inertText(a.name, 'label'), agent: a })), {
      title: 'ACP: Start Session in Worktree', placeHolder: 'Choose the agent: it works on a new branch in a worktree of its own',
    });
    def = pick?.agent;
  }
  if (!def) return undefined;
  const agent = def;
  try {
    const { session } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inert.message`Making a worktree and starting ${agent.name}…`, cancellable: true },
      (_p, token) => sessionInWorktree(deps, agent, {}, token),
    );
    deps.openChat(session);
    return session;
  } catch (error) {
    if (error instanceof WorktreeUserError || WorktreeGitError.is(error)) void vscode.window.showErrorMessage(inert.message`Switchboard: no worktree was made. ${errorText(error)}`);
    else showStartError(agent, error, deps.sessions.logFor(agent));
    return undefined;
  }
}
