/**
 * AcpThread: the conversation of one session, built from `session/update` notifications and the user's
 * prompts. One ingestion point, {@link AcpThread.handleSessionUpdate}, applies each update as its kind's entry of
 * src/thread/model/updateKinds.ts says (like Zed's `handle_session_update`); tool calls are upserted by id with absent fields meaning "unchanged";
 * message chunks are grouped by `messageId`, or by consecutive kind when there is none
 * (https://agentclientprotocol.com/protocol/prompt-turn). Fine-grained change events let the chat send small
 * deltas (an append, not the whole message), and let each listener react only to the fields it uses (the
 * transcript store to the title, the plan and the status, not to every usage tick).
 */
import { Emitter, type Event } from '../../acp/events';
import type { AvailableCommand, ContentBlock, Implementation, PlanEntry, SessionConfigOption, SessionMode, SessionUpdate, StopReason, Usage } from '../../acp/schema/types.gen';
import { AgentNotices } from './agentNotices';
import { AgentWork } from './agentWork';
import { ThreadElicitations } from './elicitations';
import { cancelPlans, type PlanState } from './plans';
import { SessionStreams } from './sessionStreams';
import { stopReasonNotice } from './stopReasons';
import { ThreadTitle } from './threadTitle';
import { TerminalOutputStore, type TerminalSnapshot } from './terminalOutputStore';
import type { NoticeAction, NoticeEntry, SessionStatus, Steered, SubagentEntry, ThreadChange, ThreadEntry, ThreadLogger } from './threadEntries';
import { isUnfinished, type ToolCallEntry, type ToolCallPatch } from './toolCall';
import { restoreMarkRange } from './turnChanges';
import { applyUpdate, type PlanTarget, type SessionTarget } from './updateKinds';

export type { ElicitationEntry, EntryChange, EntryMarks, NoticeAction, NoticeEntry, SessionMessageEntry, SessionStatus, SubagentEntry, TextEntry, ThreadChange, ThreadEntry, ThreadLogger, ThreadStateChange, UserEntry } from './threadEntries';

/** The conversation model of one session. Never imports vscode. */
export class AcpThread {
  /** The transcript, changed only by the thread's own methods (and its streams). */
  private readonly _entries: ThreadEntry[] = [];
  /** The transcript, oldest first. */
  get entries(): readonly ThreadEntry[] { return this._entries; }
  /** Its sources and their precedence: src/thread/model/threadTitle.ts. */
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
  /** The plans the agent keeps by id (`plan_update`, src/thread/model/plans.ts), oldest first. */
  plans: PlanState[] = [];
  commands: AvailableCommand[] = [];
  configOptions: SessionConfigOption[] = [];
  currentModeId: string | undefined;
  /** Legacy modes the agent offers (`modes.availableModes` of the setup response). */
  availableModes: SessionMode[] = [];
  usage: { used: number; size: number; cost?: { amount: number; currency: string } } | undefined;
  /**
   * The tokens the agent reported with the last turn's `session/prompt` response (`usage`, unstable; cleared by a
   * turn that ended without). Live state: not in the transcript store.
   */
  turnUsage: Usage | undefined;
  /** The agent's `agentInfo` from `initialize` (the chat header's tooltip shows its title and version). */
  agentInfo: Implementation | undefined;
  /** The session's own entries and its subagents', by session id (src/thread/model/sessionStreams.ts). */
  private readonly _streams: SessionStreams;
  private _nextId = 0;
  private readonly _onDidChange = new Emitter<ThreadChange>();
  /** Fires for every change. */
  readonly onDidChange: Event<ThreadChange> = this._onDidChange.event;
  /** The output of the session's agent terminals, for the tool calls that embed them (kept after release). */
  readonly terminals = new TerminalOutputStore((c) => this.fire(c));
  /** What an ACP v2 agent runs in the background (src/thread/model/agentWork.ts): live state, like the notices. */
  readonly work = new AgentWork(() => this.fire({ type: 'background' }));
  /** The agent's live notices: thread state, not entries (never stored, exported or replayed). */
  readonly notices = new AgentNotices(() => this.fire({ type: 'notices' }));
  /** The elicitations of the session, in tool call cards or as entries (the host's broker changes them only here). */
  readonly elicitations: ThreadElicitations;

