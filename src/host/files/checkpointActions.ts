/**
 * What the user does with checkpoints in a chat (docs/checkpoints.md): Restore Checkpoint on
 * a user message, Undo This Turn and Undo Restore on a checkpoint entry, Open Diff of one of its files.
 * Every restore is previewed first (restorePreview.ts), takes a checkpoint of the present (its undo point),
 * writes through the editor's file service, and is recorded in the transcript; a whole-checkpoint restore
 * marks the entries after it "after restored checkpoint" (kept, never deleted).
 */
import * as vscode from 'vscode';
import type { RestorePlan, SessionCheckpoints } from '../../checkpoints/sessionCheckpoints';
import { inert, inertText } from '../../shared/inertText';
import { promptTitle } from '../../thread/util/promptTitle';
import type { ChangesEntry } from '../../thread/model/turnChanges';
import type { SessionContext } from '../sessionContext';
import { settleUnsavedEditors, vscodeFileWriter } from './checkpointFiles';
import { openVersionsDiff } from './diffEditor';
import { previewRestore, shown } from './restorePreview';
import { changeLine } from './turnCheckpoints';
import type { TurnCheckpoints } from './turnCheckpoints';

/** Where diffs open. */
export interface DiffSpot {
  readonly viewColumn?: vscode.ViewColumn;
}

function showError(message: string): void {
  void vscode.window.showErrorMessage(inertText(message, 'message'));
}

/** The checkpoint actions of one session's chat. */
export class CheckpointActions {
  constructor(
    private readonly ctx: SessionContext,
    private readonly checkpoints: TurnCheckpoints,
    /** True while a turn runs (a restore waits for the user to stop it). */
    private readonly isWorking: () => boolean,
  ) {}

  /**
   * Restore Checkpoint on the user message `entryId`: preview, then the files as they were before it. True
   * when restored (false: cancelled, nothing to restore, or refused with a message).
   */
  async restoreMessage(entryId: string, spot: DiffSpot = {}, purpose = 'Restore'): Promise<boolean> {
    const index = this.ctx.thread.entries.findIndex((e) => e.id === entryId);
    const entry = this.ctx.thread.entries[index];
    if (entry?.kind !== 'user' || !entry.checkpointId) {
      showError('This message has no checkpoint (it was sent before checkpoints were on, or without git).');
      return false;
    }
    const cps = await this.ready();
    if (!cps) return false;
    const label = `the checkpoint before "${promptTitle(entry.content) ?? 'your message'}"`;
    const plan = await this.plan(cps, entry.checkpointId);
    if (!plan) return false;
    if (!(await this.review(cps, plan, `${purpose}: ${label}`, spot))) return false;
    const result = await this.apply(cps, plan);
    if (!result) return false;
    const last = this.ctx.thread.entries[this.ctx.thread.entries.length - 1].id;
    this.ctx.thread.addEntry((id) => ({
      kind: 'changes', id, role: 'restore', files: result.files.map(changeLine), from: result.undo.id, to: plan.to.id, label,
      marked: { first: entryId, last }, ...(plan.leftAlone.length ? { leftAlone: plan.leftAlone.length } : {}),
    }));
    this.ctx.thread.refreshRestoreMarks();
    this.ctx.log.info(`checkpoints: restored ${plan.to.id} (${result.files.length} files; undo point ${result.undo.id})`);
    return true;
  }

  /** Undo This Turn (a `turn` entry) or Undo Restore (a `restore` entry): preview, then its files as before. */
  async undo(entryId: string, spot: DiffSpot = {}): Promise<void> {
    const found = this.changesEntry(entryId);
    if (!found || found.entry.undone) return;
    const { entry } = found;
    const cps = await this.ready();
    if (!cps) return;
    const plan = await this.plan(cps, entry.from, entry.files.map((f) => f.path));
    if (!plan) return;
    const title = entry.role === 'turn' ? 'Undo this turn: its files as they were before it' : `Undo the restore of ${entry.label ?? 'a checkpoint'}`;
    if (!(await this.review(cps, plan, title, spot))) return;
    const result = await this.apply(cps, plan);
    if (!result) return;
    this.ctx.thread.markUndone(entry.id);
    if (entry.role === 'restore' && entry.marked) this.ctx.thread.refreshRestoreMarks();
    if (entry.role === 'turn') {
      this.ctx.thread.addEntry((id) => ({ kind: 'changes', id, role: 'restore', files: result.files.map(changeLine), from: result.undo.id, to: plan.to.id, label: 'the files of a turn as they were before it' }));
    }
  }

