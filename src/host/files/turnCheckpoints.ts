/**
 * The checkpoints of one session's turns (docs/checkpoints.md): one before each turn (its user
 * message then offers Restore Checkpoint), one at its end, and a "Changed in this turn" entry when files
 * changed between them, whoever changed them (the editor, the agent's own process, a terminal command).
 * The first checkpoint of a folder reads every file once: the status bar shows its progress, and a notification
 * only when it takes longer than {@link slowCheckpointMs} (on every first session, a notification that came
 * and went at once was noise). A checkpoint that fails is logged and said once in the chat; the turn goes on
 * without it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileChange, SessionCheckpoints } from '../../checkpoints/sessionCheckpoints';
import { inert } from '../../shared/inertText';
import type { ChangedFileLine } from '../../thread/model/turnChanges';
import type { SessionContext, SessionPart } from '../sessionContext';
import { changesPart } from './changeTracker';
import { permissionsPart } from '../permissions/permissionFeature';
import { isOwnWrite } from '../permissions/turnAudit';
import type { CheckpointService } from './checkpointService';
import { SessionRoots } from './sessionRoots';

/**
 * How long the checkpoint at the end of a turn waits before it scans: two of the chat's post intervals
 * (src/chatHost/chatBinding.ts), so the chunks that came just before the answer are posted and painted
 * before git runs (on 2 cores, the last chunk of a paced stream was painted 61 ms after the agent wrote it,
 * 41 ms without checkpoints).
 */
const settleBeforeEndMs = 32;

/** How long the first checkpoint of a folder runs before a progress notification also says so. */
export const slowCheckpointMs = 2000;

/** Runs `task` with its progress in the status bar, and in a notification too once it has run for `slowMs`. */
async function statusBarProgress<T>(title: string, task: () => Promise<T>, slowMs = slowCheckpointMs): Promise<T> {
  const work = task();
  const settled = work.then(() => undefined, () => undefined);
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, () => settled);
  const timer = setTimeout(() => void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => settled), slowMs);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}

/** A file change as a changes entry keeps it. */
export function changeLine(f: FileChange): ChangedFileLine {
  return { path: f.path, rel: f.rel, change: f.change, ...(f.added !== undefined ? { added: f.added, removed: f.removed ?? 0 } : {}) };
}

