/**
 * The entries of a thread's transcript and the change events of a thread (src/thread/thread.ts). Pure types.
 */
import type { ContentBlock } from '../acp/schema/types.gen';
import type { ElicitationView } from '../shared/elicitationModel';
import type { NoticeAction } from '../shared/viewModel';
import type { CompactionEntry } from './compaction';
import type { TerminalStoreChange } from './terminalOutputStore';
import type { ToolCallEntry } from './toolCall';
import type { ChangesEntry } from './turnChanges';

/** A user's prompt as sent; `checkpointId` names the checkpoint taken before it (src/thread/turnChanges.ts). */
export interface UserEntry { readonly kind: 'user'; readonly id: string; readonly content: ContentBlock[]; checkpointId?: string }
/** An agent message or thought: text accumulated from chunks, plus non-text blocks. */
export interface TextEntry { readonly kind: 'agent' | 'thought'; readonly id: string; messageId?: string; text: string; blocks: ContentBlock[] }
/** A notice: stop reason, error, agent exit. */
export interface NoticeEntry { readonly kind: 'notice'; readonly id: string; readonly level: 'info' | 'warning' | 'error'; readonly text: string; readonly action?: NoticeAction }
/** An elicitation not scoped to a tool call (src/thread/elicitations.ts). */
export interface ElicitationEntry { readonly kind: 'elicitation'; readonly id: string; elicitation: ElicitationView }
/** Set on the entries that came after a checkpoint the user restored (shown dimmed, never deleted). */
export interface EntryMarks { afterRestore?: boolean }
/** An entry of the transcript. */
export type ThreadEntry = (UserEntry | TextEntry | ToolCallEntry | NoticeEntry | CompactionEntry | ElicitationEntry | ChangesEntry) & EntryMarks;

/**
 * A thread-level field changed: `title`, `status` (with `error`, set together), `plan`, `usage`, `commands`
 * (available slash commands), `config` (config options), `modes` (legacy modes and the current mode) or
 * `following` (Follow Agent), `roots`, `notices` (the agent's live notices, src/thread/agentNotices.ts).
 */
export interface ThreadStateChange { readonly type: 'title' | 'status' | 'plan' | 'usage' | 'commands' | 'config' | 'modes' | 'following' | 'roots' | 'notices' }

/** What changed, so views can update just that. */
export type ThreadChange =
  | { readonly type: 'append'; readonly index: number; readonly text: string }
  | { readonly type: 'entry'; readonly index: number }
  | ThreadStateChange
  /** Terminal output or terminal state (see `AcpThread.terminals`). */
  | TerminalStoreChange;

/** Logs what the thread ignored. */
export interface ThreadLogger { info(message: string): void }
