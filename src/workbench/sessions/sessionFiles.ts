/**
 * The changed files the Sessions view shows under each open session, with Keep, Undo and Open Diff: one
 * SessionChangedFiles (src/host/files/sessionChangedFiles.ts, the chat's changed-files bar uses the same) per open
 * session, its list kept here and recomputed (coalesced) when the session's record or checkpoints change.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { SessionChangedFiles } from '../../host/files/sessionChangedFiles';
import type { ChangedFileAction, ChangedFileView } from '../../shared/changedFiles';
import { inert } from '../../shared/inertText';

interface Tracked {
  readonly files: SessionChangedFiles;
  readonly sub: vscode.Disposable;
  list: readonly ChangedFileView[];
  timer?: NodeJS.Timeout;
  version: number;
}

/** The open sessions' changed files. */
export class SessionFilesCache implements vscode.Disposable {
  private readonly _tracked = new Map<AgentSession, Tracked>();
  private readonly _onDidChange = new vscode.EventEmitter<AgentSession>();
  /** Fires with a session whose list changed. */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly log: vscode.LogOutputChannel) {}

  /** Follows exactly these sessions (the open ones): new ones are computed, closed ones dropped. */
  sync(sessions: readonly AgentSession[]): void {
    const keep = new Set(sessions);
    for (const [s, t] of this._tracked) {
      if (keep.has(s)) continue;
      this.drop(t);
      this._tracked.delete(s);
    }
    for (const s of sessions) {
      if (this._tracked.has(s)) continue;
      const files = new SessionChangedFiles(s, this.log);
      const t: Tracked = { files, list: [], version: 0, sub: files.onDidChange(() => this.schedule(s)) };
      this._tracked.set(s, t);
      this.compute(s, t);
    }
  }

  /** The session's pending files as last computed. */
  list(session: AgentSession): readonly ChangedFileView[] {
    return this._tracked.get(session)?.list ?? [];
  }

  /** Keep, Undo or Open Diff on one file (beside the session's chat); a failure is shown as an error. */
  async act(session: AgentSession, action: ChangedFileAction, file: string, column?: vscode.ViewColumn): Promise<void> {
    const t = this._tracked.get(session);
    if (!t) return;
    const error = await t.files.act(action, file, { viewColumn: column, preserveFocus: action !== 'diff' });
    if (error) void vscode.window.showErrorMessage(inert.message`${error}`);
    this.compute(session, t);
  }

  private schedule(s: AgentSession): void {
    const t = this._tracked.get(s);
    if (!t || t.timer) return;
    t.timer = setTimeout(() => {
      t.timer = undefined;
      this.compute(s, t);
    }, 150);
  }

  private compute(s: AgentSession, t: Tracked): void {
    const version = ++t.version;
    t.files.list().then((list) => {
      if (version !== t.version || this._tracked.get(s) !== t) return;
      const changed = JSON.stringify(list) !== JSON.stringify(t.list);
      t.list = list;
      if (changed) this._onDidChange.fire(s);
    }, (e: unknown) => this.log.warn(`Sessions view: the changed files of ${s.sessionId} could not be listed: ${e instanceof Error ? e.message : String(e)}`));
  }

  private drop(t: Tracked): void {
    if (t.timer) clearTimeout(t.timer);
    t.version++;
    t.sub.dispose();
    t.files.dispose();
  }

  dispose(): void {
    for (const t of this._tracked.values()) this.drop(t);
    this._tracked.clear();
    this._onDidChange.dispose();
  }
}
