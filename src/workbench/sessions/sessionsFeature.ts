/**
 * Wires the session features into activation: the client's transcript store, the chat panel registry and
 * its serializer (window reload), Switch/Close/Delete Session, Continue in New Session, Fork/Rename/Archive/
 * Unarchive Session (organizeCommands.ts), the Sessions view, the session status bar items, the notifications
 * about hidden sessions and the home's commands (homeRegistration.ts).
 */
import * as vscode from 'vscode';
import { closeSession, continueInNewSession, deleteSessionConfirmed, targetOf } from './sessionCommands';
import { openHistoryItem, switchSession } from './switchSession';
import type { SessionCommandDeps } from './sessionCommands';
import { ChatPanelRegistry } from '../../chatHost/chatPanels';
import { ChatRouter } from '../../chatHost/chatRouter';
import { ChatView } from '../../chatHost/chatView';
import { placeChatView } from '../../chatHost/chatViewPlacement';
import { registerChatViewCommands } from './chatViewCommands';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import { sessionKey } from '../../host/sessionKey';
import type { HistoryItem } from '../../host/history/sessionHistory';
import type { SessionManager } from '../../host/sessionManager';
import { SessionsTreeProvider } from './sessionsTreeView';
import type { WorktreeLookup } from '../worktrees/worktreeService';
import type { SessionsNode } from './sessionsTreeItems';
import { focusedNode } from './sessionsTreeFocus';
import { commandIds, internalCommandIds } from '../../constants';
import { editEarlierMessage } from './editEarlierMessage';
import { SessionStatusBar } from './statusBar';
import type { TranscriptStore } from '../../host/history/transcriptStore';
import type { PromptMemory } from '../../host/prompts/promptHistory';
import { registerOrganizeCommands, type OrganizeApi } from './organizeRegistration';
import { registerHomeCommands, type HomeApi } from './homeRegistration';
import { SessionStateNotifier } from './stateNotifier';
import { RecentChats } from './recentChats';

/** Session history and lifecycle for tests (part of the extension API). */
export interface SessionsApi extends OrganizeApi, HomeApi {
  /** Every page of an agent's `session/list` for the workspace folder (starts the agent). */
  listSessions(agentId: string): Promise<{ sessionId: string; title?: string | null }[]>;
  /** History rows: open sessions, stored transcripts, running agents' lists; archived ones only with `archived`. */
  history(options?: { archived?: boolean }): Promise<{ agentId: string; sessionId: string; title: string; open: boolean; stored: boolean; listed: boolean; archived: boolean }[]>;
  /**
   * Opens a session from history (resume, else load, else read-only) in its chat; returns its id. `atOnce`: as a
   * restored tab or Switch Session open it (SessionManager.open): from the store at once when the agent is known
   * to resume, connected behind it (`restored()` waits for that).
   */
  openSession(agentId: string, sessionId: string, cwd?: string, options?: { atOnce?: boolean }): Promise<string>;
  /** Closes a session's chat (and the session). */
  closeSession(sessionId: string): void;
  /**
   * The key of a session: its agent id and session id. Every method that takes a session id takes a key too,
   * and needs it when two agents handed out the same id.
   */
  keyOf(agentId: string, sessionId: string): string;
  /** True for a read-only session from the client's store. */
  isReadOnly(sessionId: string): boolean;
  /** The session of the active chat panel. */
  activeSessionId(): string | undefined;
  /** Where a session's chat is: an editor tab, the Chat view in the secondary side bar, or none. */
  chatLocation(sessionId: string): 'tab' | 'view' | undefined;
  /** Shows a session in the Chat view (as its title picker does). */
  showInChatView(sessionId: string): void;
  /**
   * Resolves once every chat panel VS Code restored so far has its session back, and every session opened at
   * once from the store is connected (or read-only).
   */
  restored(): Promise<void>;
  /** Flushes the transcript store to disk. */
  flushTranscripts(): void;
  /** Ids of the agents whose process runs (ready). */
  runningAgents(): string[];
}

