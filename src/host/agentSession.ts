/**
 * AgentSession: one ACP session of an agent. Owns the thread model and the turn: runs prompt turns and cancels
 * them (cancel answers every pending permission request `cancelled`: https://agentclientprotocol.com/protocol/prompt-turn#cancellation).
 * Its other parts (files, terminals, permissions, follow-along, change review, the queue, the live state) come
 * from the list it is given (src/host/features.ts), and it names none of them to cancel, release or dispose them.
 */
import type * as vscode from 'vscode';
import { AcpError } from '../acp/errors';
import { advertisesSteering } from '../acp/steering';
import type { ContentBlock, PromptResponse, SessionUpdate } from '../acp/schema/types.gen';
import type { AgentExit } from '../agents/agentProcess';
import { lostConnection, transportLabel } from '../agents/agentTransport';
import type { AttachmentView, PromptCapabilitiesView } from '../shared/composerModel';
import { ConfigChanges } from '../thread/model/configChanges';
import type { HeldUpdate } from '../thread/model/replayMerge';
import { AcpThread } from '../thread/model/thread';
import { droppedInLoad, unadvertisedCapability } from '../thread/model/updateKinds';
import type { AgentHost } from './agentHost';
import { changesPart } from './files/changeTracker';
import type { CheckpointService } from './files/checkpointService';
import { fsPart } from './files/fsFeature';
import { checkpointsPart } from './files/turnCheckpoints';
import { followPart } from './follow/followAgent';
import { sessionKey } from './sessionKey';
import type { ElicitationEnvironment } from './permissions/elicitationBroker';
import { elicitationsPart } from './permissions/elicitationFeature';
import { activityPart } from './permissions/sessionActivityPart';
import type { PermissionEnvironment } from './permissions/permissionBroker';
import { permissionsPart } from './permissions/permissionFeature';
import { promptBlocks } from './prompts/promptAttachments';
import { promptCapabilitiesView, restrictToCapabilities } from './prompts/promptBlocks';
import { queuePart } from './prompts/promptQueue';
import { Steering } from './prompts/steering';
import { steeringDeps } from './prompts/sessionSteering';
import { setConfigOption, setMode } from './prompts/sessionSettings';
import { TurnEnd, type TurnOutcome } from './prompts/turnEnd';
import { SessionPartSet, type Disposable, type SessionContext, type SessionPart } from './sessionContext';
import { terminalsPart } from './terminals/terminalFeature';

/** What a session is given by whoever creates it (the session manager). */
export interface AgentSessionOptions {
  /** The session's parts, made and disposed in this order (src/host/features.ts, `sessionFeatures`). */
  readonly parts: readonly SessionPart<Disposable, AgentSessionOptions>[];
  /** Where a permission request is asked when no chat shows it (absent: only in the chat). */
  readonly permissionEnvironment?: PermissionEnvironment;
  /** Where an elicitation is asked when no chat shows it, and where its URL opens. */
  readonly elicitationEnvironment: ElicitationEnvironment;
  /** Extra roots granted to the session (absolute), besides `cwd` and the workspace folders. */
  readonly additionalDirectories?: readonly string[];
  /** Whether a chat panel of the session with this key is visible (a hidden chat gets a notification). */
  readonly isChatVisible?: (key: string) => boolean;
  /**
   * Offers the agent's login methods and runs the chosen one (an `env_var` login restarts the agent, which
   * rebinds this session). A prompt answered `auth_required` logs in and is sent again once.
   */
  readonly login?: (host: AgentHost) => Promise<unknown>;
  /** Masks secrets in the notices and status errors the chat shows (the host's redactor). */
  readonly redact?: (text: string) => string;
  /** The extension's checkpoints (docs/checkpoints.md); absent: none are taken. */
  readonly checkpoints?: CheckpointService;
}

