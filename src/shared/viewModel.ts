/**
 * Serializable view types shared by the extension host and the chat webview. The host owns the conversation (src/thread) and projects
 * it into these shapes (src/thread/view/toView.ts); the webview only renders them. No vscode, no node, no DOM here (docs/architecture.md#layers).
 */
import type { ElicitationView } from './elicitationModel';
import type { DiffHunkView, RawOutputView } from './rawOutputModel';
import type { levelView } from './approvalLevel';

/** Where a session stands, as the chat and the status bar show it. */
export type SessionStatus = 'starting' | 'idle' | 'working' | 'awaitingPermission' | 'disconnected' | 'reconnecting' | 'error';

/** A content block of a message, reduced to what the chat renders. */
export type ContentView =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly type: 'resource'; readonly uri: string; readonly name: string; readonly text?: string }
  | { readonly type: 'other'; readonly label: string };

/** A user's message. */
export interface UserMessageView {
  readonly kind: 'user';
  readonly id: string;
  readonly content: readonly ContentView[];
  /** Set when the message is the context block of Continue in New Session: the chat shows it collapsed, "Context from '<title>' (N turns, M files)". */
  readonly context?: { readonly title: string; readonly turns: number; readonly files: number };
  /** True when a checkpoint was taken before it: the message offers Restore Checkpoint (docs/checkpoints.md). */
  readonly checkpoint?: boolean;
  /** Sent while the agent worked ("Send now", docs/chat.md): taken into the running turn, or starting a turn of the agent's own. */
  readonly steered?: 'injected' | 'startedNewTurn';
}

/** An agent's message or thought: streamed text plus any non-text blocks. */
export interface AgentTextView {
  readonly kind: 'agent' | 'thought';
  readonly id: string;
  readonly text: string;
  readonly blocks: readonly ContentView[];
}

/** Status of a tool call, including the client-side states the wire does not have. */
export type ToolCallStatusView = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'waitingForConfirmation';

/** One option of a permission request. */
export interface PermissionOptionView {
  readonly optionId: string;
  readonly name: string;
  readonly kind: string;
}

/**
 * One thing a permission request is about, verbatim from the tool call (src/thread/view/permissionSubject.ts):
 * the command line that runs, the directory it runs in, or a path it reads or writes.
 */
export interface PermissionSubjectView { readonly kind: 'command' | 'cwd' | 'path'; readonly text: string }

/**
 * What the card leaves out of a long text of a tool call (src/thread/view/toolTextPreview.ts): the content's text is
 * the head, then `omittedChars` are left out, then comes `tail`. Open full output shows all of it.
 */
export interface ToolTextCut {
  readonly omittedChars: number;
  /** The whole text's length. */
  readonly totalChars: number;
  readonly tail: string;
}

/** A content item of a tool call; `cut`: a long text, of which `content` is the head (plain text). */
export type ToolContentView =
  | { readonly type: 'content'; readonly content: ContentView; readonly cut?: ToolTextCut }
  /** A file edit as hunks made on the host (src/thread/view/diffHunks.ts); `tooLarge`: not diffed (Open Diff shows it). */
  | { readonly type: 'diff'; readonly path: string; readonly added: boolean; readonly hunks: readonly DiffHunkView[]; readonly tooLarge?: true }
  | { readonly type: 'terminal'; readonly terminalId: string };

/** A tool call card. */
export interface ToolCallView {
  readonly kind: 'toolCall';
  readonly id: string;
  readonly toolCallId: string;
  readonly title: string;
  /** The agent's programmatic name of the tool (`ToolCall.name`), when it sent one. */
  readonly toolName?: string;
  readonly toolKind: string;
  readonly status: ToolCallStatusView;
  readonly content: readonly ToolContentView[];
  readonly locations: readonly { readonly path: string; readonly line?: number }[];
  /** Raw input, pretty-printed JSON (its first 32 KiB), when the agent sent one. */
  readonly rawInput?: string;
  /** Characters of the raw input's JSON left out by the cap. */
  readonly rawInputDroppedChars?: number;
  /**
   * The raw output (src/thread/view/rawOutput.ts): the command, its output and diffs when the call has no content of its
   * own, and the rest as JSON.
   */
  readonly rawOutput?: RawOutputView;
  /**
   * Set while the agent waits for the user's permission; `subject` is what the dialog shows the user is
   * approving (absent when the tool call names no command or path).
   */
  /** `fromClient`: a question of Switchboard's own (a write or command no answer covers: docs/approvals.md), not the agent's. */
  readonly permission?: { readonly requestId: string; readonly options: readonly PermissionOptionView[]; readonly subject?: readonly PermissionSubjectView[]; readonly fromClient?: boolean };
  /** Set once a permission request was answered, e.g. "Allowed once" or "Auto-approved (reads)". */
  readonly permissionOutcome?: string;
  /** Elicitations the agent scoped to this tool call (`toolCallId`), oldest first. */
  readonly elicitations?: readonly ElicitationView[];
  /** An ACP v2 agent lets the user stop this call on its own (its card offers Stop: docs/acp-v2.md). */
  readonly cancellable?: boolean;
}

