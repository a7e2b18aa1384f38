/**
 * The typed contract between the chat webview and the extension host (GitLens-style IPC, see
 * docs/chat.md). Commands go webview → host, notifications host → webview. Every
 * method, both ways, is named `chat/<noun>/<verb>` ({@link MethodName}, checked when it is defined): a
 * command's verb is imperative (`chat/prompt/send`, `SendPromptCommand`), a notification's is `did` + what
 * happened (`chat/thread/didChange`, `DidChangeThreadNotification`). The host validates every incoming
 * command with the zod schema that src/chatHost/ipcSchemas.ts keeps for it; the webview is untrusted input.
 */
import type { AgentAccountView } from './accountModel';
import type { ChangedFileAction, ChangedFilesAllAction, ChangedFilesView } from './changedFiles';
import type { AttachmentView, ComposerStateView, DraftView, FileMatchView } from './composerModel';
import type { ElicitationInput } from './elicitationModel';
import type { EntryView, ThreadDelta, ThreadSnapshot } from './viewModel';
import type { WelcomeView } from './welcomeModel';

/** The IPC scope of the chat. */
export const chatScope = 'chat';

/** A message definition: its method and (phantom) params type. */
export interface IpcMessageType<P, M extends string = string> {
  readonly method: M;
  /** Never set: carries the params type for `is()` and `params()`. */
  readonly _params?: P;
}

/**
 * `M` when it follows the naming scheme, else `never` (so that the definition does not compile): one noun and
 * one camelCase verb, `noun/verb`, no other `/` and not the scope again; the verb starts with `did` + a
 * capital exactly when the message is a notification (`thread/didChange`), never for a command (`prompt/send`).
 */
export type MethodName<M extends string, K extends 'command' | 'notification'> =
  M extends `${infer Noun}/${infer Verb}`
    ? Noun extends '' | typeof chatScope | `${string}/${string}` | Capitalize<Noun> ? never
      : Verb extends '' | `${string}/${string}` | Capitalize<Verb> ? never
        : (Verb extends `did${Capitalize<string>}` ? 'notification' : 'command') extends K ? M : never
    : never;

/** Defines a message at runtime; {@link command} and {@link notification} are this function with their names checked. */
function define<P>(): <M extends string>(method: M) => IpcMessageType<P, `${typeof chatScope}/${M}`> {
  return (method) => ({ method: `chat/${method}` }); // not `${chatScope}/…`: the webview's bundle has a byte budget (test/harness/packageCheck.mjs)
}

/**
 * Defines a command (webview → host): `command<Params>()('noun/verb')`. Curried so that the params type is
 * written out while the method stays a literal type: the host's schema table is keyed by these literals, so
 * a command without a schema, or a schema that drifts from its params type, does not compile.
 */
const command: <P>() => <M extends string>(method: M & MethodName<M, 'command'>) => IpcMessageType<P, `${typeof chatScope}/${M}`> = define;

/** Defines a notification (host → webview): `notification<Params>()('noun/didVerb')`, as {@link command}. */
const notification: <P>() => <M extends string>(method: M & MethodName<M, 'notification'>) => IpcMessageType<P, `${typeof chatScope}/${M}`> = define;

// ---- webview → host (commands) ----
export interface RequestStateParams { readonly lastSeq?: number }
/** The webview loaded (or reloaded) and wants a snapshot. */
export const RequestStateCommand = command<RequestStateParams>()('state/request');
/**
 * The page acknowledges its first snapshot, so it shows. VS Code delivers messages to a page only once its frame
 * is the active one, and sends a title change only to that frame: the host sets the title again then (chatPanel.ts).
 */
export const AcknowledgeSnapshotCommand = command<Record<string, never>>()('snapshot/acknowledge');

/** `now`: Send Now, into the running turn, for an agent that takes that (docs/chat.md, "Send now"). */
export interface SendPromptParams { readonly text: string; readonly attachments?: readonly AttachmentView[]; readonly now?: boolean }
/** The user sends a prompt (text plus attachments); while the agent works, the host queues it (or, `now`, steers). */
export const SendPromptCommand = command<SendPromptParams>()('prompt/send');

/** The user cancels the running turn. */
export const CancelTurnCommand = command<Record<string, never>>()('turn/cancel');

