/**
 * The actions layer: everything the chat asks of its host, as named calls. This is the only module that
 * posts to the host or touches the webview's saved state; views, the composer and the transcript get a
 * {@link ChatActions} and never see the transport, so a test can hand them a fake one
 * (docs/chat.md).
 */
import {
  CancelTurnCommand, ContinueSessionCommand, CopyCodeCommand, InsertCodeCommand, OpenDiffCommand, OpenLinkCommand, OpenLocationCommand, OpenToolOutputCommand, AcknowledgeSnapshotCommand, RequestStateCommand,
  RemoveQueuedPromptCommand, RequestEntriesCommand, RequestSnapshotCommand, QueueUntakenCommand, ResendPromptCommand, RespondPermissionCommand, RevertFlaggedCommand,
  RestartAgentCommand, RetryPromptCommand, SaveDraftCommand, SearchFilesCommand, SendPromptCommand, SetConfigOptionCommand,
  SetModeCommand, ShowTerminalCommand, ToggleFollowCommand, UpdateQueuedPromptCommand,
} from '../src/shared/chatProtocol';
import { StopWorkCommand } from '../src/shared/chatProtocol';
import { CancelSubagentCommand, ReviewChangedFileCommand, ReviewChangedFilesCommand, DiffCheckpointCommand, UndoCheckpointCommand, CopyMessageCommand, DismissNoticeCommand, EditResendMessageCommand, RespondElicitationUrlCommand, OpenRecentSessionCommand, RespondElicitationCommand, RestoreCheckpointCommand, RetryMessageCommand } from '../src/shared/chatProtocol';
import { DisableProviderCommand, ForkSessionCommand, LogInAccountCommand, LogOutAccountCommand, RenameSessionCommand, SetApprovalLevelCommand, SetProviderCommand } from '../src/shared/chatProtocol';
import type { OpenToolOutputParams, PostCommand } from '../src/shared/chatProtocol';
import type { ChangedFileAction, ChangedFilesAllAction } from '../src/shared/changedFiles';
import type { AttachmentView, DraftView } from '../src/shared/composerModel';
import type { ElicitationInput } from '../src/shared/elicitationModel';

/** The part of the host transport (hostIpc.ts) the actions use. */
export interface ActionTransport {
  post: PostCommand;
  getState<T>(): T | undefined;
  setState<T>(state: T): void;
}

/** What the chat asks of its host. */
export interface ChatActions {
  // the thread
  /** The webview has loaded: the host sends a snapshot. */
  ready(): void;
  /** The page shows its first snapshot (its frame is the active one): the host sets the title again. */
  shown(): void;
  /** The webview's copy has a gap: the host sends a fresh snapshot. */
  requestSnapshot(reason: string): void;
  /** Up to `count` entries before index `before`. */
  requestEntries(before: number, count: number): void;

  // the transcript
  respondPermission(requestId: string, optionId: string): void;
  /** Answers an elicitation (form content is validated by the host; URL mode: accept opens the URL). */
  respondElicitation(requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Readonly<Record<string, ElicitationInput>>): void;
  /** URL mode, waiting for completion: open the URL again, or stop waiting. */
  elicitationUrl(requestId: string, op: 'retry' | 'dismiss'): void;
  /** `sessionId`: the subagent whose card has the tool call (absent: the session's own). */
  openDiff(toolCallId: string, index: number, sessionId?: string): void;
  openLocation(toolCallId: string, index: number, sessionId?: string): void;
  /** Open full output: the host shows the whole of a capped text of a tool call in a read-only editor. */
  openToolOutput(p: Omit<OpenToolOutputParams, 'sessionId'>, sessionId?: string): void;
  /** Shows an agent terminal of a tool call in the VS Code terminal panel. */
  showTerminal(terminalId: string): void;
  /** Sends the last prompt again (after an error that can be retried). */
  retry(): void;
  /** Restarts the agent and reopens the session. */
  restart(): void;
  /** Sends the prompt an agent exit interrupted again. */
  resend(): void;
  /** Queue It: the message the agent did not take while it worked goes to the queue. */
  queueUntaken(): void;
  /** Starts a new session that carries this transcript (this one cannot be reopened). */
  continueSession(): void;
  /** Restores the files the turn audit flagged, from the checkpoint before the turn. */
  revertFlagged(): void;
  /** Closes one of the agent's live notices. */
  dismissNotice(noticeId: string): void;
  /** Cancels a subagent's current work (by its session id). */
  cancelSubagent(sessionId: string): void;
  /** Stops one tool call or terminal an ACP v2 agent lets the user stop. */
  stopWork(kind: 'toolCall' | 'terminal', id: string): void;
  openLink(href: string): void;
  copyCode(code: string, language: string): void;
  insertCode(code: string, language: string): void;
  /** Copies a message (by entry id) as Markdown to the clipboard. */
  copyMessage(entryId: string): void;
  /** Sends the prompt of an answer again (a running turn is cancelled first). */
  retryMessage(entryId: string): void;
  /** Sends a user message again with `text`: the latest in this session (a running turn is cancelled first), an earlier one after restoring its checkpoint, in a new session. */
  editResend(entryId: string, text: string): void;
  /** Restores the files as they were before a user message (the host shows a preview first). */
  restoreCheckpoint(entryId: string): void;
  /** Opens the diff of one file of a checkpoint entry. */
  changesDiff(entryId: string, path: string): void;
  /** Undo This Turn / Undo Restore of a checkpoint entry (the host shows a preview first). */
  changesUndo(entryId: string): void;