  /**
   * @param mask applied to notices and status errors before they are stored: they quote stderr lines and
   *   error messages, which may carry secrets (src/shared/secretMasker.ts)
   */
  constructor(readonly sessionId: string, private readonly logger?: ThreadLogger, private readonly mask: (text: string) => string = (text) => text) {
    const ctx = { newId: () => this.newId(), fire: (c: ThreadChange) => this.fire(c) };
    this._streams = new SessionStreams(sessionId, this._entries, ctx, { state: this.sessionTarget(), plans: this.planTarget() }, (m) => this.logger?.info(`thread ${sessionId}: ${m}`));
    this.elicitations = new ThreadElicitations(this._streams.main, () => this.newId());
  }

  /**
   * Applies one `session/update` (already validated) of this session, or (`sessionId`) of a subagent announced in
   * it, whose updates go into its card, as its kind's entry of src/thread/model/updateKinds.ts says. Updates of a
   * session it does not know, and those that do not apply to a subagent, are logged and ignored.
   */
  handleSessionUpdate(update: SessionUpdate, sessionId = this.sessionId): void {
    const target = this._streams.target(sessionId);
    if (!target) return this.logger?.info(`thread ${this.sessionId}: ignored session/update '${update.sessionUpdate}' of the unknown session '${sessionId}'`);
    if (applyUpdate(target, update)) return;
    this.logger?.info(`thread ${this.sessionId}: ignored session/update '${update.sessionUpdate}'${target.session ? '' : ` of the subagent '${sessionId}'`}`);
  }

  /** The session's own state, as the updates of src/thread/model/updateKinds.ts change it. */
  private sessionTarget(): SessionTarget {
    return {
      setCommands: (commands) => { this.commands = commands; this.fire({ type: 'commands' }); },
      setCurrentMode: (modeId) => { this.currentModeId = modeId; this.fire({ type: 'modes' }); },
      setConfigOptions: (options) => this.setConfigOptions(options),
      setAgentTitle: (title) => {
        if (title !== undefined) this._title.fromAgent(title);
        this.fire({ type: 'title' });
      },
      setUsage: ({ used, size, cost }) => {
        this.usage = { used, size, ...(cost ? { cost: { amount: cost.amount, currency: cost.currency } } : {}) };
        this.fire({ type: 'usage' });
      },
      addNotice: (notice) => this.notices.add(notice),
    };
  }

  /** The session's own plans: the legacy plan, and the plans by id. */
  private planTarget(): PlanTarget {
    return {
      setLegacy: (entries) => {
        this.plan = entries;
        this.planCancelled = false;
        this.fire({ type: 'plan' });
      },
      change: (change) => {
        const plans = change(this.plans);
        if (plans === this.plans) return false;
        this.plans = plans;
        this.fire({ type: 'plan' });
        return true;
      },
    };
  }