/** What the rest of activation uses. */
export interface SessionsFeature {
  readonly panels: ChatPanelRegistry;
  /** Tabs and the Chat view: where chats open (`switchboard.chat.openIn`). */
  readonly chats: ChatRouter;
  readonly store: TranscriptStore;
  readonly deps: SessionCommandDeps;
  readonly api: SessionsApi;
}

/**
 * What activation registered before the core was loaded (src/extension.ts): the Sessions view, and providers
 * that forward to the ones given here.
 */
export interface PreRegistered {
  /** The Sessions view; activation owns it. */
  readonly sessionsView: vscode.TreeView<unknown>;
  adoptSessionsTree(provider: vscode.TreeDataProvider<unknown>): void;
  adoptChatView(provider: vscode.WebviewViewProvider): void;
  adoptChatPanelSerializer(serializer: vscode.WebviewPanelSerializer): void;
}

/** Registers everything; disposables go to `context.subscriptions`. */
export function registerSessions(context: vscode.ExtensionContext, surfaces: PreRegistered, registry: AgentRegistry, sessions: SessionManager, store: TranscriptStore, memory: PromptMemory, log: vscode.LogOutputChannel, worktrees?: WorktreeLookup): SessionsFeature {
  const panels = new ChatPanelRegistry(context.extensionUri, sessions, registry, context.workspaceState, memory);
  const view = new ChatView({ extensionUri: context.extensionUri, sessions, agents: registry, state: context.workspaceState, memory, beforeFirstShow: () => placeChatView(context.globalState, log) });
  const chats = new ChatRouter(panels, view, sessions);
  const deps: SessionCommandDeps = { registry, sessions, openChat: (s, o) => chats.open(s, o?.preserveFocus), closeChat: (id) => chats.close(id), chatColumn: (key) => panels.get(key)?.panel.viewColumn, ...(worktrees?.setArchived ? { setArchived: (k: string, a: boolean) => worktrees.setArchived?.(k, a) ?? Promise.resolve() } : {}) };
  const tree = new SessionsTreeProvider(sessions, store, context.workspaceState, log, worktrees);
  // the view is activation's: its provider forwards to this one (src/extension.ts)
  const treeView = surfaces.sessionsView as vscode.TreeView<SessionsNode>;
  surfaces.adoptSessionsTree(tree as vscode.TreeDataProvider<unknown>);
  surfaces.adoptChatView(view);
  surfaces.adoptChatPanelSerializer(panels.serializer());
  tree.attach(treeView);
  const organize = registerOrganizeCommands(deps, tree, treeView, () => chats.activeSession());
  const home = registerHomeCommands(deps, tree, () => chats.activeSession());
  const statusBar = new SessionStatusBar(() => chats.activeSession(), (id) => sessions.isReadOnly(id), () => sessions.sessions);
  const notifier = new SessionStateNotifier(sessions, (key) => chats.isVisible(key), (s) => chats.open(s));
  const recent = new RecentChats(() => chats.activeSession(), chats.onDidChange);
  // a chat on screen is read: its finished turn is no longer "unread" (src/thread/view/sessionActivity.ts)
  const markSeen = () => { for (const s of sessions.sessions) if (chats.isVisible(s.key)) s.activity.markSeen(); };
  const itemOf = (arg: unknown): HistoryItem | undefined => (arg as { item?: HistoryItem } | undefined)?.item;
  // the sessions (pushed earlier) flush their transcripts when disposed; the store then writes its index
  context.subscriptions.push(
    store,
    panels,
    view,
    ...registerChatViewCommands(deps, chats, recent),
    tree,
    recent,
    statusBar,
    ...organize.disposables,
    ...home.disposables,
    notifier,
    chats.onDidChange(() => { markSeen(); statusBar.update(); }),
    sessions.onDidChangeSessions(() => statusBar.update()),
    // session commands resolve to nothing: a command's result goes back to the workbench serialized, and a
    // session (its whole transcript) took 100 ms of JSON on every switch from the palette
    vscode.commands.registerCommand(commandIds.switchSession, async (sessionId?: unknown) => { await switchSession(deps, typeof sessionId === 'string' ? sessionId : undefined, store, recent); }),
    vscode.commands.registerCommand(commandIds.openSession, async (arg?: unknown) => {
      const item = itemOf(arg);
      await (item ? openHistoryItem(deps, item) : switchSession(deps, undefined, store, recent));
    }),
    // Space in the view opens the focused session and leaves the keyboard there (Enter and a click move it into
    // the chat); on another row it does what Space does in a tree
    vscode.commands.registerCommand(commandIds.openFocusedSession, async () => {
      const node = await focusedNode(treeView);
      if (node?.type === 'session') await openHistoryItem(deps, node.item, { preserveFocus: true });
      else await vscode.commands.executeCommand('list.toggleExpand');
    }),
    vscode.commands.registerCommand(commandIds.closeSession, (arg?: unknown) => closeSession(deps, targetOf(arg, chats.activeSession()))),
    vscode.commands.registerCommand(commandIds.deleteSession, (arg?: unknown) => deleteSessionConfirmed(deps, targetOf(arg, chats.activeSession()))),
    // the chat's button passes its session's key; the editor title and the palette act on the active chat
    vscode.commands.registerCommand(commandIds.continueInNewSession, async (key?: unknown) => {
      await continueInNewSession(deps, (typeof key === 'string' ? sessions.get(key) : undefined) ?? chats.activeSession());
    }),
    vscode.commands.registerCommand(commandIds.refreshSessions, () => tree.refresh()),
    // the chat's Edit & Resend of an earlier message (not in the palette): in a fork when the agent can fork
    vscode.commands.registerCommand(internalCommandIds.editEarlierMessage, async (key: unknown, entryId: unknown, text: unknown) => {
      const from = typeof key === 'string' ? sessions.get(key) : undefined;
      if (!from || typeof entryId !== 'string' || typeof text !== 'string' || !text.trim()) return;
      await editEarlierMessage(deps, from, entryId, text, async (k) => {
        if (!sessions.get(k)?.canFork) return undefined;
        return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Forking the session…', cancellable: true }, (_p, token) => sessions.forkSession(k, token));
      });
    }),
  );
  const api: SessionsApi = {
    listSessions: async (agentId) => {
      const def = registry.get(agentId);
      if (!def) throw new Error(`no agent '${agentId}'`);
      return sessions.listSessions(def);
    },
    ...organize.api,
    ...home.api,
    history: async (options) => (await sessions.history(undefined, options)).map((i) => ({ agentId: i.agentId, sessionId: i.sessionId, title: i.title, open: !!i.open, stored: i.stored, listed: i.listed, archived: i.archived })),
    openSession: async (agentId, sessionId, cwd = sessions.defaultCwd(), options = {}) => {
      const s = await sessions.open({ agentId, sessionId, cwd }, registry.get(agentId), undefined, options);
      chats.open(s);
      return s.sessionId;
    },
    closeSession: (id) => void (chats.close(id) || sessions.close(id)),
    keyOf: sessionKey,
    isReadOnly: (id) => sessions.isReadOnly(id),
    activeSessionId: () => (panels.all().find((p) => p.panel.active)?.session ?? (view.visible ? view.session : undefined))?.sessionId,
    chatLocation: (id) => {
      const s = sessions.get(id);
      if (!s) return undefined;
      return panels.get(s.key) ? 'tab' : view.session === s ? 'view' : undefined;
    },
    showInChatView: (id) => {
      const s = sessions.get(id);
      if (!s) throw new Error(`no open session '${id}'`);
      chats.showInView(s);
    },
    restored: () => Promise.all([panels.restoring, view.restoring]).then(() => sessions.connecting),
    flushTranscripts: () => store.flush(),
    runningAgents: () => sessions.runningHosts().map((h) => h.definition.id),
  };
  return { panels, chats, store, deps, api };
}