  // the header
  toggleFollow(): void;
  /** Asks the host for a new title for this session (the title, F2). */
  renameSession(): void;
  /** Forks this session into a new chat (the Fork button; only shown when the agent can). */
  forkSession(): void;
  /** Opens ACP: Set Approval Level… for this session (the header's button). */
  setApprovals(): void;
  /** Log In: the agent's login methods (the account chip). */
  logIn(): void;
  /** Log Out of the session's agent (the account chip). */
  logOut(): void;

  // the welcome of an empty chat
  /** Opens a recent session of the same agent (by id; the host finds it in its history). */
  openRecentSession(sessionId: string): void;
  // the changed-files bar
  /** Keep, Undo or Open Diff on one changed file (by its path, as the host listed it). */
  changedFile(action: ChangedFileAction, path: string): void;
  /** Keep All or Undo All (the host asks before Undo All). */
  changedFilesAll(action: ChangedFilesAllAction): void;

  // the composer
  /** `now`: Send Now, into the running turn (the host queues it when the agent cannot take it). */
  sendPrompt(text: string, attachments: readonly AttachmentView[], now?: boolean): void;
  cancelTurn(): void;
  updateQueuedPrompt(id: string, text: string): void;
  removeQueuedPrompt(id: string): void;
  setConfigOption(configId: string, value: string | boolean): void;
  setMode(modeId: string): void;
  /** Set… on a model provider: the host asks for protocol, base URL and key. */
  setProvider(providerId: string): void;
  /** Disable on a model provider. */
  disableProvider(providerId: string): void;
  searchFiles(requestId: number, query: string): void;
  /** Keeps the draft on the host (it outlives a reload of the window). */
  saveDraft(draft: DraftView): void;
  /** Keeps the draft in the webview's saved state (at once; it outlives the panel being hidden). */
  keepDraftLocally(draft: DraftView): void;
  /** The draft kept by {@link keepDraftLocally}, if any. */
  localDraft(): DraftView | undefined;
  /**
   * Keeps which session this panel shows (agent, session id, cwd: the page's `data-restore`) in the
   * webview's own state, which VS Code hands back to the panel serializer after a window reload: each
   * panel restores exactly its own session, in any order, visible or not.
   */
  rememberSession(restore: unknown): void;
}