/** One session of an agent. */
export class AgentSession implements vscode.Disposable {
  readonly thread: AcpThread;
  readonly context: SessionContext;
  private readonly _roots: { additionalDirectories: readonly string[] };
  private readonly _parts: SessionPartSet<AgentSessionOptions>;
  /** Prepended to the next prompt once (a preset's prompt prefix, src/workbench/agents/presets.ts). */
  promptPrefix: string | undefined;
  /** Whether the session can be forked (its agent advertised `session/fork` when it opened): the chat header offers Fork. */
  canFork = false;
  /** Ends a turn the agent does not end after Stop (docs/errors-and-cancellation.md#a-turn-always-ends). */
  readonly turnEnd: TurnEnd;
  /** Config option changes waiting for the agent's answer (the chat shows the chosen values meanwhile). */
  private readonly configChanges: ConfigChanges;
  private _turn: Promise<void> | undefined;
  /** The last prompt sent, for Retry. */
  private _lastPrompt: ContentBlock[] | undefined;
  /** The prompt {@link sendNext} sends when the running turn ended. */
  private _next: ContentBlock[] | undefined;
  private readonly _subscriptions: { dispose(): void }[] = [];

  /** The agent process serving this session (replaced when the agent is restarted, src/host/lifecycle/restart.ts). */
  get host(): AgentHost { return this._host; }
  private _host: AgentHost;
  /** Updates held back by {@link rebind}'s `ignoreUpdates` (a replay), until {@link acceptUpdates}. */
  private _held: HeldUpdate[] | undefined;
  private _replaying = false;
  private _inFlight: ContentBlock[] | undefined;
  /** The prompt whose turn was running when the agent exited (offered for resend after a restart). */
  interruptedPrompt: ContentBlock[] | undefined;

  /** The part `maker` made for this session (the agent's requests are routed to the parts: src/host/agentHost.ts). */
  part<T extends Disposable>(maker: SessionPart<T, never>): T { return this._parts.part(maker); }
  // the parts the session itself and the surfaces use, by name (each part says what it is where it is made)
  get permissions() { return this.part(permissionsPart); }
  get elicitations() { return this.part(elicitationsPart); }
  get activity() { return this.part(activityPart); }
  get changes() { return this.part(changesPart); }
  get checkpoints() { return this.part(checkpointsPart); }
  get fs() { return this.part(fsPart); }
  get terminals() { return this.part(terminalsPart); }
  get follow() { return this.part(followPart); }
  get queue() { return this.part(queuePart); }

  /** The client's identity of this session: agent id + session id ({@link sessionKey}). */
  get key(): string {
    return sessionKey(this.host.definition.id, this.sessionId);
  }

  constructor(host: AgentHost, readonly sessionId: string, readonly cwd: string, log: vscode.LogOutputChannel, private readonly options: AgentSessionOptions) {
    this._host = host;
    this.thread = new AcpThread(sessionId, log, options.redact);
    this.thread.setStatus('idle');
    this.configChanges = new ConfigChanges(this.thread);
    this.turnEnd = new TurnEnd(log);
    const roots = { additionalDirectories: options.additionalDirectories ?? [] };
    this._roots = roots;
    this.thread.setRoots([cwd, ...roots.additionalDirectories]);
    this.thread.setAgentInfo(host.initializeResponse?.agentInfo);
    this.context = {
      sessionId, cwd, get additionalDirectories() { return roots.additionalDirectories; }, agentName: host.definition.name, thread: this.thread, log,
      ...(host.definition.transport ? { elsewhere: transportLabel(host.definition.transport) } : {}), isChatVisible: () => options.isChatVisible?.(this.key) ?? false,
    };
    this._parts = new SessionPartSet(options.parts, { context: this.context, options, key: () => this.key, track: (d) => void this._subscriptions.push(d) });
  }

  /** True while a prompt turn runs. */
  get isWorking(): boolean {
    return this._turn !== undefined;
  }

  /**
   * Applies an update from the agent, of this session or (`sessionId`) of one of its subagents. A live notice
   * replayed by `session/load` is dropped (notices are not history: https://agentclientprotocol.com/rfds/session-notices);
   * an update the client has no capability for is shown anyway, and logged. A subagent may work past its parent's
   * turn, so the updates of an abandoned turn that are dropped are only the session's own.
   */
  handleUpdate(update: SessionUpdate, sessionId = this.sessionId): void {
    if (this._held || (sessionId === this.sessionId && this.turnEnd.dropsUpdate(update))) return void this._held?.push({ update, sessionId });
    if (this._replaying && droppedInLoad(update.sessionUpdate)) return this.context.log.info(`session ${this.sessionId}: a ${update.sessionUpdate} in the replay of session/load was dropped`);
    const missing = unadvertisedCapability(update, this.host.clientCapabilities);
    if (missing) this.context.log.warn(`session ${sessionId}: the agent sent '${update.sessionUpdate}' although the client did not advertise ${missing}; shown anyway`);
    if (sessionId === this.sessionId && update.sessionUpdate === 'config_option_update' && this.configChanges.agentUpdate(update.configOptions)) return;
    this.thread.handleSessionUpdate(update, sessionId);
  }

