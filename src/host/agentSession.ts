/**
 * AgentSession: one ACP session of an agent. Owns the thread model and the per-session handlers (files,
 * terminals, permissions, follow-along, change review), runs prompt turns and cancels them (cancel answers
 * every pending permission request `cancelled`, acp-client-spec §4.4).
 */
import type * as vscode from 'vscode';
import { AcpError } from '../acp/errors';
import type { ContentBlock, SessionUpdate } from '../acp/schema/types.gen';
import type { AgentExit } from '../agents/agentProcess';
import type { AttachmentView, PromptCapabilitiesView } from '../shared/composerModel';
import { AcpThread } from '../thread/thread';
import type { AgentHost } from './agentHost';
import { ChangeTracker } from './changeTracker';
import { FollowAgent } from './followAgent';
import { FsHandler } from './fsHandler';
import { PermissionBroker } from './permissionBroker';
import { vscodePermissionEnvironment } from './permissionEnvironment';
import { promptBlocks } from './promptAttachments';
import { promptCapabilitiesView, restrictToCapabilities } from './promptBlocks';
import { PromptQueue } from './promptQueue';
import type { SessionContext } from './sessionContext';
import { TerminalManager } from './terminalHandler';

/** One session of an agent. */
export class AgentSession implements vscode.Disposable {
  readonly thread: AcpThread;
  readonly context: SessionContext;
  readonly permissions: PermissionBroker;
  readonly changes: ChangeTracker;
  readonly fs: FsHandler;
  readonly terminals: TerminalManager;
  readonly follow: FollowAgent;
  /** Prompts written while the agent works, sent one per turn when the turn ends (serializable). */
  readonly queue = new PromptQueue();
  /** Set by the chat panel registry: whether a chat panel of this session is visible. */
  chatVisible: () => boolean = () => false;
  private _turn: Promise<void> | undefined;
  /** The last prompt sent, for Retry. */
  private _lastPrompt: ContentBlock[] | undefined;
  private readonly _subscriptions: { dispose(): void }[] = [];

  constructor(readonly host: AgentHost, readonly sessionId: string, readonly cwd: string, log: vscode.LogOutputChannel, additionalDirectories: readonly string[] = []) {
    this.thread = new AcpThread(sessionId, log);
    this.thread.setStatus('idle');
    this.context = {
      sessionId, cwd, additionalDirectories, agentName: host.definition.name, thread: this.thread, log,
      isChatVisible: () => this.chatVisible(),
    };
    this.permissions = new PermissionBroker(this.context, vscodePermissionEnvironment);
    this.changes = new ChangeTracker(this.context);
    this.fs = new FsHandler(this.context, this.changes);
    this.terminals = new TerminalManager(this.context);
    this.follow = new FollowAgent(this.context);
    this._subscriptions.push(this.thread.onDidChange((c) => {
      if (c.type !== 'entry') return;
      const entry = this.thread.entries[c.index];
      if (entry?.kind === 'toolCall') this.follow.onToolCall(entry);
    }));
  }

  /** True while a prompt turn runs. */
  get isWorking(): boolean {
    return this._turn !== undefined;
  }

  /** Applies an update from the agent. */
  handleUpdate(update: SessionUpdate): void {
    this.thread.handleSessionUpdate(update);
  }

  /**
   * Sends a prompt (content blocks, restricted to the agent's `promptCapabilities`, acp-client-spec §4.1)
   * and streams the turn into the thread. Resolves when the turn ended (whatever the stop reason); failures
   * become notices in the transcript, never unhandled rejections. When the turn ends, the next queued
   * prompt is sent.
   */
  prompt(content: readonly ContentBlock[]): Promise<void> {
    if (this._turn) return Promise.reject(new Error('A turn is already running in this session.'));
    const { blocks: prompt, dropped } = restrictToCapabilities(content, this.promptCapabilities);
    if (!prompt.length) return Promise.reject(new Error('The prompt is empty.'));
    this._lastPrompt = prompt;
    this.thread.addUserMessage(prompt);
    if (dropped.length) this.thread.addNotice('warning', `Not sent, because ${this.host.definition.name} does not accept it: ${dropped.join(', ')}.`);
    this.thread.setStatus('working');
    const turn = this.runTurn(prompt).finally(() => {
      this._turn = undefined;
      this.sendNextQueued();
    });
    this._turn = turn;
    return turn;
  }

  /** What the agent accepts in a prompt (absent means unsupported). */
  get promptCapabilities(): PromptCapabilitiesView {
    return promptCapabilitiesView(this.host.initializeResponse?.agentCapabilities?.promptCapabilities);
  }

