/**
 * Registers the commands of the sessions' home (docs/sessions.md "A home for all sessions"): Go to Next Session
 * Waiting for You and Go to Next Running Session (keybindings), the Sessions view's Group by Agent / Folder, Search
 * Sessions and Clear Search (its title bar), Open Diff, Keep and Undo on a changed file under a session (its rows),
 * and Save as Preset…; gives the tests the same without the pickers.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import type { TranscriptMatch } from '../../host/history/transcriptSearch';
import type { SessionStateView } from '../../shared/sessionState';
import type { ChangedFileAction } from '../../shared/changedFiles';
import { besideChat } from '../../host/files/diffPlacement';
import { commandIds } from '../../constants';
import { saveAsPreset, type PresetAnswers } from '../agents/presets';
import { goToNextRunning, goToNextWaiting } from './sessionNavigation';
import type { SessionCommandDeps } from './sessionCommands';
import type { SessionsNode, SessionsTreeProvider } from './sessionsTreeView';

/** The home for tests (part of the extension API). */
export interface HomeApi {
  /** Every open session's live state, as every list shows it. */
  sessionStates(): { agentId: string; sessionId: string; title: string; state: SessionStateView }[];
  /** The Sessions view's badge (sessions waiting for you), undefined when none waits. */
  sessionsBadge(): number | undefined;
  /** Goes to the next session waiting for you (as the keybinding); its session id, or undefined. */
  nextWaitingSession(): string | undefined;
  /** Goes to the next running session (as the keybinding); its session id, or undefined. */
  nextRunningSession(): string | undefined;
  /** Searches the transcripts of Switchboard's store (as Search Sessions and Switch Session do). */
  searchTranscripts(query: string): Promise<TranscriptMatch[]>;
  /** Shows the results of a search in the Sessions view (undefined: all sessions again); resolves once searched. */
  searchSessions(query: string | undefined): Promise<void>;
  /** The changed files the Sessions view shows under an open session, with their counts. */
  sessionFiles(sessionId: string): { path: string; added?: number; removed?: number }[];
  /** Saves an open session's settings as a preset (as ACP: Save as Preset… with these answers). */
  savePreset(sessionId: string, answers: PresetAnswers): Promise<void>;
}

/** The commands' disposables and the test API. */
export function registerHomeCommands(
  deps: SessionCommandDeps, tree: SessionsTreeProvider, active: () => AgentSession | undefined,
): { disposables: vscode.Disposable[]; api: HomeApi } {
  const open = (s: AgentSession) => deps.openChat(s);
  const fileAction = (action: ChangedFileAction) => async (node?: SessionsNode) => {
    if (node?.type !== 'file') return;
    await tree.files.act(node.session, action, node.file.path, besideChat(deps.chatColumn?.(node.session.key)));
  };
  const disposables = [
    vscode.commands.registerCommand(commandIds.nextWaitingSession, () => { goToNextWaiting(deps.sessions, active(), open); }),
    vscode.commands.registerCommand(commandIds.nextRunningSession, () => { goToNextRunning(deps.sessions, active(), open); }),
    vscode.commands.registerCommand(commandIds.groupSessionsByAgent, () => tree.setGroupBy('agent')),
    vscode.commands.registerCommand(commandIds.groupSessionsByFolder, () => tree.setGroupBy('folder')),
    vscode.commands.registerCommand(commandIds.searchSessions, () => tree.search.prompt()),
    vscode.commands.registerCommand(commandIds.clearSessionSearch, () => tree.search.set(undefined)),
    vscode.commands.registerCommand(commandIds.sessionFileDiff, fileAction('diff')),
    vscode.commands.registerCommand(commandIds.sessionFileKeep, fileAction('keep')),
    vscode.commands.registerCommand(commandIds.sessionFileUndo, fileAction('undo')),
    vscode.commands.registerCommand(commandIds.saveAsPreset, async (arg?: unknown) => {
      await saveAsPreset((typeof arg === 'string' ? deps.sessions.get(arg) : (arg as { item?: { open?: AgentSession } } | undefined)?.item?.open) ?? active());
    }),
  ];
  const api: HomeApi = {
    sessionStates: () => deps.sessions.sessions.map((s) => ({ agentId: s.host.definition.id, sessionId: s.sessionId, title: s.thread.title, state: s.activity.state })),
    sessionsBadge: () => {
      const n = deps.sessions.sessions.filter((s) => s.activity.state.kind === 'waiting').length;
      return n || undefined;
    },
    nextWaitingSession: () => goToNextWaiting(deps.sessions, active(), open)?.sessionId,
    nextRunningSession: () => goToNextRunning(deps.sessions, active(), open)?.sessionId,
    searchTranscripts: (query) => tree.search.store.search(query),
    searchSessions: (query) => tree.search.set(query),
    sessionFiles: (id) => {
      const s = deps.sessions.get(id);
      return s ? tree.files.list(s).map((f) => ({ path: f.path, ...(f.added !== undefined ? { added: f.added, removed: f.removed } : {}) })) : [];
    },
    savePreset: async (id, answers) => {
      const s = deps.sessions.get(id);
      if (!s) throw new Error(`no open session '${id}'`);
      await saveAsPreset(s, answers);
    },
  };
  return { disposables, api };
}
