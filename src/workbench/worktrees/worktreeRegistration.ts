/**
 * The worktree commands (docs/worktrees.md): Start Session in Worktree, Ask Several Agents, Show Agent Comparison,
 * and on a worktree (the Sessions view's row under a session, the palette): Open in New Window, Review Changes,
 * Commit, Merge, Complete Merge, Abort Merge, Discard.
 */
import * as vscode from 'vscode';
import { commandIds } from '../../constants';
import type { AgentSession } from '../../host/agentSession';
import { compareViewType } from '../../shared/compareView';
import type * as FanOut from './fanOut';
import type { FanOutDeps, FanOutRequest, FanOuts } from './fanOut';
import { abortMerge, completeMerge, mergeWorktree } from './mergeFlow';
import { archiveWorktree, commitWorktree, discardWorktree, openInNewWindow, unarchiveWorktree, registerGitFiles, reviewWorktree, worktreeTarget, type WorktreeCommandDeps } from './worktreeCommands';
import { newSessionInWorktree } from './worktreeSessions';
import type { WorktreeLookup, WorktreeService } from './worktreeService';

/** The command ids (package.json has each). */
export const worktreeCommandIds = {
  newSessionInWorktree: commandIds.newSessionInWorktree,
  askSeveralAgents: commandIds.askSeveralAgents,
  showComparison: commandIds.showAgentComparison,
  openInNewWindow: commandIds.worktreeOpenInNewWindow,
  review: commandIds.worktreeReview,
  commit: commandIds.worktreeCommit,
  merge: commandIds.worktreeMerge,
  completeMerge: commandIds.worktreeCompleteMerge,
  abortMerge: commandIds.worktreeAbortMerge,
  discard: commandIds.worktreeDiscard,
} as const;

/** What the extension API gives tests. */
export interface WorktreeApi {
  newSessionInWorktree(agentId: string): Promise<string>;
  askSeveralAgents(req: FanOutRequest): Promise<string | undefined>;
  worktreeOf(sessionId: string): { path: string; branch: string; baseBranch: string; state: string } | undefined;
}

/** Registers the commands; resolves nothing (a command's result is serialized back to the workbench). */
export function registerWorktrees(deps: FanOutDeps): { readonly disposables: vscode.Disposable[]; readonly api: WorktreeApi } {
  // Ask Several Agents and its compare views: their own bundle (esbuild.mjs, `lazyModules`), loaded and built at
  // the first command, API call or compare panel restored after a reload
  let built: FanOuts | undefined;
  const fanOuts = (): FanOuts => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
    built ??= new (require('./fanOut') as typeof FanOut).FanOuts(deps);
    return built;
  };
  const cmd: WorktreeCommandDeps = { sessions: deps.sessions, worktrees: deps.worktrees, activeSession: deps.activeSession };
  const on = (id: string, title: string, run: (r: NonNullable<Awaited<ReturnType<typeof worktreeTarget>>>) => Promise<unknown>, states?: Parameters<typeof worktreeTarget>[3]) =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      const record = await worktreeTarget(cmd, arg, title, states);
      if (record) await run(record);
    });
  const disposables: vscode.Disposable[] = [
    { dispose: () => built?.dispose() },
    vscode.window.registerWebviewPanelSerializer(compareViewType, {
      deserializeWebviewPanel: (panel, state) => {
        fanOuts().deserialize(panel, state);
        return Promise.resolve();
      },
    }),
    registerGitFiles(deps.worktrees),
    vscode.commands.registerCommand(worktreeCommandIds.newSessionInWorktree, async (agentId?: unknown) => { await newSessionInWorktree(deps, typeof agentId === 'string' ? agentId : undefined); }),
    vscode.commands.registerCommand(worktreeCommandIds.askSeveralAgents, async () => { await fanOuts().ask(); }),
    vscode.commands.registerCommand(worktreeCommandIds.showComparison, () => fanOuts().pickAndShow()),
    on(worktreeCommandIds.openInNewWindow, 'Open Worktree in New Window', (r) => openInNewWindow(r)),
    on(worktreeCommandIds.review, 'Review Worktree Changes', (r) => reviewWorktree(cmd, r)),
    on(worktreeCommandIds.commit, 'Commit Worktree', (r) => commitWorktree(cmd, r)),
    on(worktreeCommandIds.merge, 'Merge Worktree into Its Base Branch', (r) => mergeWorktree(cmd, r, { title: titleOf(deps, r.sessionKey) })),
    on(worktreeCommandIds.completeMerge, 'Complete Merge', (r) => completeMerge(cmd, r), ['active', 'archived', 'discarded', 'merged']),
    on(worktreeCommandIds.abortMerge, 'Abort Merge', (r) => abortMerge(cmd, r), ['active', 'archived', 'discarded', 'merged']),
    on(worktreeCommandIds.discard, 'Discard Worktree', (r) => discardWorktree(cmd, r), ['active', 'archived']),
  ];
  const api: WorktreeApi = {
    newSessionInWorktree: async (agentId) => {
      const s = await newSessionInWorktree(deps, agentId);
      if (!s) throw new Error(`could not start '${agentId}' in a worktree`);
      return s.sessionId;
    },
    askSeveralAgents: (req) => fanOuts().ask(req),
    worktreeOf: (sessionId) => {
      const s = deps.sessions.get(sessionId);
      const r = s && deps.worktrees.of(s.cwd);
      return r && { path: r.path, branch: r.branch, baseBranch: r.baseBranch, state: r.state };
    },
  };
  return { disposables, api };
}

function titleOf(deps: { readonly sessions: { get(key: string): AgentSession | undefined } }, key: string | undefined): string | undefined {
  return (key && deps.sessions.get(key)?.thread.title) || undefined;
}

/** What the Sessions view and Archive / Unarchive Session know of worktrees. */
export function worktreeLookup(worktrees: WorktreeService, sessions: WorktreeCommandDeps['sessions']): WorktreeLookup {
  const cmd: WorktreeCommandDeps = { sessions, worktrees, activeSession: () => undefined };
  return {
    of: (cwd) => worktrees.of(cwd),
    onDidChange: worktrees.onDidChange,
    setArchived: async (key, archived) => {
      await worktrees.ready;
      const record = worktrees.records.worktrees().find((w) => w.sessionKey === key && w.state === (archived ? 'active' : 'archived'));
      if (record) await (archived ? archiveWorktree(cmd, record) : unarchiveWorktree(cmd, record));
    },
  };
}