export interface RespondPermissionParams { readonly requestId: string; readonly optionId: string }
/** The user picked an option of a permission request. */
export const RespondPermissionCommand = command<RespondPermissionParams>()('permission/respond');

export interface RespondElicitationParams {
  readonly requestId: string;
  readonly action: 'accept' | 'decline' | 'cancel';
  /** Form mode, accept: the values entered (the host validates them against the agent's schema). */
  readonly content?: Readonly<Record<string, ElicitationInput>>;
}
/** The user answered an elicitation (for URL mode, `accept` means "open it"). */
export const RespondElicitationCommand = command<RespondElicitationParams>()('elicitation/respond');

export interface RespondElicitationUrlParams { readonly requestId: string; readonly op: 'retry' | 'dismiss' }
/** URL mode, waiting for completion: open the URL again, or stop waiting. */
export const RespondElicitationUrlCommand = command<RespondElicitationUrlParams>()('elicitationUrl/respond');

/** The user turns Follow Agent on or off for this session (the header's toggle button). */
export const ToggleFollowCommand = command<Record<string, never>>()('follow/toggle');

/** The user clicked the session's title in the header (or pressed F2 in the chat): the host asks for a new title. */
export const RenameSessionCommand = command<Record<string, never>>()('session/rename');

/** The user clicked Fork Session in the header: the host forks the session into a new chat. */
export const ForkSessionCommand = command<Record<string, never>>()('session/fork');
/** The header's approval level button: ACP: Set Approval Level… for this chat's session. */
export const SetApprovalLevelCommand = command<Record<string, never>>()('approvalLevel/set');

/** `sessionId`: the subagent whose card has the tool call (absent: the session's own). */
export interface OpenDiffParams { readonly toolCallId: string; readonly index: number; readonly sessionId?: string }
/** The user clicked Open Diff on the diff at `index` of a tool call's content: the host opens the diff editor. */
export const OpenDiffCommand = command<OpenDiffParams>()('diff/open');

export interface OpenLocationParams { readonly toolCallId: string; readonly index: number; readonly sessionId?: string }
/** The user clicked a location of a tool call: the host opens the file at its line. */
export const OpenLocationCommand = command<OpenLocationParams>()('location/open');

/**
 * Which capped text of a tool call to show whole: the text content at `index`, a printed text of its raw output
 * (`label`), the raw output's JSON block, or the raw input's.
 */
export type ToolOutputPart = 'content' | 'rawText' | 'rawJson' | 'rawInput';
export interface OpenToolOutputParams {
  readonly toolCallId: string;
  readonly part: ToolOutputPart;
  /** The content item (`content`). */
  readonly index?: number;
  /** The printed text (`rawText`). */
  readonly label?: 'output' | 'stdout' | 'stderr';
  readonly sessionId?: string;
}
/** Open full output on a card's long text (shown capped): the host opens all of it in a read-only editor. */
export const OpenToolOutputCommand = command<OpenToolOutputParams>()('toolOutput/open');

export interface ShowTerminalParams { readonly terminalId: string }
/** The user clicked Show in terminal on a terminal of a tool call: the host shows that terminal in the panel. */
export const ShowTerminalCommand = command<ShowTerminalParams>()('terminal/show');

/** The user clicked Retry on an error notice: the host resends the last prompt. */
export const RetryPromptCommand = command<Record<string, never>>()('prompt/retry');

/** The user clicked Revert on the turn audit's notice: the host restores the flagged files (docs/approvals.md, "The audit"). */
export const RevertFlaggedCommand = command<Record<string, never>>()('flagged/revert');

/** The user clicked Restart on an agent-exit notice: the host restarts the agent (`switchboard.restartAgent`). */
export const RestartAgentCommand = command<Record<string, never>>()('agent/restart');

/** The user clicked Resend after a restart: the host sends the prompt again that the crash interrupted. */
export const ResendPromptCommand = command<Record<string, never>>()('prompt/resend');

/** The user clicked Queue It on a message the agent did not take while it worked: the host queues it. */
export const QueueUntakenCommand = command<Record<string, never>>()('untaken/queue');

/** The user clicked Continue in New Session (the agent can neither resume nor load this session). */
export const ContinueSessionCommand = command<Record<string, never>>()('session/continue');

