/**
 * The host side of the changed-files bar above the composer: posts the session's pending changes whenever
 * they change or a changed file is saved, and runs the bar's Keep, Undo and Open Diff for one file or all of
 * them. Two sources: the ChangeTracker's record (writes through the editor; the same review actions as ACP:
 * Review Changes, host/files/reviewActions.ts), and the checkpoints (files the turns changed on disk, by any
 * means: host/files/checkpointBaseline.ts). A path that is in neither, or a file that could not be restored,
 * is reported in the bar itself, never thrown at the dispatcher.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChangedFileCommand, ChangedFilesAllCommand, DidChangeFilesNotification } from '../../shared/chatProtocol';
import type { ChangedFileParams, ChangedFilesAllParams, IpcMessageType } from '../../shared/chatProtocol';
import type { ChangedFilesView } from '../../shared/changedFiles';
import type { AgentSession } from '../../host/agentSession';
import type { ChangeRecord } from '../../host/files/changeTracker';
import { changedFilesView } from '../../host/files/changedFilesList';
import type { ChangedFileInput } from '../../host/files/changedFilesList';
import { besideChat } from '../../host/files/diffPlacement';
import { applyReviewAction, confirmUndoAll, currentText, undoFailures } from '../../host/files/reviewActions';
import { CheckpointBaseline } from '../../host/files/checkpointBaseline';
import { notTextReason } from '../../host/files/textSlice';
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
  /** The files the turns changed on disk (from checkpoints), besides the tracker's. */
  private readonly baseline: CheckpointBaseline;

  constructor(
    private readonly session: AgentSession,
    private readonly post: <P>(type: IpcMessageType<P>, params: P) => void,
    /** The chat panel's column: diffs open beside it. */
    private readonly chatColumn: () => vscode.ViewColumn | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const tracker = session.changes;
    this.baseline = new CheckpointBaseline((files) => session.checkpoints.keep(files), () => session.checkpoints.current, () => session.checkpoints.keeping);
    this._disposables.push(
      tracker.onDidChange(() => this.schedule()),
      session.checkpoints.onDidChange(() => this.schedule()),
      vscode.workspace.onDidSaveTextDocument((d) => { if (tracker.get(d.uri) || this.baseline.has(d.uri.fsPath)) this.schedule(); }),
    );
  }

  /** Handles the bar's commands (the dispatcher validated their params). */
  register(ipc: IpcDispatcher): void {
    ipc.on(ChangedFileCommand, (p) => this.onFile(p));
    ipc.on(ChangedFilesAllCommand, (p) => this.onAll(p));
  }

  /** Posts the current list (on the webview's ready, and after every change). */
  sendState(): void {
    const version = ++this._version;
    void this.view().then((view) => {
      if (version === this._version) this.post(DidChangeFilesNotification, view);
    }, (e: unknown) => this.log.warn(`changed files: could not build the list: ${message(e)}`));
  }

  private schedule(): void {
    if (this._timer) return;
    this._timer = setTimeout(() => {
      this._timer = undefined;
      this.sendState();
    }, coalesceMs);
  }

  private async view(): Promise<ChangedFilesView> {
    const records = this.session.changes.changes;
    const inputs = await Promise.all(records.map(readInput));
    const fromCheckpoints = await this.baseline.inputs(new Set(records.map((r) => r.uri.fsPath))).catch((e: unknown) => {
      this.log.warn(`changed files: could not read the checkpoints: ${message(e)}`);
      return [];
    });
    // a file that is as it was before the agent (a restore brought it back) is no change any more
    const pending = inputs.filter((i) => i.binary || i.before !== i.after);
    const files = changedFilesView([...pending, ...fromCheckpoints], (file) => vscode.workspace.asRelativePath(vscode.Uri.file(file), false));
    return this._error ? { files, error: this._error } : { files };
  }

  private async onFile({ action, path: file }: ChangedFileParams): Promise<void> {
    this._error = undefined;
    const tracker = this.session.changes;
    const uri = path.isAbsolute(file) ? vscode.Uri.file(file) : undefined;
    const fromCheckpoints = !!uri && !tracker.get(uri) && this.baseline.has(uri.fsPath);
    if (!uri || (!tracker.get(uri) && !fromCheckpoints)) {
      return this.fail(`${path.basename(file)} is not among the agent's pending changes in this session (it may have been kept or undone already).`);
    }
    const rel = vscode.workspace.asRelativePath(uri, false);
    const placement = { viewColumn: besideChat(this.chatColumn()), preserveFocus: true };
    try {
      if (fromCheckpoints) await this.checkpointAction(action, uri.fsPath, placement);
      else await applyReviewAction(tracker, action, uri, placement); // a kept file's checkpoint baseline follows (ChangeTracker.onDidKeep)
    } catch (e) {
      return this.fail(`${action === 'undo' ? 'Could not undo' : action === 'keep' ? 'Could not keep' : 'Could not open the diff of'} ${rel}: ${message(e)}`);
    }
    this.sendState();
  }

  private async checkpointAction(action: ChangedFileParams['action'], file: string, placement: { viewColumn?: vscode.ViewColumn; preserveFocus: boolean }): Promise<void> {
    switch (action) {
      case 'keep': return this.baseline.keep([file]);
      case 'undo': return this.baseline.undo(file);
      case 'diff': return this.baseline.diff(file, placement);
    }
  }

  private async onAll({ action }: ChangedFilesAllParams): Promise<void> {
    this._error = undefined;
    const tracker = this.session.changes;
    const others = this.baseline.files;
    const count = tracker.changes.length + others.length;
    if (!count) return this.fail('There are no pending changes in this session.');
    if (action === 'keep') {
      tracker.keepAll();
      await this.baseline.keep(others);
      return this.sendState();
    }
    if (!(await confirmUndoAll(count))) return this.sendState();
    const failed = await tracker.undoAll();
    for (const file of others) {
      try {
        await this.baseline.undo(file);
      } catch (e) {
        failed.push({ uri: vscode.Uri.file(file), error: message(e) });
      }
    }
    if (failed.length) return this.fail(undoFailures(failed));
    this.sendState();
  }

  private fail(error: string): void {
    this.log.warn(`changed files: ${error}`);
    this._error = error;
    this.sendState();
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._version++;
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

/** A record with its texts: before (from the record) and now (editor or disk). */
async function readInput(record: ChangeRecord): Promise<ChangedFileInput> {
  const p = record.uri.fsPath;
  const beforeIsBinary = record.before.kind === 'bytes' && notTextReason(record.before.bytes) !== undefined;
  try {
    return { path: p, before: record.original, after: await currentText(record.uri), binary: beforeIsBinary };
  } catch {
    return { path: p, before: record.original, after: '', binary: true }; // unreadable now: no counts
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