/** The checkpoints of one session. */
export class TurnCheckpoints implements vscode.Disposable {
  private readonly _roots: SessionRoots;
  private _real: readonly string[] = [];
  private _session: SessionCheckpoints | undefined;
  /** The checkpoint taken before the running turn. */
  private _start: string | undefined;
  /** While the checkpoint before a turn is taken (its prompt is not sent yet), and whether Stop came then. */
  private _taking = false;
  private _stopped = false;
  private _failureShown = false;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a checkpoint was taken or files were restored (the changed-files bar refreshes). */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly ctx: SessionContext, private readonly service: CheckpointService | undefined, private readonly key: () => string,
    /** The turn audit (src/host/permissions/turnAudit.ts): the files changed in the turn, and the checkpoint before it. */
    private readonly audit?: (files: readonly FileChange[], from: string | undefined) => Promise<void>,
  ) {
    this._roots = new SessionRoots(ctx);
  }

  /** The session's checkpoints with its roots resolved now; undefined when checkpoints are off (no git, the setting). */
  async session(): Promise<SessionCheckpoints | undefined> {
    if (!this.service || !(await this.service.available())) return undefined;
    this._real = await this._roots.real();
    this._session ??= this.service.session(this.key(), () => this._real);
    return this._session;
  }

  /**
   * A session opened again (after a reload or a restart): when its earlier turns took checkpoints, they are
   * used again, so the changed-files bar lists the files still pending review. A new session (no record) runs
   * no git. Never throws.
   */
  async reopen(): Promise<void> {
    try {
      if (this._session || !this.service?.hasCheckpoints(this.key())) return;
      if (await this.session()) this._onDidChange.fire();
    } catch (error) {
      this.ctx.log.warn(`checkpoints: could not read this session's earlier checkpoints: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The session's checkpoints if they were used already (no git run, no notification). */
  get current(): SessionCheckpoints | undefined {
    return this._session;
  }

  /** The session's folders changed (additional directories): they are resolved again at the next checkpoint. */
  rootsChanged(): void {
    this._roots.reset();
  }

  /**
   * Stop while the checkpoint before a turn is taken: its prompt is not sent ({@link beforeTurn} says so). False when
   * no such checkpoint is being taken (the turn's prompt is out: the usual cancel applies).
   */
  stopBeforeSend(): boolean {
    if (this._taking) this._stopped = true;
    return this._taking;
  }

  /**
   * A warm-up a second after the session opened: git found, the folders' shadow repositories opened and their files
   * read into the index, so the checkpoint before the first turn reads only what changed since (a first prompt
   * sent meanwhile waits for it, with the first checkpoint's progress). Never throws.
   */
  async warm(): Promise<void> {
    try {
      if (!(await this.session()) || !this.service) return;
      const started = Date.now();
      for (const root of this._real) await this.service.store.withRepo(root, (repo) => repo.prime());
      this.ctx.log.info(`checkpoints: ${this._real.length} folder(s) ready for the first checkpoint in ${Date.now() - started} ms`);
    } catch (error) {
      this.ctx.log.info(`checkpoints: no warm-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Takes the checkpoint before the turn of the user message `entryId`; never throws. False: Stop came meanwhile. */
  async beforeTurn(entryId: string): Promise<boolean> {
    this._start = undefined;
    this._taking = true;
    this._stopped = false;
    try {
      const cps = await this.session();
      if (!cps || !this.service) return !this._stopped;
      const take = () => cps.take('turn', entryId);
      const started = Date.now();
      const first = await this.service.isFirst(this._real);
      const checkpoint = first
        ? await statusBarProgress(inert.message`Switchboard: taking the first checkpoint of ${this._real.map((r) => path.basename(r)).join(', ')} (this reads every file once)…`, take)
        : await take();
      this._start = checkpoint.id;
      this.ctx.thread.setCheckpoint(entryId, checkpoint.id);
      this.ctx.log.info(`checkpoints: ${checkpoint.id} before ${entryId} in ${Date.now() - started} ms${first ? ' (the folder\'s first)' : ''}${Object.values(checkpoint.skipped).flat().length ? ` (skipped: ${Object.values(checkpoint.skipped).flat().map((s) => `${s.path} (${s.reason})`).join(', ')})` : ''}`);
      this._onDidChange.fire();
    } catch (error) {
      this.failed('before this turn', error);
    } finally {
      this._taking = false;
    }
    return !this._stopped;
  }

  /**
   * Takes the checkpoint at the end of the turn and adds "Changed in this turn" when files changed; then the turn's
   * audit runs on those files (none when no checkpoint was taken). Never throws.
   */
  async afterTurn(entryId: string): Promise<void> {
    const start = this._start;
    this._start = undefined;
    let files: FileChange[] = [];
    try {
      const cps = start ? await this.session() : undefined;
      if (cps && start) {
        // the turn's last chunks reach the chat before the snapshot's file scan and git run compete for the CPU
        await new Promise((resolve) => setTimeout(resolve, settleBeforeEndMs));
        const end = await cps.take('end', entryId);
        // a rule saved in the workspace's settings during the turn is not the turn's change (Undo This Turn keeps it)
        const changed = await cps.changes(start, end.id);
        const own = await Promise.all(changed.map((f) => isOwnWrite(f.path)));
        files = changed.filter((_f, i) => !own[i]);
        if (files.length) this.ctx.thread.addEntry((id) => ({ kind: 'changes', id, role: 'turn', files: files.map(changeLine), from: start, to: end.id }));
        this._onDidChange.fire();
        this.service?.turnEnded();
      }
    } catch (error) {
      this.failed('at the end of this turn', error);
    }
    await this.audit?.(files, start);
  }

  /** The user kept changes (the changed-files bar, a diff's title, Review Changes): the files as they are become their baseline. */
  async keep(files: readonly string[]): Promise<void> {
    for (const f of files) this.keeping.add(f);
    try {
      await this._session?.keep(files);
    } catch (error) {
      this.ctx.log.warn(`checkpoints: could not keep ${files.join(', ')}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      for (const f of files) this.keeping.delete(f);
    }
    this._onDidChange.fire();
  }

  /** Files whose Keep is being recorded: the bar does not show them meanwhile. */
  readonly keeping = new Set<string>();

  /** Something changed on disk through a restore or an undo: the bar refreshes. */
  changed(): void {
    this._onDidChange.fire();
  }

  private failed(when: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.ctx.log.warn(`checkpoints: could not take the checkpoint ${when}: ${message}`);
    if (this._failureShown) return;
    this._failureShown = true;
    this.ctx.thread.addNotice('warning', `Switchboard could not take a checkpoint ${when}, so it cannot be restored (the agent log has the details): ${message}`);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

/**
 * Each session's checkpoints, with the extension's checkpoint service the session was given (none: no checkpoints
 * are taken); a file the user kept becomes its baseline.
 */
export const checkpointsPart: SessionPart<TurnCheckpoints, { readonly checkpoints?: CheckpointService }> = {
  name: 'checkpoints',
  create: (session) => {
    const permissions = session.part(permissionsPart);
    const checkpoints = new TurnCheckpoints(session.context, session.options.checkpoints, () => session.key(), (files, from) => permissions.auditTurn(files, from));
    session.track(session.part(changesPart).onDidKeep((files) => void checkpoints.keep(files)));
    return checkpoints;
  },
  rootsChanged: (checkpoints) => checkpoints.rootsChanged(),
};