export interface DismissNoticeParams { readonly noticeId: string }
/** The user closed one of the agent's live notices: the host forgets it (src/thread/model/agentNotices.ts). */
export const DismissNoticeCommand = command<DismissNoticeParams>()('notice/dismiss');

export interface CancelSubagentParams { readonly sessionId: string }
/** The user clicked Cancel on a subagent's card: the host sends `session/cancel` for it, if the agent permits that. */
export const CancelSubagentCommand = command<CancelSubagentParams>()('subagent/cancel');

export interface StopWorkParams { readonly kind: 'toolCall' | 'terminal'; readonly id: string }
/** The user clicked Stop on a tool call or terminal an ACP v2 agent lets them stop (`tool_call/cancel`, `terminal/cancel`). */
export const StopWorkCommand = command<StopWorkParams>()('work/stop');

export interface OpenLinkParams { readonly href: string }
/**
 * The user clicked a link in agent Markdown (its `data-href`): the host opens http(s) in the external browser
 * after asking, and file links (absolute, `file:` or relative to the session folder, `#L12` / `:12`) in the
 * editor at the line. Anything else is refused.
 */
export const OpenLinkCommand = command<OpenLinkParams>()('link/open');

export interface CodeActionParams { readonly code: string; readonly language?: string }
/** The user clicked Copy on a code block: the host writes the code to the clipboard. */
export const CopyCodeCommand = command<CodeActionParams>()('code/copy');
/** The user clicked Insert at Cursor on a code block: the host inserts it in the last active text editor. */
export const InsertCodeCommand = command<CodeActionParams>()('code/insert');

export interface RequestSnapshotParams { readonly reason: string }
/** The webview saw a gap in the delta sequence and asks for a fresh snapshot. */
export const RequestSnapshotCommand = command<RequestSnapshotParams>()('snapshot/request');

export interface RequestEntriesParams { readonly before: number; readonly count: number }
/** The webview shows the newest entries and asks for `count` entries before index `before` (older first). */
export const RequestEntriesCommand = command<RequestEntriesParams>()('entries/request');

export interface UpdateQueuedPromptParams { readonly id: string; readonly text: string }
/** The user edited a queued prompt. */
export const UpdateQueuedPromptCommand = command<UpdateQueuedPromptParams>()('queuedPrompt/update');

export interface RemoveQueuedPromptParams { readonly id: string }
/** The user removed a queued prompt. */
export const RemoveQueuedPromptCommand = command<RemoveQueuedPromptParams>()('queuedPrompt/remove');

export interface SaveDraftParams { readonly draft: DraftView }
/** The unsent draft changed (debounced); the host keeps it per session across reloads. */
export const SaveDraftCommand = command<SaveDraftParams>()('draft/save');

export interface SetConfigOptionParams { readonly configId: string; readonly value: string | boolean }
/** The user changed a session config option (`session/set_config_option`). */
export const SetConfigOptionCommand = command<SetConfigOptionParams>()('configOption/set');

export interface SetModeParams { readonly modeId: string }
/** The user picked a legacy session mode (`session/set_mode`). */
export const SetModeCommand = command<SetModeParams>()('mode/set');

export interface SearchFilesParams { readonly requestId: number; readonly query: string }
/** The @-mention picker asks for workspace files matching a query; answered by {@link DidSearchFilesNotification}. */
export const SearchFilesCommand = command<SearchFilesParams>()('files/search');

export interface OpenRecentSessionParams { readonly sessionId: string }
/** The user picked a recent session of the same agent in the welcome of an empty chat: the host opens its chat. */
export const OpenRecentSessionCommand = command<OpenRecentSessionParams>()('recentSession/open');

export interface ReviewChangedFileParams { readonly action: ChangedFileAction; readonly path: string }
/** The changed-files bar: Keep, Undo or Open Diff on one file of the session's change record. */
export const ReviewChangedFileCommand = command<ReviewChangedFileParams>()('changedFile/review');

export interface ReviewChangedFilesParams { readonly action: ChangedFilesAllAction }
/** The changed-files bar: Keep All or Undo All (the host asks before Undo All). */
export const ReviewChangedFilesCommand = command<ReviewChangedFilesParams>()('changedFiles/review');

