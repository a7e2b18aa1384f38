/**
 * The entries of a thread's transcript (what the transcript store keeps, src/host/history/transcriptLog.ts), and the
 * changes the thread fires (src/thread/model/thread.ts). A subagent's card holds the subagent's own entries
 * (src/thread/model/subagents.ts). Types only, in a file of their own so that the thread's class stays about behaviour.
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import type { ElicitationView } from '../../shared/elicitationModel';
import type { CompactionEntry } from './compaction';
import type { PlanState } from './plans';
import type { TerminalStoreChange } from './terminalOutputStore';
import type { ToolCallEntry } from './toolCall';
import type { ChangesEntry } from './turnChanges';

/** Where a session stands (the chat, the status bar and the Sessions view show it: src/thread/view/). */
export type SessionStatus = 'starting' | 'idle' | 'working' | 'awaitingPermission' | 'disconnected' | 'reconnecting' | 'error';

/**
 * What a notice's button does: `retry` sends the prompt again, `restart` restarts the agent, `resend` sends the
 * prompt again that was interrupted when the agent exited, `continue` starts a new session that carries this transcript.
 */
export type NoticeAction = 'retry' | 'restart' | 'reconnect' | 'resend' | 'continue' | 'revert' | 'queue';

/**
 * A user's prompt as sent; `checkpointId` names the checkpoint taken before it (src/thread/model/turnChanges.ts); `steered`:
 * sent while a turn ran (src/acp/steering.ts), taken into it or starting a turn of the agent's own.
 */
export interface UserEntry { readonly kind: 'user'; readonly id: string; readonly content: ContentBlock[]; checkpointId?: string; readonly steered?: Steered }
/** How a message sent while the agent worked was taken. */
export type Steered = 'injected' | 'startedNewTurn';
/** An agent message or thought: text accumulated from chunks, plus non-text blocks. */
export interface TextEntry { readonly kind: 'agent' | 'thought'; readonly id: string; messageId?: string; text: string; blocks: ContentBlock[] }
/** A notice: stop reason, error, agent exit; `marker: 'fork'` is the first entry of a fork ("Forked from …"). */
export interface NoticeEntry { readonly kind: 'notice'; readonly id: string; readonly level: 'info' | 'warning' | 'error'; readonly text: string; readonly action?: NoticeAction; readonly marker?: 'fork' }
/** An elicitation not scoped to a tool call (src/thread/model/elicitations.ts). */
export interface ElicitationEntry { readonly kind: 'elicitation'; readonly id: string; elicitation: ElicitationView }

/** What a subagent's `state` said last, kept as plain fields (src/thread/model/subagents.ts). */
export interface SubagentState {
  /** `running`, `idle`, `requires_action`, `unknown`, or a value of a newer protocol. */
  readonly state: string;
  /** For `idle`: why its work stopped (`end_turn`, `error`, `cancelled`, …), when the agent said. */
  readonly stopReason?: string;
  /** For `idle` with `error`: the error's message. */
  readonly error?: string;
}

/** A subagent exposed as a child session: its card, with the child's own transcript (src/thread/model/subagents.ts). */
export interface SubagentEntry {
  readonly kind: 'subagent';
  readonly id: string;
  /** The child's session id. */
  readonly sessionId: string;
  title?: string;
  description?: string;
  /** The agent permits the client to cancel the child's current work (`capabilities.cancel`). */
  cancel?: boolean;
  state?: SubagentState;
  cwd?: string;
  additionalDirectories?: string[];
  /** The child's transcript. */
  readonly entries: ThreadEntry[];
  /** The child's plans: by id, and its legacy `plan` under the id ''. */
  plans?: PlanState[];
}

/** A message between sessions, upserted by `messageId` (src/thread/model/sessionMessages.ts). */
export interface SessionMessageEntry {
  readonly kind: 'sessionMessage';
  readonly id: string;
  readonly messageId: string;
  sender?: string;
  recipient?: string;
  content: ContentBlock[];
}

/** An entry of the transcript. */
/** Set on the entries that came after a checkpoint the user restored (shown dimmed, never deleted). */
export interface EntryMarks { afterRestore?: boolean }

export type ThreadEntry = (UserEntry | TextEntry | ToolCallEntry | NoticeEntry | CompactionEntry | ElicitationEntry | SubagentEntry | SessionMessageEntry | ChangesEntry) & EntryMarks;

/**
 * An entry changed: of the session's own transcript (`append`: text added to a message, `entry`: new or changed), or
 * inside a subagent's card (`subAppend`, `subEntry`): `index` is the card's entry, `path` the indices below it.
 */
export type EntryChange =
  | { readonly type: 'append'; readonly index: number; readonly text: string }
  | { readonly type: 'entry'; readonly index: number }
  | { readonly type: 'subAppend'; readonly index: number; readonly path: readonly number[]; readonly text: string }
  | { readonly type: 'subEntry'; readonly index: number; readonly path: readonly number[] };

/**
 * A thread-level field changed: `title`, `status` (with `error`, set together), `plan`, `usage`, `commands`
 * (available slash commands), `config` (config options), `modes` (legacy modes and the current mode), `roots`,
 * `notices` (the agent's live notices, src/thread/model/agentNotices.ts) or `agent` (the agent's `agentInfo`). `usage`
 * also fires when a turn ended with the usage of its prompt response. Follow Agent and Fork are the host's state, not
 * the thread's (src/chatHost/chatBinding.ts `headerFacts`).
 */
export interface ThreadStateChange { readonly type: 'title' | 'status' | 'plan' | 'usage' | 'commands' | 'config' | 'modes' | 'roots' | 'notices' | 'agent' | 'background' }

/** What changed, so views can update just that. */
export type ThreadChange =
  | EntryChange
  | ThreadStateChange
  /** Terminal output or terminal state (see `AcpThread.terminals`). */
  | TerminalStoreChange;

/** Logs what the thread ignored. */
export interface ThreadLogger { info(message: string): void }