  /**
   * Cancels a subagent's current work (`session/cancel` with its session id), only when the agent permits it for
   * that child (`capabilities.cancel`, https://agentclientprotocol.com/protocol/v1/draft/subagents); false when not sent.
   */
  cancelSubagent(sessionId: string): boolean {
    const card = this.thread.subagent(sessionId);
    if (!card?.cancel || this.host.state !== 'ready') return false;
    this.host.connection.notify('session/cancel', { sessionId });
    return true;
  }

  /** Runs `load` (the `session/load` request) with its replay: notices that come with it are not shown. */
  async replaying<T>(load: () => Promise<T>): Promise<T> {
    this._replaying = true;
    try {
      return await load();
    } finally {
      this._replaying = false;
    }
  }

  /**
   * Sends a prompt (content blocks, restricted to the agent's `promptCapabilities`: https://agentclientprotocol.com/protocol/prompt-turn)
   * and streams the turn into the thread. Resolves when the turn ended (whatever the stop reason); failures
   * become notices in the transcript, never unhandled rejections. When the turn ends, the next queued
   * prompt is sent.
   */
  prompt(content: readonly ContentBlock[]): Promise<void> {
    if (this._turn) return Promise.reject(new Error('A turn is already running in this session.'));
    const prefix = this.promptPrefix;
    this.promptPrefix = undefined;
    const { blocks: prompt, dropped } = restrictToCapabilities(prefix ? [{ type: 'text', text: prefix }, ...content] : content, this.promptCapabilities);
    if (!prompt.length) return Promise.reject(new Error('The prompt is empty.'));
    this._lastPrompt = prompt;
    // the session is named after what the user wrote, not after the preset's prefix
    return this.startTurn(prompt, true, dropped.length ? `Not sent, because ${this.host.definition.name} does not accept it: ${dropped.join(', ')}.` : undefined, prefix ? content : prompt);
  }

  /** Shows the user's message (and `warning` under it), then runs its turn; `goOn`: the next queued prompt follows it. */
  private startTurn(prompt: ContentBlock[], goOn: boolean, warning?: string, titleFrom: readonly ContentBlock[] = prompt): Promise<void> {
    this.thread.addUserMessage(prompt, titleFrom);
    this._parts.each('turnStarted');
    const entryId = this.thread.entries[this.thread.entries.length - 1].id;
    if (warning) this.thread.addNotice('warning', warning);
    this.thread.setStatus('working');
    const turn = this.runTurn(prompt, entryId).finally(() => {
      this._turn = undefined;
      if (goOn) this.sendQueued();
    });
    this._turn = turn;
    return turn;
  }

  /** What the agent accepts in a prompt (absent means unsupported). */
  get promptCapabilities(): PromptCapabilitiesView {
    return promptCapabilitiesView(this.host.initializeResponse?.agentCapabilities?.promptCapabilities);
  }

  /** True when the agent takes a message while it works (src/acp/steering.ts): the composer offers Send Now. */
  get canSteer(): boolean { return advertisesSteering(this.host.initializeResponse); }
  /** Send Now: into the running turn when the agent takes that (src/host/prompts/steering.ts), else as {@link submit}. */
  steer(text: string, attachments: readonly AttachmentView[] = []): Promise<void> {
    return this._turn && this.canSteer ? this.steering.steer(text, attachments) : this.submit(text, attachments);
  }
  /** The session's steering (Queue It, of a message the agent did not take, goes through it). */
  get steering(): Steering { return this._steering ??= new Steering(steeringDeps(this, () => this.sendQueued())); }
  private _steering: Steering | undefined;

  /** Sends what the user wrote now, or queues it while a turn runs or its agent starts (a chat opened at once, a restart); attachments become blocks at send time. */
  async submit(text: string, attachments: readonly AttachmentView[] = []): Promise<void> {
    if (this._turn || this.queue.size || this.thread.status === 'starting') {
      this.queue.add(text, attachments);
      return;
    }
    await this.prompt(await promptBlocks(text, attachments, this.promptCapabilities));
  }