  /**
   * The config options and legacy modes of a `session/new`, `load` or `resume` response
   * (https://agentclientprotocol.com/protocol/session-setup); absent fields leave the current state.
   */
  setSessionSetup(setup: { configOptions?: SessionConfigOption[] | null; modes?: { currentModeId: string; availableModes: SessionMode[] } | null; availableCommands?: AvailableCommand[] }): void {
    if (setup.availableCommands) { this.commands = setup.availableCommands; this.fire({ type: 'commands' }); } // an ACP v2 agent's answer has them
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

  /** Replaces the config options: a `session/set_config_option` answer is the whole set (https://agentclientprotocol.com/protocol/session-config-options). */
  setConfigOptions(options: SessionConfigOption[]): void {
    this.configOptions = options;
    this.fire({ type: 'config' });
  }

  /** Sets the current legacy mode (after `session/set_mode` succeeded). */
  setCurrentMode(modeId: string): void { this.currentModeId = modeId; this.fire({ type: 'modes' }); }

  /** Adds the user's prompt (before it is sent, so the chat shows it at once). */
  addUserMessage(content: ContentBlock[], titleFrom: readonly ContentBlock[] = content, steered?: Steered): void {
    this._streams.main.pushPrompt({ kind: 'user', id: this.newId(), content, ...(steered ? { steered } : {}) });
    // until the agent names the session, its first prompt does (the same everywhere it is listed)
    if (this._title.fromPrompt(titleFrom)) this.fire({ type: 'title' });
  }

  /** The title shown everywhere (src/thread/model/threadTitle.ts). */
  get title(): string { return this._title.value; }
  /** The title, else the untitled session's name (agent and creation time), and its sources. */
  get titles(): Pick<ThreadTitle, 'shown' | 'untitled' | 'createdAt' | 'setOrigin'> { return this._title; }

  /** Sets (or, with undefined, clears) the title the user gave, which wins over the agent's. */
  setUserTitle(title: string | undefined): void {
    if (this._title.setUser(title)) this.fire({ type: 'title' });
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
  markFailure(text: string): void { this.unseenFailure = this.mask(text); this.fire({ type: 'status' }); }

  /** The user has seen the failure. */
  acknowledgeFailure(): void {
    if (this.unseenFailure === undefined) return;
    this.unseenFailure = undefined;
    this.fire({ type: 'status' });
  }

  /** The turn ended: shows a notice for the stop reasons a user must know about, and the usage of the response. */
  endTurn(stopReason: StopReason, usage?: Usage | null): void {
    if (usage || this.turnUsage) {
      this.turnUsage = usage ?? undefined;
      this.fire({ type: 'usage' });
    }
    const notice = stopReasonNotice(stopReason);
    if (notice) this.addNotice(notice.level, notice.text);
    if (stopReason === 'cancelled') this.cancelUnfinishedToolCalls();
    this.setStatus(this.hasPendingPermission() ? 'awaitingPermission' : 'idle');
  }

  /**
   * On `session/cancel`: unfinished tool calls show as cancelled at once, as the protocol asks of a client
   * as soon as it sends the cancel (https://agentclientprotocol.com/protocol/prompt-turn).
   */
  cancelUnfinishedToolCalls(scope: 'session' | 'all' = 'session'): void {
    // the plan's unfinished steps will not be done by this turn either (until the agent sends a plan again)
    if (!this.planCancelled && this.plan.some((p) => p.status !== 'completed')) {
      this.planCancelled = true;
      this.fire({ type: 'plan' });
    }
    const plans = cancelPlans(this.plans);
    if (plans) {
      this.plans = plans;
      this.fire({ type: 'plan' });
    }
    // a subagent may go on working after the parent's turn (https://agentclientprotocol.com/protocol/v1/draft/subagents):
    // its calls and its card are settled only when the agent is gone (`all`)
    for (const stream of scope === 'all' ? this._streams.all() : [this._streams.main]) {
      stream.entries.forEach((e, index) => {
        const working = e.kind === 'subagent' && scope === 'all' && (e.state?.state === 'running' || e.state?.state === 'requires_action');
        if (working) e.state = { state: 'idle', stopReason: 'cancelled' };
        else if (e.kind !== 'toolCall' || !isUnfinished(e)) return;
        else {
          e.status = 'cancelled';
          e.permission = undefined;
        }
        stream.changed(index);
      });
    }
  }

  /** Parks a permission request on its tool call (creating the call if the agent never announced it) in the session or subagent `sessionId`. */
  setPermission(toolCall: ToolCallPatch, requestId: string, options: { optionId: string; name: string; kind: string }[], sessionId = this.sessionId, fromClient = false): void {
    const stream = this._streams.get(sessionId) ?? this._streams.main;
    const { index, entry } = stream.upsertToolCall(toolCall);
    entry.permission = { requestId, options, previousStatus: entry.status === 'waitingForConfirmation' ? 'pending' : entry.status, ...(fromClient ? { fromClient } : {}) };
    entry.status = 'waitingForConfirmation';
    stream.changed(index);
    this.setStatus('awaitingPermission');
  }

  /** Clears a permission request (answered, cancelled) and records how it was answered. */
  clearPermission(requestId: string, outcome: string): void {
    const found = this._streams.findToolCall((e) => e.permission?.requestId === requestId);
    if (!found) return;
    const { entry } = found;
    if (entry.status === 'waitingForConfirmation') entry.status = entry.permission?.previousStatus ?? 'pending';
    entry.permission = undefined;
    entry.permissionOutcome = outcome;
    found.stream.changed(found.index);
    if (this.status === 'awaitingPermission' && !this.hasPendingPermission()) this.setStatus('working');
  }

  /**
   * Records an answer given without asking (auto-approval) on the request's tool call, creating the call if
   * the agent never announced it, so that every automatic answer is visible in the transcript.
   */
  recordPermissionOutcome(toolCall: ToolCallPatch, outcome: string, sessionId = this.sessionId): void {
    const stream = this._streams.get(sessionId) ?? this._streams.main;
    const { index, entry } = stream.upsertToolCall(toolCall);
    entry.permissionOutcome = outcome;
    stream.changed(index);
  }

  /** The tool call `toolCallId` of the session or subagent `sessionId`, if the thread has it. */
  toolCall(toolCallId: string, sessionId = this.sessionId): ToolCallEntry | undefined {
    return this._streams.get(sessionId)?.find('toolCall', toolCallId)?.entry;
  }

  /** Changes the session's tool call `toolCallId` (`apply` says whether it did) and shows it (ACP v2's Stop: agentWork.ts). */
  patchToolCall(toolCallId: string, apply: (e: ToolCallEntry) => boolean): void {
    const found = this._streams.main.find('toolCall', toolCallId);
    if (found && apply(found.entry)) this._streams.main.changed(found.index);
  }

  /** The subagent card of the child session `sessionId`, if one was announced in this thread. */
  subagent(sessionId: string): SubagentEntry | undefined {
    return this._streams.card(sessionId);
  }

  /**
   * Replaces the transcript with entries restored from the client's own store (`session/resume`, read-only
   * history, window reload). Meant for a thread no view shows yet: fires only `title` and `plan`. `planCancelled`:
   * the turn that ran the plan was stopped (its unfinished steps show as cancelled).
   */
  restore(entries: readonly ThreadEntry[], title: string, plan: PlanEntry[], terminals: readonly TerminalSnapshot[] = [], plans: PlanState[] = [], planCancelled = false): void {
    this._entries.splice(0, this._entries.length, ...entries);
    this.terminals.restore(terminals);
    this._streams.reset();
    this._nextId = Math.max(this._nextId, this._streams.maxEntryNumber());
    this._title.restore(title);
    this.plan = plan;
    this.planCancelled = planCancelled && plan.some((p) => p.status !== 'completed');
    this.plans = plans;
    this.fire({ type: 'title' });
    this.fire({ type: 'plan' });
  }

  /** The session's folders: `cwd`, then the additional directories it was opened with (for the header). */
  roots: readonly string[] = [];
  setRoots(roots: readonly string[]): void {
    if (roots.join('\0') === this.roots.join('\0')) return;
    this.roots = [...roots];
    this.fire({ type: 'roots' });
  }

  /** The agent's `agentInfo` (set when the session starts, and again when the agent restarts). */
  setAgentInfo(info: Implementation | null | undefined): void {
    if (JSON.stringify(info ?? null) === JSON.stringify(this.agentInfo ?? null)) return;
    this.agentInfo = info ?? undefined;
    this.fire({ type: 'agent' });
  }

  /** Adds an entry the host built (a checkpoint's changes) with a fresh id; returns its index. */
  addEntry(make: (id: string) => ThreadEntry): number {
    return this._streams.main.push(make(this.newId()));
  }

  /** Marks a changes entry undone (its files were put back as they were before); false when there is none of that id. */
  markUndone(entryId: string): boolean {
    const index = this.entries.findIndex((e) => e.id === entryId);
    const entry = this.entries[index];
    if (entry?.kind !== 'changes') return false;
    entry.undone = true;
    this._streams.main.changed(index);
    return true;
  }

  /** The notices that offer `action` offer it no longer (it was done: their Revert reverted). */
  dropNoticeAction(action: NoticeAction): void {
    this._entries.forEach((e, i) => {
      if (e.kind !== 'notice' || e.action !== action) return;
      this._entries[i] = { ...e, action: undefined };
      this._streams.main.changed(i);
    });
  }

  /** Records the checkpoint taken before a user message (its Restore Checkpoint button shows). */
  setCheckpoint(entryId: string, checkpointId: string): void {
    const index = this.entries.findIndex((e) => e.id === entryId);
    const entry = this.entries[index];
    if (entry?.kind !== 'user') return;
    entry.checkpointId = checkpointId;
    this.fire({ type: 'entry', index });
  }

  /** Marks the entries after the newest restored checkpoint that was not undone (turnChanges.ts); unmarks the rest. */
  refreshRestoreMarks(): void {
    const range = restoreMarkRange(this.entries);
    this.entries.forEach((e, i) => {
      const on = !!range && i >= range[0] && i <= range[1];
      if (!!e.afterRestore === on) return;
      e.afterRestore = on || undefined;
      this.fire({ type: 'entry', index: i });
    });
  }

  /** True while a permission request waits for the user (in the session or one of its subagents). */
  hasPendingPermission(): boolean {
    return this._streams.findToolCall((e) => e.permission !== undefined) !== undefined;
  }

  private push(entry: ThreadEntry): void {
    this._streams.main.push(entry);
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