  /**
   * Revert on the turn audit's notice (docs/approvals.md, "The audit"): preview, then the flagged files as they were
   * before their turn, exactly; the flags are then resolved.
   */
  async revertFlagged(flagged: { readonly open: readonly { readonly path?: string }[]; readonly openFrom: string | undefined; resolve(): void }, spot: DiffSpot = {}): Promise<void> {
    const files = flagged.open.flatMap((f) => (f.path ? [f.path] : []));
    const from = flagged.openFrom;
    if (!from || files.length === 0) {
      void vscode.window.showInformationMessage('Nothing flagged is left to revert: the flagged files were reverted, or a later turn was audited.');
      return;
    }
    const cps = await this.ready();
    if (!cps) return;
    const plan = await this.plan(cps, from, files);
    if (!plan) return;
    if (!(await this.review(cps, plan, 'Revert what no answer or rule of yours covered: the flagged files as they were before the turn', spot))) return;
    const result = await this.apply(cps, plan);
    if (!result) return;
    flagged.resolve();
    this.ctx.thread.dropNoticeAction('revert'); // done: the warning keeps its text, not its button
    this.checkpoints.changed(); // the Sessions view drops its mark
    this.ctx.thread.addEntry((id) => ({ kind: 'changes', id, role: 'restore', files: result.files.map(changeLine), from: result.undo.id, to: plan.to.id, label: 'the flagged files as they were before the turn' }));
    this.ctx.log.info(`audit: reverted ${result.files.length} flagged files from ${from} (undo point ${result.undo.id})`);
  }

  /** Open Diff of one file of a checkpoint entry: its two checkpoints side by side. */
  async openDiff(entryId: string, file: string, spot: DiffSpot = {}): Promise<void> {
    const found = this.changesEntry(entryId);
    const line = found?.entry.files.find((f) => f.path === file);
    if (!found || !line) return showError('This file is not in that entry any more.');
    const cps = await this.ready();
    if (!cps) return;
    try {
      const [left, right] = await Promise.all([cps.versions(found.entry.from, [file]), cps.versions(found.entry.to, [file])]);
      const what = found.entry.role === 'turn' ? 'changed in this turn' : 'before ↔ after the restore';
      await openVersionsDiff({ path: file, left: shown(left.get(file)), right: shown(right.get(file)), what }, { preserveFocus: true, ...spot });
    } catch (error) {
      showError(`Could not open the diff of ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private changesEntry(entryId: string): { entry: ChangesEntry; index: number } | undefined {
    const index = this.ctx.thread.entries.findIndex((e) => e.id === entryId);
    const entry = this.ctx.thread.entries[index];
    return entry?.kind === 'changes' ? { entry, index } : undefined;
  }

  /** The session's checkpoints, when a restore can run now; else says why. */
  private async ready(): Promise<SessionCheckpoints | undefined> {
    if (this.isWorking()) {
      void vscode.window.showInformationMessage('Stop the running turn first: files are restored when the agent is not working.');
      return undefined;
    }
    const cps = await this.checkpoints.session();
    if (!cps) showError('Checkpoints are off (no git was found, or switchboard.checkpoints.enabled is false).');
    return cps;
  }

  private async plan(cps: SessionCheckpoints, target: string, only?: readonly string[]): Promise<RestorePlan | undefined> {
    if (!cps.get(target)) {
      showError('This checkpoint was removed to stay within switchboard.checkpoints.maxStorageMB.');
      return undefined;
    }
    try {
      return await cps.planRestore(target, only);
    } catch (error) {
      showError(`Could not work out the restore: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** The preview; a cancelled (or empty) one drops the undo point it took. */
  private async review(cps: SessionCheckpoints, plan: RestorePlan, title: string, spot: DiffSpot): Promise<boolean> {
    let ok = false;
    if (!plan.files.length) {
      void vscode.window.showInformationMessage('Nothing to restore: the files are as they were at that checkpoint.');
    } else {
      const n = plan.files.length;
      ok = await previewRestore(plan, {
        title, action: `Restore ${n} ${n === 1 ? 'file' : 'files'}`, ...(spot.viewColumn !== undefined ? { viewColumn: spot.viewColumn } : {}),
        versions: async (f) => {
          const [now, after] = await Promise.all([f.before ? cps.blob(f.root, f.before) : undefined, f.after ? cps.blob(f.root, f.after) : undefined]);
          return { now, after };
        },
      });
    }
    if (!ok) await cps.discard(plan.from.id).catch(() => undefined);
    return ok;
  }

  private async apply(cps: SessionCheckpoints, plan: RestorePlan) {
    if (!(await settleUnsavedEditors(plan.files.map((f) => f.path)))) {
      await cps.discard(plan.from.id).catch(() => undefined);
      return undefined;
    }
    try {
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: inert.label`Restoring ${String(plan.files.length)} files…` }, () => cps.restore(plan, vscodeFileWriter));
      this.checkpoints.changed();
      return result;
    } catch (error) {
      showError(`The restore stopped with an error (restore its undo point to go back): ${error instanceof Error ? error.message : String(error)}`);
      this.checkpoints.changed();
      return undefined;
    }
  }
}