/** A notice in the transcript: stop reasons, errors, agent exits. */
export interface NoticeView {
  readonly kind: 'notice';
  readonly id: string;
  readonly level: 'info' | 'warning' | 'error';
  readonly text: string;
  /** A button on the notice: `retry` resends the last prompt (after an agent error), `restart` restarts the agent,
   * `resend` sends the prompt again that was interrupted when the agent exited, `continue` starts a new session
   * that carries this transcript (the agent can neither resume nor load this one), `revert` restores the files the
   * turn audit flagged from the checkpoint before the turn (docs/approvals.md, "The audit"). */
  readonly action?: NoticeAction;
  /** `fork`: the first entry of a forked session, "Forked from …" (the transcript below it is the source's). */
  readonly marker?: 'fork';
}

/** What a notice's button does. */
export type NoticeAction = 'retry' | 'restart' | 'reconnect' | 'resend' | 'continue' | 'revert' | 'queue';

/** An elicitation of the session not scoped to a tool call: its own entry of the transcript. */
export interface ElicitationEntryView {
  readonly kind: 'elicitation';
  readonly id: string;
  readonly elicitation: ElicitationView;
}

/**
 * A context compaction of the agent (`compaction_update`, https://agentclientprotocol.com/protocol/schema#compactionupdate): where it happened
 * in the timeline, its status and the summary the agent streamed (Markdown text of its text blocks).
 */
export interface CompactionView {
  readonly kind: 'compaction';
  readonly id: string;
  readonly compactionId: string;
  /** `in_progress`, `completed`, `failed`, `cancelled`, or `other` for a status this client does not know. */
  readonly status: CompactionStatusView;
  /** The summary's text blocks, joined; its other blocks as {@link blocks}. */
  readonly summary: string;
  readonly blocks: readonly ContentView[];
  /** Why it failed, as the agent said it. */
  readonly error?: string;
}

/** The status of a compaction as the chat shows it. */
export type CompactionStatusView = 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'other';

/**
 * What a subagent is doing, from its `state` (https://agentclientprotocol.com/protocol/v1/draft/subagents): `running`,
 * `waiting` (blocked on the user), `done` (idle after its work ended), `failed` (ended by an error or a refusal),
 * `cancelled`, or `unknown` (never reported, or the agent cannot tell).
 */
export type SubagentStatusView = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled' | 'unknown';

/**
 * A subagent the agent exposed as a child session (`subagent_update`): a card at the place of its first update,
 * with the parent's title and description of it, its status and its own transcript (messages, thoughts, tool
 * calls, nested subagents), rendered with the same components as the session's.
 */
export interface SubagentView {
  readonly kind: 'subagent';
  readonly id: string;
  /** The child's session id. */
  readonly sessionId: string;
  readonly title?: string;
  readonly description?: string;
  readonly status: SubagentStatusView;
  /** Why it failed or stopped (the agent's error message, "max tokens", …). */
  readonly detail?: string;
  /** The agent allows the client to cancel its current work (`capabilities.cancel`), and it is working. */
  readonly canCancel: boolean;
  /** Where the agent placed it, when that is not the session's folder. */
  readonly cwd?: string;
  readonly entries: readonly EntryView[];
  /** The subagent's own plans (its legacy `plan` has the id ''). */
  readonly plans?: readonly PlanView[];
}

/**
 * A message between sessions (`session_message`, `session_message_chunk`): `in` was received by the session whose
 * transcript shows it, `out` was sent by it; `peer` names the other session (a subagent's title) when it is known.
 */
export interface SessionMessageView {
  readonly kind: 'sessionMessage';
  readonly id: string;
  readonly direction: 'in' | 'out' | 'unknown';
  readonly peer?: string;
  /** The text blocks, joined (Markdown); the other blocks as {@link blocks}. */
  readonly text: string;
  readonly blocks: readonly ContentView[];
}