/** The actions over a host transport. */
export function chatActions(ipc: ActionTransport): ChatActions {
  return {
    ready: () => ipc.post(RequestStateCommand, {}),
    shown: () => ipc.post(AcknowledgeSnapshotCommand, {}),
    requestSnapshot: (reason) => ipc.post(RequestSnapshotCommand, { reason }),
    requestEntries: (before, count) => ipc.post(RequestEntriesCommand, { before, count }),

    respondPermission: (requestId, optionId) => ipc.post(RespondPermissionCommand, { requestId, optionId }),
    respondElicitation: (requestId, action, content) => ipc.post(RespondElicitationCommand, { requestId, action, ...(content ? { content } : {}) }),
    elicitationUrl: (requestId, op) => ipc.post(RespondElicitationUrlCommand, { requestId, op }),
    openDiff: (toolCallId, index, sessionId) => ipc.post(OpenDiffCommand, { toolCallId, index, ...(sessionId ? { sessionId } : {}) }),
    openLocation: (toolCallId, index, sessionId) => ipc.post(OpenLocationCommand, { toolCallId, index, ...(sessionId ? { sessionId } : {}) }),
    openToolOutput: (p, sessionId) => ipc.post(OpenToolOutputCommand, { ...p, ...(sessionId ? { sessionId } : {}) }),
    showTerminal: (terminalId) => ipc.post(ShowTerminalCommand, { terminalId }),
    retry: () => ipc.post(RetryPromptCommand, {}),
    restart: () => ipc.post(RestartAgentCommand, {}),
    resend: () => ipc.post(ResendPromptCommand, {}),
    queueUntaken: () => ipc.post(QueueUntakenCommand, {}),
    continueSession: () => ipc.post(ContinueSessionCommand, {}),
    revertFlagged: () => ipc.post(RevertFlaggedCommand, {}),
    dismissNotice: (noticeId) => ipc.post(DismissNoticeCommand, { noticeId }),
    cancelSubagent: (sessionId) => ipc.post(CancelSubagentCommand, { sessionId }),
    stopWork: (kind, id) => ipc.post(StopWorkCommand, { kind, id }),
    openLink: (href) => ipc.post(OpenLinkCommand, { href }),
    copyCode: (code, language) => ipc.post(CopyCodeCommand, { code, language }),
    insertCode: (code, language) => ipc.post(InsertCodeCommand, { code, language }),
    copyMessage: (entryId) => ipc.post(CopyMessageCommand, { entryId }),
    retryMessage: (entryId) => ipc.post(RetryMessageCommand, { entryId }),
    editResend: (entryId, text) => ipc.post(EditResendMessageCommand, { entryId, text }),
    restoreCheckpoint: (entryId) => ipc.post(RestoreCheckpointCommand, { entryId }),
    changesDiff: (entryId, path) => ipc.post(DiffCheckpointCommand, { entryId, path }),
    changesUndo: (entryId) => ipc.post(UndoCheckpointCommand, { entryId }),

    toggleFollow: () => ipc.post(ToggleFollowCommand, {}),
    renameSession: () => ipc.post(RenameSessionCommand, {}),
    forkSession: () => ipc.post(ForkSessionCommand, {}),
    setApprovals: () => ipc.post(SetApprovalLevelCommand, {}),
    logIn: () => ipc.post(LogInAccountCommand, {}),
    logOut: () => ipc.post(LogOutAccountCommand, {}),

    openRecentSession: (sessionId) => ipc.post(OpenRecentSessionCommand, { sessionId }),
    changedFile: (action, path) => ipc.post(ReviewChangedFileCommand, { action, path }),
    changedFilesAll: (action) => ipc.post(ReviewChangedFilesCommand, { action }),

    sendPrompt: (text, attachments, now) => ipc.post(SendPromptCommand, { text, attachments, ...(now ? { now } : {}) }),
    cancelTurn: () => ipc.post(CancelTurnCommand, {}),
    updateQueuedPrompt: (id, text) => ipc.post(UpdateQueuedPromptCommand, { id, text }),
    removeQueuedPrompt: (id) => ipc.post(RemoveQueuedPromptCommand, { id }),
    setConfigOption: (configId, value) => ipc.post(SetConfigOptionCommand, { configId, value }),
    setMode: (modeId) => ipc.post(SetModeCommand, { modeId }),
    setProvider: (providerId) => ipc.post(SetProviderCommand, { providerId }),
    disableProvider: (providerId) => ipc.post(DisableProviderCommand, { providerId }),
    searchFiles: (requestId, query) => ipc.post(SearchFilesCommand, { requestId, query }),
    saveDraft: (draft) => ipc.post(SaveDraftCommand, { draft }),
    keepDraftLocally: (draft) => {
      const prev = ipc.getState<Record<string, unknown>>() ?? {};
      ipc.setState({ ...prev, composerDraft: draft });
    },
    localDraft: () => ipc.getState<{ composerDraft?: DraftView }>()?.composerDraft,
    rememberSession: (restore) => {
      const prev = ipc.getState<Record<string, unknown>>() ?? {};
      ipc.setState({ ...prev, restore });
    },
  };
}