  /**
   * Sends what the user wrote now, or queues it while a turn runs (sent when the turn ends). Attachments
   * are turned into blocks at send time, so files are read as they are then.
   */
  async submit(text: string, attachments: readonly AttachmentView[] = []): Promise<void> {
    if (this._turn || this.queue.size) {
      this.queue.add(text, attachments);
      return;
    }
    await this.prompt(await promptBlocks(text, attachments, this.promptCapabilities));
  }

  /** Sends the oldest queued prompt if the session can take it. */
  private sendNextQueued(): void {
    if (this._turn || this.host.state !== 'ready' || this.thread.status === 'disconnected') return;
    const next = this.queue.take();
    if (!next) return;
    void promptBlocks(next.text, next.attachments, this.promptCapabilities)
      .then((blocks) => this.prompt(blocks))
      .catch((e: unknown) => this.thread.addNotice('error', `The queued prompt could not be sent: ${e instanceof Error ? e.message : String(e)}`));
  }

  /**
   * Changes a config option (`session/set_config_option`, §3.11): the local state is replaced by the
   * response's complete set. On failure the state is re-sent (the chat shows the old value again).
   */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const base = { sessionId: this.sessionId, configId };
    try {
      const res = await this.host.connection.request('session/set_config_option', typeof value === 'boolean' ? { ...base, type: 'boolean', value } : { ...base, value });
      this.thread.setConfigOptions(res.configOptions);
    } catch (error) {
      this.thread.setConfigOptions(this.thread.configOptions);
      throw error;
    }
  }

  /** Changes the legacy mode (`session/set_mode`, §3.10), used when no config option has category `mode`. */
  async setMode(modeId: string): Promise<void> {
    try {
      await this.host.connection.request('session/set_mode', { sessionId: this.sessionId, modeId });
      this.thread.setCurrentMode(modeId);
    } catch (error) {
      this.thread.setCurrentMode(this.thread.currentModeId ?? modeId);
      throw error;
    }
  }

  private async runTurn(prompt: ContentBlock[]): Promise<void> {
    try {
      const res = await this.host.connection.request('session/prompt', { sessionId: this.sessionId, prompt });
      this.thread.endTurn(res.stopReason);
    } catch (error) {
      this.permissions.cancelAll();
      if (this.host.state === 'exited') return; // onAgentExit shows what happened
      const message = error instanceof Error ? error.message : String(error);
      const closed = AcpError.is(error, 'closed');
      this.thread.addNotice('error', `The agent failed: ${message}`, closed ? undefined : 'retry');
      this.thread.setStatus(closed ? 'disconnected' : 'idle', closed ? message : undefined);
    }
  }

  /** Resends the last prompt (the Retry button of an agent error); rejects while a turn runs or before any prompt. */
  retryLastPrompt(): Promise<void> {
    if (!this._lastPrompt) return Promise.reject(new Error('There is no prompt to retry yet.'));
    if (this._turn) return Promise.reject(new Error('A turn is already running in this session.'));
    const prompt = this._lastPrompt;
    this.thread.addUserMessage(prompt);
    this.thread.setStatus('working');
    const turn = this.runTurn(prompt).finally(() => { this._turn = undefined; });
    this._turn = turn;
    return turn;
  }

  /** Cancels the running turn: `session/cancel`, every pending permission answered `cancelled`. */
  cancel(): void {
    if (!this._turn) return;
    this.host.connection.notify('session/cancel', { sessionId: this.sessionId });
    this.permissions.cancelAll();
    this.thread.cancelUnfinishedToolCalls();
  }

  /** The user picked an option of a permission request. */
  respondPermission(requestId: string, optionId: string): boolean {
    return this.permissions.respond(requestId, optionId);
  }

  /** The agent process ended: the session shows why, with the last stderr lines. */
  onAgentExit(exit: AgentExit): void {
    this.permissions.cancelAll();
    this.terminals.dispose();
    this.thread.cancelUnfinishedToolCalls();
    if (exit.requested) {
      this.thread.setStatus('disconnected', `Agent '${this.host.definition.name}' was stopped.`);
      return;
    }
    const tail = exit.stderrTail.slice(-5).join('\n');
    this.thread.addNotice('error', `Agent exited (${exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? '?'}`})${tail ? `:\n${tail}` : ''}`);
    this.thread.setStatus('disconnected', exit.error.message);
  }

  /** Releases the handlers (terminals are killed, pending permissions cancelled). */
  dispose(): void {
    this._subscriptions.splice(0).forEach((d) => d.dispose());
    this.queue.dispose();
    for (const d of [this.permissions, this.terminals, this.follow, this.fs, this.changes]) d.dispose();
    this.thread.dispose();
  }
}
