/**
 * Names that several layers share and VS Code knows by string: view types, view ids and context keys. Kept
 * here, at the bottom of the extension's layers, so that a capability can compare a tab's view type without
 * importing the chat panel (docs/architecture.md#layers). Each must match package.json.
 */

/** The chat webview panel's view type (`onWebviewPanel:switchboard.chat`). */
export const chatViewType = 'switchboard.chat';

/** The Chat view (a webview view in the secondary side bar; `<id>.focus` shows it). */
export const chatViewId = 'switchboard.chatView';

/** The Sessions view (Switchboard activity-bar container). */
export const sessionsViewId = 'switchboard.sessions';
/** Remembered across windows once a first prompt was sent: the walkthrough's last step (package.json). */
export const promptSentKey = 'switchboard.hasSentPrompt';

/** True while the active chat shows a read-only session (menus offer Continue in New Session). */
export const readOnlyContextKey = 'switchboard.activeChatReadOnly';

/** True while the Sessions view shows archived sessions (its title bar offers Hide Archived Sessions). */
export const sessionsShowArchivedContextKey = 'switchboard.sessionsShowArchived';

/** How the Sessions view groups sessions: `agent` or `folder` (its title bar offers the other). */
export const sessionsGroupByContextKey = 'switchboard.sessionsGroupBy';

/** True while the Sessions view shows the results of a search (its title bar offers Clear Search). */
export const sessionsSearchingContextKey = 'switchboard.sessionsSearching';

/** True while a running agent supports `logout` (ACP: Log Out is enabled). */
export const canLogOutContextKey = 'switchboard.canLogOut';

/** True while the active tab is a diff Switchboard opened for a pending agent change (its title shows Keep and Undo). */
export const agentChangeDiffContextKey = 'switchboard.agentChangeDiff';

/** The env var that names the folder where the built-in Demo agent keeps its sessions across its runs. */
export const demoSessionsDirEnv = 'SWITCHBOARD_DEMO_SESSIONS_DIR';

/** The commands Switchboard contributes (package.json `contributes.commands`), by name. */
export const commandIds = {
  newSession: 'switchboard.newSession',
  // sessions in a worktree of their own, and Ask Several Agents (docs/worktrees.md)
  newSessionInWorktree: 'switchboard.newSessionInWorktree',
  askSeveralAgents: 'switchboard.askSeveralAgents',
  showAgentComparison: 'switchboard.showAgentComparison',
  worktreeOpenInNewWindow: 'switchboard.worktree.openInNewWindow',
  worktreeReview: 'switchboard.worktree.review',
  worktreeCommit: 'switchboard.worktree.commit',
  worktreeMerge: 'switchboard.worktree.merge',
  worktreeCompleteMerge: 'switchboard.worktree.completeMerge',
  worktreeAbortMerge: 'switchboard.worktree.abortMerge',
  worktreeDiscard: 'switchboard.worktree.discard',
  addSelectionToChat: 'switchboard.addSelectionToChat',
  cancelTurn: 'switchboard.cancelTurn',
  showAgentLog: 'switchboard.showAgentLog',
  showEditorToolsLog: 'switchboard.showEditorToolsLog',
  chooseMcpServers: 'switchboard.chooseMcpServers',
  restartAgent: 'switchboard.restartAgent',
  logOut: 'switchboard.logOut',
  followAgent: 'switchboard.followAgent',
  reviewChanges: 'switchboard.reviewChanges',
  openDiff: 'switchboard.openDiff',
  keepChange: 'switchboard.keepChange',
  undoChange: 'switchboard.undoChange',
  switchSession: 'switchboard.switchSession',
  closeSession: 'switchboard.closeSession',
  deleteSession: 'switchboard.deleteSession',
  openSession: 'switchboard.openSession',
  continueInNewSession: 'switchboard.continueInNewSession',
  forkSession: 'switchboard.forkSession',
  renameSession: 'switchboard.renameSession',
  renameSelectedSession: 'switchboard.renameSelectedSession',
  archiveSession: 'switchboard.archiveSession',
  unarchiveSession: 'switchboard.unarchiveSession',
  showArchivedSessions: 'switchboard.showArchivedSessions',
  hideArchivedSessions: 'switchboard.hideArchivedSessions',
  refreshSessions: 'switchboard.refreshSessions',
  nextWaitingSession: 'switchboard.nextWaitingSession',
  nextRunningSession: 'switchboard.nextRunningSession',
  archiveSelectedSession: 'switchboard.archiveSelectedSession',
  openFocusedSession: 'switchboard.openFocusedSession',
  groupSessionsByAgent: 'switchboard.groupSessionsByAgent',
  groupSessionsByFolder: 'switchboard.groupSessionsByFolder',
  searchSessions: 'switchboard.searchSessions',
  clearSessionSearch: 'switchboard.clearSessionSearch',
  sessionFileDiff: 'switchboard.sessionFile.openDiff',
  sessionFileKeep: 'switchboard.sessionFile.keep',
  sessionFileUndo: 'switchboard.sessionFile.undo',
  saveAsPreset: 'switchboard.saveAsPreset',
  installFromRegistry: 'switchboard.installFromRegistry',
  manageAgents: 'switchboard.manageAgents',
  manageRules: 'switchboard.manageRules',
  setApprovalLevel: 'switchboard.setApprovalLevel',
  addAgent: 'switchboard.addAgent',
  chatViewPickSession: 'switchboard.chatView.pickSession',
  chatViewNewSession: 'switchboard.chatView.newSession',
} as const;

/**
 * Commands Switchboard registers for its own surfaces but does not contribute (not in the palette): the chat
 * calls them with arguments the palette could not give.
 */
export const internalCommandIds = {
  /** Edit & Resend of an earlier user message: `(sessionKey, entryId, text)` (src/workbench/sessions/editEarlierMessage.ts). */
  editEarlierMessage: 'switchboard.editEarlierMessage',
} as const;
