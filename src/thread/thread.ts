/**
 * AcpThread: the conversation of one session, built from `session/update` notifications and the user's
 * prompts. One ingestion point, {@link AcpThread.handleSessionUpdate}, switches over every update kind (like
 * Zed's `handle_session_update`); tool calls are upserted by id with absent fields meaning "unchanged";
 * message chunks are grouped by `messageId`, or by consecutive kind when there is none
 * (https://agentclientprotocol.com/protocol/prompt-turn). Fine-grained change events let the chat send small
 * deltas (an append, not the whole message), and let each listener react only to the fields it uses (the
 * transcript store to the title, the plan and the status, not to every usage tick).
 */
import { Emitter, type Event } from '../acp/events';
import type { AvailableCommand, ContentBlock, PlanEntry, SessionConfigOption, SessionMode, SessionUpdate, StopReason } from '../acp/schema/types.gen';
import type { ElicitationView } from '../shared/elicitationModel';
import type { NoticeAction, SessionStatus, TerminalView } from '../shared/viewModel';
import { AgentNotices } from './agentNotices';
import { appendCompactionChunk, applyCompactionUpdate, newCompaction, type CompactionEntry } from './compaction';
import { stopReasonNotice } from './stopReasons';
import { ThreadTitle } from './threadTitle';
import { TerminalOutputStore, type TerminalStoreChange } from './terminalOutputStore';
import { applyToolCallUpdate, newToolCall } from './toolCall';
import type { ToolCallEntry, ToolCallPatch } from './toolCall';

/** A user's prompt as sent. */
export interface UserEntry { readonly kind: 'user'; readonly id: string; readonly content: ContentBlock[] }
/** An agent message or thought: text accumulated from chunks, plus non-text blocks. */
export interface TextEntry { readonly kind: 'agent' | 'thought'; readonly id: string; messageId?: string; text: string; blocks: ContentBlock[] }
/** A notice: stop reason, error, agent exit; `marker: 'fork'` is the first entry of a fork ("Forked from …"). */
export interface NoticeEntry { readonly kind: 'notice'; readonly id: string; readonly level: 'info' | 'warning' | 'error'; readonly text: string; readonly action?: NoticeAction; readonly marker?: 'fork' }
/** An elicitation not scoped to a tool call (src/thread/elicitations.ts). */
export interface ElicitationEntry { readonly kind: 'elicitation'; readonly id: string; elicitation: ElicitationView }
/** An entry of the transcript. */
export type ThreadEntry = UserEntry | TextEntry | ToolCallEntry | NoticeEntry | CompactionEntry | ElicitationEntry;

/**
 * A thread-level field changed: `title`, `status` (with `error`, set together), `plan`, `usage`, `commands`
 * (available slash commands), `config` (config options), `modes` (legacy modes and the current mode) or
 * `following` (Follow Agent), `roots`, `notices` (the agent's live notices, src/thread/agentNotices.ts),
 * `actions` (what the session offers besides prompts: Fork).
 */
export interface ThreadStateChange { readonly type: 'title' | 'status' | 'plan' | 'usage' | 'commands' | 'config' | 'modes' | 'following' | 'roots' | 'notices' | 'actions' }

/** What changed, so views can update just that. */
export type ThreadChange =
  | { readonly type: 'append'; readonly index: number; readonly text: string }
  | { readonly type: 'entry'; readonly index: number }
  | ThreadStateChange
  /** Terminal output or terminal state (see {@link AcpThread.terminals}). */
  | TerminalStoreChange;

/** Logs what the thread ignored. */
export interface ThreadLogger { info(message: string): void }

/** The conversation model of one session. Never imports vscode. */
export class AcpThread {
  readonly entries: ThreadEntry[] = [];
  /** Its sources and their precedence: src/thread/threadTitle.ts. */
  private readonly _title = new ThreadTitle();
  status: SessionStatus = 'starting';
  error: string | undefined;
  /** The button the error banner offers (e.g. `continue` for a session that cannot be reopened). */
  errorAction: NoticeAction | undefined;
  /**
   * An agent failure (a crash) the user has not seen yet: the status bar keeps showing it until the user
   * acts in the chat or brings it to the front ({@link acknowledgeFailure}).
   */
  unseenFailure: string | undefined;
  plan: PlanEntry[] = [];
  /** The turn that ran the plan was cancelled or ended: its unfinished steps show as cancelled. */
  planCancelled = false;
  commands: AvailableCommand[] = [];
  configOptions: SessionConfigOption[] = [];
  currentModeId: string | undefined;
  /** Legacy modes the agent offers (`modes.availableModes` of the setup response). */
  availableModes: SessionMode[] = [];
  usage: { used: number; size: number; cost?: { amount: number; currency: string } } | undefined;
  /** Whether Follow Agent is on for this session (host UI state mirrored here so the chat header shows it). */
  following = false;
  /** Whether the session can be forked (its agent advertises `session/fork`; host state mirrored for the header). */
  canFork = false;
  private readonly _toolCalls = new Map<string, number>();
  /** Entry index by `compactionId`. */
  private readonly _compactions = new Map<string, number>();
  private _nextId = 0;
  private readonly _onDidChange = new Emitter<ThreadChange>();
  /** Fires for every change. */
  readonly onDidChange: Event<ThreadChange> = this._onDidChange.event;
  /** The output of the session's agent terminals, for the tool calls that embed them (kept after release). */
  readonly terminals = new TerminalOutputStore((c) => this.fire(c));
  /** The agent's live notices: thread state, not entries (never stored, exported or replayed). */
  readonly notices = new AgentNotices(() => this.fire({ type: 'notices' }));