export interface MessageRefParams { readonly entryId: string }
/** The user clicked Copy on a message: the host writes the message as Markdown to the clipboard. */
export const CopyMessageCommand = command<MessageRefParams>()('message/copy');
/** The user clicked Retry on an agent answer: the host sends the prompt that produced it again, as a new turn. */
export const RetryMessageCommand = command<MessageRefParams>()('message/retry');

export interface EditResendMessageParams { readonly entryId: string; readonly text: string }
/**
 * The user edited one of their messages and sends it. The latest: the host cancels the running turn (waits
 * for its end), then sends it. An earlier one: the host restores its checkpoint (after a preview) and sends it
 * in a new session with a compact context of what came before it.
 */
export const EditResendMessageCommand = command<EditResendMessageParams>()('message/editResend');

/** Log In in the header's account chip: the host runs the agent's login methods, then asks its sign-in state again. */
export const LogInAccountCommand = command<Record<string, never>>()('account/logIn');
/** Log Out in the header's account chip: the host runs ACP: Log Out for this session's agent. */
export const LogOutAccountCommand = command<Record<string, never>>()('account/logOut');

export interface ProviderParams { readonly providerId: string }
/** Set… on a model provider in the settings popover: the host runs the Set flow (protocol, base URL, key). */
export const SetProviderCommand = command<ProviderParams>()('provider/set');
/** Disable on a model provider that is not `required`. */
export const DisableProviderCommand = command<ProviderParams>()('provider/disable');

/** The user clicked Restore Checkpoint on one of their messages: the host previews, then restores the files as before it. */
export const RestoreCheckpointCommand = command<MessageRefParams>()('checkpoint/restore');

export interface DiffCheckpointParams { readonly entryId: string; readonly path: string }
/** Open Diff of one file of a checkpoint entry ("Changed in this turn", a restore): the host opens the diff of its two checkpoints. */
export const DiffCheckpointCommand = command<DiffCheckpointParams>()('checkpoint/diff');

export interface UndoCheckpointParams { readonly entryId: string }
/** Undo This Turn or Undo Restore on a checkpoint entry: the host previews, then restores its files. */
export const UndoCheckpointCommand = command<UndoCheckpointParams>()('checkpoint/undo');

/** Every command the webview may send; the host has a schema for each (ipcSchemas.ts) and handles them. */
export type ChatCommand =
  | typeof RequestStateCommand | typeof AcknowledgeSnapshotCommand | typeof SendPromptCommand | typeof CancelTurnCommand | typeof RespondPermissionCommand
  | typeof ToggleFollowCommand | typeof OpenDiffCommand | typeof OpenLocationCommand | typeof OpenToolOutputCommand | typeof ShowTerminalCommand | typeof RetryPromptCommand | typeof RevertFlaggedCommand
  | typeof RestartAgentCommand | typeof ResendPromptCommand | typeof ContinueSessionCommand | typeof OpenLinkCommand | typeof CopyCodeCommand
  | typeof InsertCodeCommand | typeof RequestSnapshotCommand | typeof RequestEntriesCommand
  | typeof UpdateQueuedPromptCommand | typeof RemoveQueuedPromptCommand | typeof SaveDraftCommand
  | typeof SetConfigOptionCommand | typeof SetModeCommand | typeof SearchFilesCommand
  | typeof OpenRecentSessionCommand | typeof ReviewChangedFileCommand | typeof ReviewChangedFilesCommand
  | typeof CopyMessageCommand | typeof RetryMessageCommand | typeof EditResendMessageCommand | typeof DismissNoticeCommand | typeof QueueUntakenCommand
  | typeof RespondElicitationCommand | typeof RespondElicitationUrlCommand | typeof CancelSubagentCommand | typeof StopWorkCommand
  | typeof LogInAccountCommand | typeof LogOutAccountCommand | typeof SetProviderCommand | typeof DisableProviderCommand
  | typeof RestoreCheckpointCommand | typeof DiffCheckpointCommand | typeof UndoCheckpointCommand
  | typeof RenameSessionCommand | typeof ForkSessionCommand | typeof SetApprovalLevelCommand;

/** The method string of a command. */
export type CommandMethod = ChatCommand['method'];