  /** Sends `prompt` next (Retry, Edit & Resend): a running turn is cancelled first and this goes when it ended, before the queue. */
  async sendNext(prompt: ContentBlock[]): Promise<void> {
    const turn = this._turn;
    if (!turn) return this.prompt(prompt);
    this._next = prompt;
    if (!this.turnEnd.isStopping) this.cancel();
    await turn;
    // a turn that does not go on to the queue (a notice's Retry) leaves it here
    if (this._next === prompt && !this._turn) {
      this._next = undefined;
      await this.prompt(prompt);
    }
  }

  /** Sends the prompt of {@link sendNext}, else the oldest queued prompt, if the session can take it (also once its agent connected). */
  sendQueued(): void {
    if (this._turn || this.host.state !== 'ready' || this.thread.status === 'disconnected') return;
    const prompt = this._next;
    this._next = undefined;
    if (prompt) {
      this.prompt(prompt).catch((e: unknown) => this.thread.addNotice('error', `The prompt could not be sent: ${e instanceof Error ? e.message : String(e)}`));
      return;
    }
    const next = this.queue.take();
    if (!next) return;
    void promptBlocks(next.text, next.attachments, this.promptCapabilities)
      .then((blocks) => this.prompt(blocks))
      .catch((e: unknown) => this.thread.addNotice('error', `The queued prompt could not be sent: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** Changes a config option (src/host/prompts/sessionSettings.ts): the chat shows the chosen value while it waits, the agent's again on failure. */
  setConfigOption(configId: string, value: string | boolean): Promise<void> {
    return setConfigOption(this.host.connection, this.configChanges, this.sessionId, configId, value);
  }

  /** Changes the legacy mode (src/host/prompts/sessionSettings.ts); fails like {@link setConfigOption}. */
  setMode(modeId: string): Promise<void> {
    return setMode(this.host.connection, this.thread, this.sessionId, modeId);
  }

  /** Runs a turn: the checkpoint before it (a Stop meanwhile sends nothing), `session/prompt`, the checkpoint at its end. */
  private async runTurn(prompt: ContentBlock[], entryId: string): Promise<void> {
    if (!(await this.checkpoints.beforeTurn(entryId))) return this.thread.endTurn('cancelled');
    let host = this._host; // a restart replaces it; this turn belongs to the old one
    let res: TurnOutcome<PromptResponse> | undefined;
    let failure: { error: unknown } | undefined;
    try {
      this._inFlight = prompt;
      try {
        res = await this.turnEnd.run(host.connection.request('session/prompt', { sessionId: this.sessionId, prompt }));
      } catch (error) {
        const login = this.options.login;
        if (!AcpError.isAuthRequired(error) || !login) throw error;
        // the login ran out (a token expired): log in, then send the prompt again, once
        this._inFlight = undefined;
        host.log.info(`session/prompt of ${this.sessionId} needs a login (auth_required); the prompt is sent again after it`);
        // Stop also ends a login that never finishes (an `authenticate` the agent leaves unanswered)
        this.activity.setLogin(true);
        const loggedIn = await this.turnEnd.run(login(host), 'login').finally(() => this.activity.setLogin(false));
        host = this._host;
        this._inFlight = loggedIn.kind === 'abandoned' ? undefined : prompt;
        res = loggedIn.kind === 'abandoned' ? loggedIn : await this.turnEnd.run(host.connection.request('session/prompt', { sessionId: this.sessionId, prompt }));
      }
    } catch (error) {
      failure = { error };
    }
    await this.checkpoints.afterTurn(entryId);
    if (failure) return this.turnFailed(host, failure.error);
    this._inFlight = undefined;
    if (!res) return;
    if (res.kind === 'abandoned') {
      this.cancelRequests();
      this.turnEnd.endAbandoned(this.thread, host.definition.name, res.afterMs);
    } else this.thread.endTurn(res.value.stopReason, res.value.usage);
  }

  /** A turn's request failed: the notice with Retry, or the agent's exit (shown by onAgentExit, which keeps the prompt). */
  private turnFailed(host: AgentHost, error: unknown): void {
    this.cancelRequests();
    // the stream may end before the process exit is seen (SIGKILL): onAgentExit shows it and keeps the prompt
    if (host.state === 'exited' || AcpError.is(error, 'closed')) return;
    this._inFlight = undefined;
    const message = error instanceof Error ? error.message : String(error);
    this.activity.turnFailed(message);
    this.thread.addNotice('error', `The agent failed: ${message}`, 'retry');
    this.thread.setStatus('idle');
  }

  /** Resends the last prompt (the Retry button of an agent error); rejects while a turn runs or before any prompt. */
  retryLastPrompt(): Promise<void> {
    if (!this._lastPrompt) return Promise.reject(new Error('There is no prompt to retry yet.'));
    if (this._turn) return Promise.reject(new Error('A turn is already running in this session.'));
    return this.startTurn(this._lastPrompt, false);
  }

  /** Stop: `session/cancel`, pending permissions and elicitations cancelled; the turn ends here after the grace ({@link TurnEnd}). */
  cancel(): void {
    if (this.checkpoints.stopBeforeSend()) return; // the prompt was not sent yet: it will not be
    if (!this._turn || this.turnEnd.cancel() === 'ended') return;
    this.host.connection.notify('session/cancel', { sessionId: this.sessionId });
    this.cancelRequests();
    this.thread.cancelUnfinishedToolCalls();
  }

  /** Answers every pending permission request and elicitation `cancelled` / `cancel` (Stop, abandonment, exit): each part's. */
  private cancelRequests(): void {
    this._parts.each('cancelRequests');
  }

  /** The agent process ended: the session shows why, with the last stderr lines. */
  onAgentExit(exit: AgentExit): void {
    // a later (requested) exit during the restart keeps what the crash interrupted
    this.interruptedPrompt = this._inFlight ?? this.interruptedPrompt;
    this._inFlight = undefined;
    this.cancelRequests();
    this._parts.each('agentExited');
    this.thread.cancelUnfinishedToolCalls('all');
    if (exit.requested) {
      this.thread.setStatus('disconnected', `Agent '${this.host.definition.name}' was stopped.`);
      return;
    }
    const tail = exit.stderrTail.slice(-5).join('\n');
    const how = exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? '?'}`;
    const lost = lostConnection(this.host.definition.transport, exit);
    this.thread.addNotice(lost ? 'warning' : 'error', lost ? exit.error.message : `Agent exited (${how})${tail ? `:\n${tail}` : ''}`, lost ? undefined : 'restart');
    this.thread.setStatus('disconnected', exit.error.message, 'restart');
    if (!lost) this.thread.markFailure(`${this.host.definition.name} exited (${how})`);
  }

  /** Moves the session to a restarted agent (same session id); `ignoreUpdates`: its updates are held until {@link acceptUpdates} (a replay). */
  rebind(host: AgentHost, options: { ignoreUpdates?: boolean } = {}): void {
    this._host = host;
    this._held = options.ignoreUpdates === true ? [] : undefined;
    host.attach(this);
    this.thread.setAgentInfo(host.initializeResponse?.agentInfo);
  }

  /** The `additionalDirectories` the agent was just told: the roots are `cwd` plus exactly these (docs/sessions.md "Session roots"). */
  setAdditionalDirectories(directories: readonly string[]): void {
    this._roots.additionalDirectories = [...directories];
    this._parts.each('rootsChanged');
    this.thread.setRoots([this.cwd, ...directories]);
  }

  /** Ends {@link rebind}'s `ignoreUpdates`: the updates held meanwhile, to merge (src/thread/model/replayMerge.ts). */
  acceptUpdates(): HeldUpdate[] {
    const held = this._held ?? [];
    this._held = undefined;
    return held;
  }

  /** After a restart: a prompt that was interrupted (here, or in the session this continues) is offered for resend. */
  offerResend(prompt: ContentBlock[] | undefined = this.interruptedPrompt): void {
    this.interruptedPrompt = prompt;
    if (prompt) this.thread.addNotice('info', 'The prompt that was running when the agent exited did not finish.', 'resend');
  }

  /** Sends the interrupted prompt again (the notice's Resend button). */
  async resendInterrupted(): Promise<void> {
    const prompt = this.interruptedPrompt;
    if (!prompt) throw new Error('There is no interrupted prompt to send again.');
    this.interruptedPrompt = undefined;
    await this._turn?.catch(() => undefined); // the old turn's request fails shortly after the exit
    await this.prompt(prompt);
  }

  /** Releases the parts (terminals are killed, pending permissions cancelled). */
  dispose(): void {
    this._subscriptions.splice(0).forEach((d) => d.dispose());
    this.turnEnd.dispose();
    this._parts.dispose();
    this.thread.dispose();
  }
}