  /**
   * @param mask applied to notices and status errors before they are stored: they quote stderr lines and
   *   error messages, which may carry secrets (src/shared/secretMasker.ts)
   */
  constructor(readonly sessionId: string, private readonly logger?: ThreadLogger, private readonly mask: (text: string) => string = (text) => text) {}

  /** Applies one `session/update` (already validated). Unknown kinds are logged and ignored. */
  handleSessionUpdate(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'user_message_chunk': return this.appendUserChunk(update.content);
      case 'agent_message_chunk': return this.appendChunk('agent', update.content, update.messageId ?? undefined);
      case 'agent_thought_chunk': return this.appendChunk('thought', update.content, update.messageId ?? undefined);
      case 'tool_call': return this.upsertToolCall(update);
      case 'tool_call_update': return this.upsertToolCall(update);
      case 'plan':
        this.plan = update.entries;
        this.planCancelled = false;
        return this.fire({ type: 'plan' });
      case 'available_commands_update': this.commands = update.availableCommands; return this.fire({ type: 'commands' });
      case 'current_mode_update': {
        // the example of https://agentclientprotocol.com/protocol/session-modes sends `modeId`, the schema `currentModeId`
        const legacy = (update as { modeId?: unknown }).modeId;
        this.currentModeId = update.currentModeId ?? (typeof legacy === 'string' ? legacy : undefined);
        return this.fire({ type: 'modes' });
      }
      case 'config_option_update': this.configOptions = update.configOptions; return this.fire({ type: 'config' });
      case 'session_info_update':
        if (update.title !== undefined) this._title.fromAgent(update.title);
        return this.fire({ type: 'title' });
      case 'usage_update':
        this.usage = { used: update.used, size: update.size, ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}) };
        return this.fire({ type: 'usage' });
      case 'notice': return this.notices.add(update);
      case 'compaction_update': return this.upsertCompaction(update.compactionId, (e) => applyCompactionUpdate(e, update));
      case 'compaction_summary_chunk': return this.upsertCompaction(update.compactionId, (e) => appendCompactionChunk(e, update));
      default:
        this.logger?.info(`thread ${this.sessionId}: ignored session/update '${(update as { sessionUpdate: string }).sessionUpdate}'`);
    }
  }

  /**
   * The config options and legacy modes of a `session/new`, `load` or `resume` response
   * (https://agentclientprotocol.com/protocol/session-setup); absent fields leave the current state.
   */
  setSessionSetup(setup: { configOptions?: SessionConfigOption[] | null; modes?: { currentModeId: string; availableModes: SessionMode[] } | null }): void {
    if (setup.configOptions) {
      this.configOptions = setup.configOptions;
      this.fire({ type: 'config' });
    }
    if (setup.modes) {
      this.availableModes = setup.modes.availableModes;
      this.currentModeId = setup.modes.currentModeId;
      this.fire({ type: 'modes' });
    }
  }

  /**
   * Replaces the config options: a `session/set_config_option` response is the complete set
   * (https://agentclientprotocol.com/protocol/session-config-options).
   */
  setConfigOptions(options: SessionConfigOption[]): void {
    this.configOptions = options;
    this.fire({ type: 'config' });
  }

  /** Sets the current legacy mode (after `session/set_mode` succeeded). */
  setCurrentMode(modeId: string): void {
    this.currentModeId = modeId;
    this.fire({ type: 'modes' });
  }

  /** Adds the user's prompt (before it is sent, so the chat shows it at once). */
  addUserMessage(content: ContentBlock[]): void {
    this.push({ kind: 'user', id: this.newId(), content });
    // until the agent names the session, its first prompt does (the same everywhere it is listed)
    if (this._title.fromPrompt(content)) this.fire({ type: 'title' });
  }

  /** The title shown everywhere (src/thread/threadTitle.ts). */
  get title(): string { return this._title.value; }

  /** Sets (or, with undefined, clears) the title the user gave, which wins over the agent's. */
  setUserTitle(title: string | undefined): void {
    if (this._title.setUser(title)) this.fire({ type: 'title' });
  }

  /** Mirrors whether the session can be forked (the chat header offers Fork only then). */
  setCanFork(on: boolean): void {
    if (this.canFork === on) return;
    this.canFork = on;
    this.fire({ type: 'actions' });
  }

  /** Adds a notice line (errors, exits, stop reasons), optionally with a button (`retry`). */
  addNotice(level: NoticeEntry['level'], text: string, action?: NoticeAction): void {
    this.push({ kind: 'notice', id: this.newId(), level, text: this.mask(text), ...(action ? { action } : {}) });
  }

  /** Sets the session status (working, idle, …) and an optional error, with the button its banner offers. */
  setStatus(status: SessionStatus, error?: string, errorAction?: NoticeAction): void {
    if (error !== undefined) error = this.mask(error);
    const action = error === undefined ? undefined : errorAction;
    if (this.status === status && this.error === error && this.errorAction === action) return;
    this.status = status;
    this.error = error;
    this.errorAction = action;
    this.fire({ type: 'status' });
  }

  /** Records a failure the user must see (see {@link unseenFailure}). */
  markFailure(text: string): void {
    this.unseenFailure = this.mask(text);
    this.fire({ type: 'status' });
  }

  /** The user has seen the failure. */
  acknowledgeFailure(): void {
    if (this.unseenFailure === undefined) return;
    this.unseenFailure = undefined;
    this.fire({ type: 'status' });
  }

  /** The turn ended: shows a notice for the stop reasons a user must know about. */
  endTurn(stopReason: StopReason): void {
    const notice = stopReasonNotice(stopReason);
    if (notice) this.addNotice(notice.level, notice.text);
    if (stopReason === 'cancelled') this.cancelUnfinishedToolCalls();
    this.setStatus(this.hasPendingPermission() ? 'awaitingPermission' : 'idle');
  }

  /**
   * On `session/cancel`: unfinished tool calls show as cancelled at once, as the protocol asks of a client
   * as soon as it sends the cancel (https://agentclientprotocol.com/protocol/prompt-turn).
   */
  cancelUnfinishedToolCalls(): void {
    // the plan's unfinished steps will not be done by this turn either (until the agent sends a plan again)
    if (!this.planCancelled && this.plan.some((p) => p.status !== 'completed')) {
      this.planCancelled = true;
      this.fire({ type: 'plan' });
    }
    this.entries.forEach((e, index) => {
      if (e.kind === 'toolCall' && (e.status === 'pending' || e.status === 'in_progress' || e.status === 'waitingForConfirmation')) {
        e.status = 'cancelled';
        e.permission = undefined;
        this.fire({ type: 'entry', index });
      }
    });
  }

  /** Parks a permission request on its tool call (creating the call if the agent never announced it). */
  setPermission(toolCall: ToolCallPatch, requestId: string, options: { optionId: string; name: string; kind: string }[]): void {
    this.upsertToolCall(toolCall);
    const index = this._toolCalls.get(toolCall.toolCallId);
    if (index === undefined) return;
    const entry = this.entries[index] as ToolCallEntry;
    entry.permission = { requestId, options, previousStatus: entry.status === 'waitingForConfirmation' ? 'pending' : entry.status };
    entry.status = 'waitingForConfirmation';
    this.fire({ type: 'entry', index });
    this.setStatus('awaitingPermission');
  }

  /** Clears a permission request (answered, cancelled) and records how it was answered. */
  clearPermission(requestId: string, outcome: string): void {
    const index = this.entries.findIndex((e) => e.kind === 'toolCall' && e.permission?.requestId === requestId);
    if (index === -1) return;
    const entry = this.entries[index] as ToolCallEntry;
    if (entry.status === 'waitingForConfirmation') entry.status = entry.permission?.previousStatus ?? 'pending';
    entry.permission = undefined;
    entry.permissionOutcome = outcome;
    this.fire({ type: 'entry', index });
    if (this.status === 'awaitingPermission' && !this.hasPendingPermission()) this.setStatus('working');
  }

  /**
   * Records an answer given without asking (auto-approval) on the request's tool call, creating the call if
   * the agent never announced it, so that every automatic answer is visible in the transcript.
   */
  recordPermissionOutcome(toolCall: ToolCallPatch, outcome: string): void {
    this.upsertToolCall(toolCall);
    const index = this._toolCalls.get(toolCall.toolCallId);
    if (index === undefined) return;
    (this.entries[index] as ToolCallEntry).permissionOutcome = outcome;
    this.fire({ type: 'entry', index });
  }

  /**
   * Replaces the transcript with entries restored from the client's own store (`session/resume`, read-only
   * history, window reload). Meant for a thread no view shows yet: fires only `title` and `plan`.
   */
  restore(entries: readonly ThreadEntry[], title: string, plan: PlanEntry[], terminals: readonly TerminalView[] = []): void {
    this.entries.splice(0, this.entries.length, ...entries);
    this.terminals.restore(terminals);
    this._toolCalls.clear();
    this._compactions.clear();
    this.entries.forEach((e, i) => {
      if (e.kind === 'toolCall') this._toolCalls.set(e.toolCallId, i);
      else if (e.kind === 'compaction') this._compactions.set(e.compactionId, i);
    });
    const ids = this.entries.map((e) => Number(/^e(\d+)$/.exec(e.id)?.[1] ?? 0));
    this._nextId = Math.max(this._nextId, ...ids);
    this._title.restore(title);
    this.plan = plan;
    this.planCancelled = false;
    this.fire({ type: 'title' });
    this.fire({ type: 'plan' });
  }

  /** Turns the Follow Agent flag on or off (a state change for the views). */
  setFollowing(on: boolean): void {
    if (this.following === on) return;
    this.following = on;
    this.fire({ type: 'following' });
  }

  /** The session's folders: `cwd`, then the additional directories it was opened with (for the header). */
  roots: readonly string[] = [];
  setRoots(roots: readonly string[]): void {
    if (roots.join('\0') === this.roots.join('\0')) return;
    this.roots = [...roots];
    this.fire({ type: 'roots' });
  }

  /** Adds an entry built elsewhere (src/thread/elicitations.ts) with a fresh id; returns its index. */
  addEntry(make: (id: string) => ThreadEntry): number {
    this.push(make(this.newId()));
    return this.entries.length - 1;
  }

  /** An entry at `index` was changed in place elsewhere (src/thread/elicitations.ts): the views update it. */
  entryChanged(index: number): void {
    this.fire({ type: 'entry', index });
  }

  /** True while a permission request waits for the user. */
  hasPendingPermission(): boolean {
    return this.entries.some((e) => e.kind === 'toolCall' && e.permission !== undefined);
  }

  private appendUserChunk(content: ContentBlock): void {
    const last = this.entries[this.entries.length - 1];
    if (last?.kind === 'user') {
      last.content.push(content);
      this.fire({ type: 'entry', index: this.entries.length - 1 });
    } else {
      this.push({ kind: 'user', id: this.newId(), content: [content] });
    }
  }

  private appendChunk(kind: 'agent' | 'thought', content: ContentBlock, messageId: string | undefined): void {
    const index = this.entries.length - 1;
    const last = this.entries[index];
    const continues = last !== undefined && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId);
    if (!continues) {
      this.push({ kind, id: this.newId(), messageId, text: content.type === 'text' ? content.text : '', blocks: content.type === 'text' ? [] : [content] });
      return;
    }
    const entry = last as TextEntry;
    if (messageId !== undefined) entry.messageId = messageId;
    if (content.type === 'text') {
      entry.text += content.text;
      this.fire({ type: 'append', index, text: content.text });
    } else {
      entry.blocks.push(content);
      this.fire({ type: 'entry', index });
    }
  }

  private upsertToolCall(patch: ToolCallPatch): void {
    const index = this._toolCalls.get(patch.toolCallId);
    if (index === undefined) {
      // also for a tool_call_update of a call never announced: some agents skip the `tool_call`, and its
      // content must not be lost (https://agentclientprotocol.com/protocol/tool-calls)
      this._toolCalls.set(patch.toolCallId, this.entries.length);
      this.push(newToolCall(this.newId(), patch));
      return;
    }
    applyToolCallUpdate(this.entries[index] as ToolCallEntry, patch);
    this.fire({ type: 'entry', index });
  }

  /** A compaction is upserted by id; the first notification of an id fixes its place in the timeline. */
  private upsertCompaction(compactionId: string, apply: (e: CompactionEntry) => void): void {
    const index = this._compactions.get(compactionId);
    const entry = index === undefined ? newCompaction(this.newId(), compactionId) : this.entries[index] as CompactionEntry;
    apply(entry);
    if (index !== undefined) return this.fire({ type: 'entry', index });
    this._compactions.set(compactionId, this.entries.length);
    this.push(entry);
  }

  private push(entry: ThreadEntry): void {
    this.entries.push(entry);
    this.fire({ type: 'entry', index: this.entries.length - 1 });
  }

  private newId(): string {
    return `e${++this._nextId}`;
  }

  private fire(change: ThreadChange): void {
    this._onDidChange.fire(change);
  }

  /** Releases listeners. */
  dispose(): void {
    this._onDidChange.dispose();
  }
}