/** The params type of the command with method `M`. */
export type ParamsOf<M extends CommandMethod> = Extract<ChatCommand, { readonly method: M }> extends IpcMessageType<infer P, M> ? P : never;

/** How the webview posts a command: one of {@link ChatCommand}, with its params. */
export type PostCommand = <M extends CommandMethod>(type: IpcMessageType<ParamsOf<M>, M>, params: ParamsOf<M>) => void;

// ---- host → webview (notifications) ----
/** The composer's host state: queue, history, kept draft, send key, what the agent accepts. */
export const DidChangeComposerNotification = notification<ComposerStateView>()('composer/didChange');

export interface DidSearchFilesParams { readonly requestId: number; readonly matches: readonly FileMatchView[] }
/** The answer to {@link SearchFilesCommand}. */
export const DidSearchFilesNotification = notification<DidSearchFilesParams>()('files/didSearch');

export interface DidAddAttachmentParams { readonly attachment: AttachmentView }
/** Something to attach to the draft (ACP: Add Selection to Chat). */
export const DidAddAttachmentNotification = notification<DidAddAttachmentParams>()('attachment/didAdd');

/** What the welcome of an empty chat shows: the agent, its capabilities, its recent sessions (on ready). */
export const DidChangeWelcomeNotification = notification<WelcomeView>()('welcome/didChange');

/** A full snapshot (on ready, after a gap). */
export const DidSnapshotThreadNotification = notification<ThreadSnapshot>()('thread/didSnapshot');

export interface DidLoadEntriesParams {
  /** The seq the entries are current at (the host sends its pending deltas first). */
  readonly seq: number;
  /** The thread index of `entries[0]`. */
  readonly from: number;
  readonly entries: readonly EntryView[];
}
/** The answer to {@link RequestEntriesCommand}: older entries, to be put before the ones the webview has. */
export const DidLoadEntriesNotification = notification<DidLoadEntriesParams>()('entries/didLoad');

export interface DidChangeThreadParams { readonly firstSeq: number; readonly deltas: readonly ThreadDelta[] }
/** Deltas since the last message; `firstSeq` is the seq of `deltas[0]`, the rest follow by one each. */
export const DidChangeThreadNotification = notification<DidChangeThreadParams>()('thread/didChange');

/** The files the agent changed that are not kept or undone yet (the changed-files bar); sent on every change. */
export const DidChangeChangedFilesNotification = notification<ChangedFilesView>()('changedFiles/didChange');

/** The agent's sign-in state and model providers (a part is absent without its capability); on ready and on every change. */
export const DidChangeAccountNotification = notification<AgentAccountView>()('account/didChange');

/**
 * Moves the focus to the newest pending request (a permission or a question), as Ctrl+Shift+A does: sent when the
 * user jumps to a session that waits for them (ACP: Go to Next Session Waiting for You), never by the agent.
 */
export const DidRequestFocusNotification = notification<Record<string, never>>()('focus/didRequest');

/** Every notification the host may post; the table below is derived from it, so a notification outside it cannot be posted. */
export type ChatNotification =
  | typeof DidChangeComposerNotification | typeof DidSearchFilesNotification | typeof DidAddAttachmentNotification
  | typeof DidChangeWelcomeNotification | typeof DidSnapshotThreadNotification | typeof DidLoadEntriesNotification
  | typeof DidChangeThreadNotification | typeof DidChangeChangedFilesNotification | typeof DidChangeAccountNotification
  | typeof DidRequestFocusNotification;

/** The notification table: the params type of each notification, by method. The host posts by it, the webview's inbox receives by it. */
export type NotificationTable = { readonly [N in ChatNotification as N['method']]: N extends IpcMessageType<infer P, string> ? P : never };

/** The method string of a notification. */
export type NotificationMethod = keyof NotificationTable;

/** A notification as it crosses the wire: a method of the table and that method's params. */
export type NotificationMessage<M extends NotificationMethod = NotificationMethod> = {
  readonly [K in M]: { readonly method: K; readonly params: NotificationTable[K] }
}[M];

/** How the host posts a notification: one of the table's, with its params. */
export type PostNotification = <M extends NotificationMethod>(type: IpcMessageType<NotificationTable[M], M>, params: NotificationTable[M]) => void;
