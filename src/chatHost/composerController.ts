/**
 * The host side of the chat composer, one per chat panel: sends prompts (queued while the agent works),
 * edits the queue, keeps the draft and the history (PromptMemory), changes config options and modes,
 * answers @-mention file searches, and attaches editor selections. It registers for the composer's commands
 * with the panel's IPC dispatcher, which validates them first (ipc.ts).
 */
import * as vscode from 'vscode';
import {
  DidAddAttachmentNotification, DidChangeComposerNotification, DidSearchFilesNotification, RemoveQueuedPromptCommand, SaveDraftCommand,
  SearchFilesCommand, SendPromptCommand, SetConfigOptionCommand, SetModeCommand, UpdateQueuedPromptCommand,
} from '../shared/chatProtocol';
import type { PostNotification } from '../shared/chatProtocol';
import type { AttachmentView, ComposerStateView, DraftView, SendWith } from '../shared/composerModel';
import type { AgentSession } from '../host/agentSession';
import type { PromptMemory } from '../host/prompts/promptHistory';
import { searchWorkspaceFiles } from './fileSearch';
import type { IpcDispatcher } from './ipc';
import { inert } from '../shared/inertText';

/** The setting that picks the send key. */
export const sendWithSetting = 'switchboard.chat.sendWith';

/** Reads {@link sendWithSetting}. */
export function sendWith(): SendWith {
  return vscode.workspace.getConfiguration().get<string>(sendWithSetting) === 'ctrlEnter' ? 'ctrlEnter' : 'enter';
}

/** The composer of one chat panel. */
export class ComposerController implements vscode.Disposable {
  /** The composers of open panels, the most recently active last (Add Selection to Chat targets it). */
  private static readonly _open: ComposerController[] = [];
  private readonly _disposables: vscode.Disposable[] = [];
  private _draft: DraftView | undefined;

  constructor(
    readonly session: AgentSession,
    private readonly post: PostNotification,
    private readonly reveal: () => void,
    private readonly log: vscode.LogOutputChannel,
    /** Where history and drafts are kept (without it they last as long as the panel). */
    private readonly memory?: PromptMemory,
  ) {
    this._draft = this.memory?.draft(session.key);
    ComposerController._open.push(this);
    this._disposables.push(
      session.queue.onDidChange(() => this.sendState()),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(sendWithSetting)) this.sendState(); }),
    );
  }

  /** The composer of the chat the user used last (the active one, else the most recently active). */
  static mostRecent(): ComposerController | undefined {
    return ComposerController._open[ComposerController._open.length - 1];
  }

  /** Marks this composer as the most recently used one (its panel became active). */
  markActive(): void {
    const list = ComposerController._open;
    const i = list.indexOf(this);
    if (i !== -1) list.splice(i, 1);
    list.push(this);
  }

  /** The composer's state for the webview. */
  state(): ComposerStateView {
    return {
      queue: this.session.queue.toJSON(),
      history: this.memory?.history() ?? [],
      ...(this._draft ? { draft: this._draft } : {}),
      sendWith: sendWith(),
      capabilities: this.session.promptCapabilities,
      steering: this.session.canSteer,
    };
  }

  /** Sends the state (on ready and after changes). */
  sendState(): void {
    this.post(DidChangeComposerNotification, this.state());
  }

  /** Registers the composer's commands with the panel's dispatcher. */
  register(ipc: IpcDispatcher): void {
    ipc.on(SendPromptCommand, ({ text, attachments = [], now }) => {
      if (text.trim()) this.memory?.record(text);
      (now ? this.session.steer(text, attachments) : this.session.submit(text, attachments)).catch((e: unknown) => this.fail('The prompt could not be sent', e));
      if (text.trim()) this.sendState(); // the history grew
    });
    ipc.on(UpdateQueuedPromptCommand, ({ id, text }) => { this.session.queue.update(id, text); });
    ipc.on(RemoveQueuedPromptCommand, ({ id }) => { this.session.queue.remove(id); });
    ipc.on(SaveDraftCommand, ({ draft }) => {
      if (this._draft && this._draft.rev > draft.rev) return; // older than what the host has
      this._draft = draft;
      this.memory?.saveDraft(this.session.key, draft);
    });
    ipc.on(SetConfigOptionCommand, ({ configId, value }) => {
      this.session.setConfigOption(configId, value).catch((e: unknown) => this.fail('The agent did not change the option', e));
    });
    ipc.on(SetModeCommand, ({ modeId }) => {
      this.session.setMode(modeId).catch((e: unknown) => this.fail('The agent did not change the mode', e));
    });
    ipc.on(SearchFilesCommand, ({ requestId, query }) => {
      void searchWorkspaceFiles(query).then((matches) => this.post(DidSearchFilesNotification, { requestId, matches }));
    });
  }

  /** Adds an attachment to the draft (kept by the host too, so it is there even if the webview is reloading). */
  attach(attachment: AttachmentView): void {
    const draft = this._draft ?? { text: '', attachments: [], rev: 0 };
    this._draft = { ...draft, attachments: [...draft.attachments, attachment], rev: draft.rev + 1 };
    this.memory?.saveDraft(this.session.key, this._draft);
    this.reveal();
    this.post(DidAddAttachmentNotification, { attachment });
  }

  private fail(what: string, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    this.log.warn(`${what}: ${message}`);
    void vscode.window.showErrorMessage(inert.message`${what}: ${message}`);
  }

  dispose(): void {
    const list = ComposerController._open;
    const i = list.indexOf(this);
    if (i !== -1) list.splice(i, 1);
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}
