/**
 * The host side of the changed-files bar above the composer: posts the session's pending changes whenever
 * they change or a changed file is saved, and runs the bar's Keep, Undo and Open Diff for one file or all of
 * them (src/host/files/sessionChangedFiles.ts, which the Sessions view uses too). A path that is not pending,
 * or a file that could not be restored, is reported in the bar itself, never thrown at the dispatcher.
 */
import * as vscode from 'vscode';
import { ReviewChangedFileCommand, ReviewChangedFilesCommand, DidChangeChangedFilesNotification } from '../shared/chatProtocol';
import type { PostNotification, ReviewChangedFileParams, ReviewChangedFilesParams } from '../shared/chatProtocol';
import type { ChangedFilesView } from '../shared/changedFiles';
import type { AgentSession } from '../host/agentSession';
import { besideChat } from '../host/files/diffPlacement';
import { SessionChangedFiles } from '../host/files/sessionChangedFiles';
import type { IpcDispatcher } from './ipc';

/** Bursts of writes (an agent editing many files) become one post. */
const coalesceMs = 50;

/** The changed-files bar of one chat. */
export class ChangedFilesController implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  private _timer: NodeJS.Timeout | undefined;
  /** Bumped per computation: only the newest one posts. */
  private _version = 0;
  /** The last failure of a bar action, shown until the next action. */
  private _error: string | undefined;
  private readonly files: SessionChangedFiles;

  constructor(
    session: AgentSession,
    private readonly post: PostNotification,
    /** The chat panel's column: diffs open beside it. */
    private readonly chatColumn: () => vscode.ViewColumn | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.files = new SessionChangedFiles(session, log);
    this._disposables.push(this.files, this.files.onDidChange(() => this.schedule()));
  }

  /** Handles the bar's commands (the dispatcher validated their params). */
  register(ipc: IpcDispatcher): void {
    ipc.on(ReviewChangedFileCommand, (p) => this.onFile(p));
    ipc.on(ReviewChangedFilesCommand, (p) => this.onAll(p));
  }

  /** Posts the current list (on the webview's ready, and after every change). */
  sendState(): void {
    const version = ++this._version;
    void this.view().then((view) => {
      if (version === this._version) this.post(DidChangeChangedFilesNotification, view);
    }, (e: unknown) => this.log.warn(`changed files: could not build the list: ${e instanceof Error ? e.message : String(e)}`));
  }

  private schedule(): void {
    if (this._timer) return;
    this._timer = setTimeout(() => {
      this._timer = undefined;
      this.sendState();
    }, coalesceMs);
  }

  private async view(): Promise<ChangedFilesView> {
    const files = await this.files.list();
    return this._error ? { files, error: this._error } : { files };
  }

  private async onFile({ action, path }: ReviewChangedFileParams): Promise<void> {
    this._error = undefined;
    this.done(await this.files.act(action, path, { viewColumn: besideChat(this.chatColumn()), preserveFocus: true }));
  }

  private async onAll({ action }: ReviewChangedFilesParams): Promise<void> {
    this._error = undefined;
    this.done(await this.files.actAll(action));
  }

  /** Shows a failure in the bar until the next action (and logs it); posts the list either way. */
  private done(error: string | undefined): void {
    if (error) this.log.warn(`changed files: ${error}`);
    this._error = error;
    this.sendState();
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._version++;
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}