/** One file of a {@link ChangesView}. */
export interface ChangedFileLineView {
  /** Absolute path: the key the webview sends back with Open Diff. */
  readonly path: string;
  readonly name: string;
  /** The folder, relative to its root ('' at the root). */
  readonly folder: string;
  readonly change: 'created' | 'modified' | 'deleted';
  /** Lines added and removed; absent for a binary file. */
  readonly added?: number;
  readonly removed?: number;
}

/**
 * A compact record of checkpoints in the transcript: `turn`, "Changed in this turn" (Open Diff per file, Undo
 * This Turn); `restore`, a restored checkpoint (Open Diff per file, Undo Restore). `undone` once it was undone.
 */
export interface ChangesView {
  readonly kind: 'changes';
  readonly id: string;
  readonly role: 'turn' | 'restore';
  readonly files: readonly ChangedFileLineView[];
  /** A restore: what it restored, e.g. `the checkpoint before "Fix the bug"`. */
  readonly label?: string;
  /** Files left as they were because no checkpoint has them. */
  readonly leftAlone?: number;
  readonly undone?: boolean;
}

/** One entry of the transcript; `afterRestore` when it came after a checkpoint the user restored (shown dimmed). */
export type EntryView = (UserMessageView | AgentTextView | ToolCallView | NoticeView | CompactionView | ElicitationEntryView | SubagentView | SessionMessageView | ChangesView) & { readonly afterRestore?: boolean };

/**
 * A live notice of the agent (`notice` session update, https://agentclientprotocol.com/rfds/session-notices):
 * shown until dismissed or pushed out by newer ones, never part of the transcript. Plain text.
 */
export interface AgentNoticeView {
  readonly id: string;
  /** Unknown and `_`-prefixed severities show as `info`. */
  readonly severity: 'info' | 'warning' | 'error';
  readonly title: string;
  readonly description?: string;
}

/** One line of the agent's plan. */
export interface PlanEntryView {
  readonly content: string;
  readonly priority: string;
  /** `pending`, `in_progress`, `completed`, or `cancelled` (client-side: the turn ended before the step did). */
  readonly status: string;
}

/**
 * A plan the agent keeps by id (`plan_update`, https://agentclientprotocol.com/rfds/plan-operations): steps like the
 * legacy plan, Markdown (rendered sanitized), or a file the user can open.
 */
export type PlanView =
  | { readonly planId: string; readonly type: 'items'; readonly entries: readonly PlanEntryView[] }
  | { readonly planId: string; readonly type: 'markdown'; readonly content: string }
  | { readonly planId: string; readonly type: 'file'; readonly uri: string };

/** One choice of a select config option. */
export interface ConfigChoiceView {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
}

/**
 * A session config option (https://agentclientprotocol.com/protocol/session-config-options); a flat select has
 * one group without a name.
 */
export type ConfigOptionView =
  | { readonly type: 'select'; readonly id: string; readonly name: string; readonly description?: string; readonly category?: string; readonly currentValue: string; readonly groups: readonly { readonly name?: string; readonly options: readonly ConfigChoiceView[] }[] }
  | { readonly type: 'boolean'; readonly id: string; readonly name: string; readonly description?: string; readonly category?: string; readonly currentValue: boolean };

/**
 * Legacy session modes (https://agentclientprotocol.com/protocol/session-modes), shown only when no config option has
 * category `mode`.
 */
export interface ModesView {
  readonly currentModeId: string;
  readonly available: readonly ConfigChoiceView[];
}

/**
 * What every surface shows for a session with no title yet (before its first prompt: after it, the prompt
 * is the title until the agent sends one).
 */
export const untitledSession = 'New session';

/**
 * Token counts of one prompt turn as the agent reported them (`PromptResponse.usage`, unstable:
 * https://agentclientprotocol.com/rfds/end-turn-token-usage); the optional ones are absent when not reported.
 */
export interface TurnUsageView {
  readonly total: number;
  readonly input: number;
  readonly output: number;
  readonly thought?: number;
  readonly cachedRead?: number;
  readonly cachedWrite?: number;
}

