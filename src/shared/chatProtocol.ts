/**
 * The typed contract between the chat webview and the extension host (GitLens-style IPC,
 * ARCHITECTURE.md 1.3/1.5 item 7). Method strings are `chat/<noun>/<verb>`. Commands go webview → host,
 * notifications host → webview. The host validates every incoming message with zod (src/webviews/chat).
 */
import type { AttachmentView, ComposerStateView, DraftView, FileMatchView } from './composerModel';
import type { EntryView, ThreadDelta, ThreadSnapshot } from './viewModel';

/** The IPC scope of the chat. */
export const chatScope = 'chat';

/** A message definition: its method and (phantom) params type. */
export interface IpcMessageType<P> {
  readonly method: string;
  /** Never set: carries the params type for `is()` and `params()`. */
  readonly _params?: P;
}

function define<P>(method: string): IpcMessageType<P> {
  return { method: `${chatScope}/${method}` };
}

/** The wire envelope of every IPC message. */
export interface IpcMessage<P = unknown> {
  readonly method: string;
  readonly params: P;
}

/** True when `msg` is an instance of `type`. */
export function isIpc<P>(type: IpcMessageType<P>, msg: IpcMessage): msg is IpcMessage<P> {
  return msg.method === type.method;
}

// ---- webview → host (commands) ----
export interface ReadyParams { readonly lastSeq?: number }
/** The webview loaded (or reloaded) and wants a snapshot. */
export const ReadyCommand = define<ReadyParams>('webview/ready');

export interface SendPromptParams { readonly text: string; readonly attachments?: readonly AttachmentView[] }
/** The user sends a prompt (text plus attachments); while the agent works, the host queues it. */
export const SendPromptCommand = define<SendPromptParams>('prompt/send');

/** The user cancels the running turn. */
export const CancelTurnCommand = define<Record<string, never>>('turn/cancel');

export interface RespondPermissionParams { readonly requestId: string; readonly optionId: string }
/** The user picked an option of a permission request. */
export const RespondPermissionCommand = define<RespondPermissionParams>('permission/respond');

/** The user turns Follow Agent on or off for this session (the header's toggle button). */
export const ToggleFollowCommand = define<Record<string, never>>('follow/toggle');

export interface OpenDiffParams { readonly toolCallId: string; readonly index: number }
/** The user clicked Open Diff on the diff at `index` of a tool call's content: the host opens the diff editor. */
export const OpenDiffCommand = define<OpenDiffParams>('diff/open');

export interface OpenLocationParams { readonly toolCallId: string; readonly index: number }
/** The user clicked a location of a tool call: the host opens the file at its line. */
export const OpenLocationCommand = define<OpenLocationParams>('location/open');

/** The user clicked Retry on an error notice: the host resends the last prompt. */
export const RetryPromptCommand = define<Record<string, never>>('prompt/retry');

/** The user clicked Restart on an agent-exit notice: the host restarts the agent (`switchboard.restartAgent`). */
export const RestartAgentCommand = define<Record<string, never>>('agent/restart');

/** The user clicked Resend after a restart: the host sends the prompt again that the crash interrupted. */
export const ResendPromptCommand = define<Record<string, never>>('prompt/resend');

export interface OpenLinkParams { readonly href: string }
/**
 * The user clicked a link in agent Markdown (its `data-href`): the host opens http(s) in the external browser
 * after asking, and file links (absolute, `file:` or relative to the session folder, `#L12` / `:12`) in the
 * editor at the line. Anything else is refused.
 */
export const OpenLinkCommand = define<OpenLinkParams>('link/open');

export interface CodeActionParams { readonly code: string; readonly language?: string }
/** The user clicked Copy on a code block: the host writes the code to the clipboard. */
export const CopyCodeCommand = define<CodeActionParams>('code/copy');
/** The user clicked Insert at Cursor on a code block: the host inserts it in the last active text editor. */
export const InsertCodeCommand = define<CodeActionParams>('code/insert');

export interface SnapshotRequestParams { readonly reason: string }
/** The webview saw a gap in the delta sequence and asks for a fresh snapshot. */
export const RequestSnapshotCommand = define<SnapshotRequestParams>('thread/resync');

export interface RequestEntriesParams { readonly before: number; readonly count: number }
/** The webview shows the newest entries and asks for `count` entries before index `before` (older first). */
export const RequestEntriesCommand = define<RequestEntriesParams>('thread/requestEntries');

export interface UpdateQueuedPromptParams { readonly id: string; readonly text: string }
/** The user edited a queued prompt. */
export const UpdateQueuedPromptCommand = define<UpdateQueuedPromptParams>('queue/update');

export interface RemoveQueuedPromptParams { readonly id: string }
/** The user removed a queued prompt. */
export const RemoveQueuedPromptCommand = define<RemoveQueuedPromptParams>('queue/remove');

export interface SaveDraftParams { readonly draft: DraftView }
/** The unsent draft changed (debounced); the host keeps it per session across reloads. */
export const SaveDraftCommand = define<SaveDraftParams>('draft/save');

export interface SetConfigOptionParams { readonly configId: string; readonly value: string | boolean }
/** The user changed a session config option (`session/set_config_option`). */
export const SetConfigOptionCommand = define<SetConfigOptionParams>('config/set');

export interface SetModeParams { readonly modeId: string }
/** The user picked a legacy session mode (`session/set_mode`). */
export const SetModeCommand = define<SetModeParams>('mode/set');

export interface SearchFilesParams { readonly requestId: number; readonly query: string }
/** The @-mention picker asks for workspace files matching a query; answered by {@link DidSearchFilesNotification}. */
export const SearchFilesCommand = define<SearchFilesParams>('files/search');

// ---- host → webview (notifications) ----
/** The composer's host state: queue, history, kept draft, send key, what the agent accepts. */
export const DidChangeComposerNotification = define<ComposerStateView>('composer/didChange');

export interface DidSearchFilesParams { readonly requestId: number; readonly matches: readonly FileMatchView[] }
/** The answer to {@link SearchFilesCommand}. */
export const DidSearchFilesNotification = define<DidSearchFilesParams>('files/didSearch');

export interface DidAttachParams { readonly attachment: AttachmentView }
/** Something to attach to the draft (ACP: Add Selection to Chat). */
export const DidAttachNotification = define<DidAttachParams>('composer/didAttach');

/** A full snapshot (on ready, after a gap). */
export const DidSnapshotNotification = define<ThreadSnapshot>('thread/didSnapshot');

export interface DidEntriesParams {
  /** The seq the entries are current at (the host sends its pending deltas first). */
  readonly seq: number;
  /** The thread index of `entries[0]`. */
  readonly from: number;
  readonly entries: readonly EntryView[];
}
/** The answer to {@link RequestEntriesCommand}: older entries, to be put before the ones the webview has. */
export const DidEntriesNotification = define<DidEntriesParams>('thread/didEntries');

export interface DidChangeParams { readonly firstSeq: number; readonly deltas: readonly ThreadDelta[] }
/** Deltas since the last message; `firstSeq` is the seq of `deltas[0]`, the rest follow by one each. */
export const DidChangeNotification = define<DidChangeParams>('thread/didChange');