/** Thread-level state besides the transcript. */
export interface ThreadStateView {
  readonly sessionId: string;
  readonly title: string;
  /** What the chat shows while `title` is empty (src/shared/sessionTitles.ts); absent: {@link untitledSession}. */
  readonly untitledTitle?: string;
  readonly agentName: string;
  readonly status: SessionStatus;
  /** Whether Follow Agent is on for this session (the header's toggle button). */
  readonly following: boolean;
  /** Whether the header offers Fork Session (the agent advertises `session/fork`). */
  readonly canFork?: boolean;
  readonly approvals?: ReturnType<typeof levelView>; // the session's approval level, as the header's button shows it
  /** The session's folders: its cwd, then its additional directories (the header's tooltip). */
  readonly roots?: readonly string[];
  /** The MCP servers the session got, the editor's tools first, as lines for the header's tooltip (docs/editor-tools.md). */
  readonly mcp?: string;
  readonly plan: readonly PlanEntryView[];
  /** The plans the agent keeps by id, oldest first (absent when there are none). */
  readonly plans?: readonly PlanView[];
  readonly commands: readonly { readonly name: string; readonly description: string; readonly hint?: string }[];
  readonly usage?: { readonly used: number; readonly size: number; readonly cost?: { readonly amount: number; readonly currency: string } };
  /** The tokens the agent reported with the last turn's prompt response (shown with the usage meter). */
  readonly turnUsage?: TurnUsageView;
  /** The agent's own name, title and version (`agentInfo` of `initialize`), for the header's tooltip. */
  readonly agentInfo?: { readonly name: string; readonly title?: string; readonly version: string };
  /** Why the session cannot be used right now (agent exited, failed to start, …). */
  readonly error?: string;
  /** The button the error banner offers. */
  readonly errorAction?: NoticeAction;
  /** The session's config options, in the agent's order. */
  readonly configOptions?: readonly ConfigOptionView[];
  /** Legacy modes, when the agent has them and no config option of category `mode`. */
  readonly modes?: ModesView;
  /** The agent's live notices, newest first (absent when there are none). */
  readonly notices?: readonly AgentNoticeView[];
  /** What an ACP v2 agent runs in the background, in its order (absent when nothing). */
  readonly background?: readonly BackgroundWorkView[];
}


/** Characters of output the chat keeps per agent terminal (src/shared/terminalTail.ts). */
export { terminalTailChars } from './terminalTail';
export type { BackgroundWorkView, TerminalView } from './workView';
import type { BackgroundWorkView, TerminalView } from './workView';


/** Everything the chat shows, sent when the webview is (re)loaded or missed a delta. */
export interface ThreadSnapshot {
  readonly seq: number;
  readonly state: ThreadStateView;
  /**
   * The newest entries, from index `firstIndex` on: a long transcript shows its end at once and the
   * webview asks for the older entries afterwards ({@link snapshotTailEntries}).
   */
  readonly entries: readonly EntryView[];
  /** The thread index of `entries[0]`; 0 (or absent) when the snapshot holds every entry. */
  readonly firstIndex?: number;
  /** The agent terminals of the session whose output the chat keeps, oldest first. */
  readonly terminals?: readonly TerminalView[];
  /**
   * Which session the chat shows (as the page's `data-restore`), for the webview's own state: a chat opened
   * while its agent was starting had no session yet when its page loaded (src/chatHost/startingChat.ts).
   */
  readonly restore?: { readonly sessionId: string; readonly agentId: string; readonly cwd: string };
}

/** One change of the thread, applied in `seq` order. */
export type ThreadDelta =
  | { readonly op: 'append'; readonly index: number; readonly text: string }
  | { readonly op: 'entry'; readonly index: number; readonly entry: EntryView }
  /**
   * Text appended to, or the whole of, an entry inside a subagent's card: `index` is the card's entry, `path` the
   * indices below it (a nested subagent's card, then its entry), so a subagent streams O(chunk) too.
   */
  | { readonly op: 'subAppend'; readonly index: number; readonly path: readonly number[]; readonly text: string }
  | { readonly op: 'subEntry'; readonly index: number; readonly path: readonly number[]; readonly entry: EntryView }
  | { readonly op: 'state'; readonly state: ThreadStateView }
  /** Output appended to a terminal (raw text), O(chunk). */
  | { readonly op: 'terminalOutput'; readonly terminalId: string; readonly text: string }
  /** A terminal's whole view (added, exited, released); null when the chat no longer keeps it. */
  | { readonly op: 'terminal'; readonly terminalId: string; readonly terminal: TerminalView | null };

/** How many of the newest entries a snapshot carries; the webview asks for the older ones after it painted. */
export const snapshotTailEntries = 40;
/** How many older entries the webview asks for at a time. */
export const olderEntriesPage = 200;
