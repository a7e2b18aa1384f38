/**
 * Merge into the base branch (docs/worktrees.md "What you can do with a worktree"): the worktree's changes are committed first (the user
 * confirms), then `git merge --no-ff` runs in the repository's own folder, which must have the base branch checked
 * out. A conflict leaves the merge in progress and opens each conflicted file in VS Code's merge editor (the base
 * branch's side as input 1, the session's as input 2, the file itself as the result); Complete Merge commits once
 * no conflict marker is left, Abort Merge puts the base back as it was.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commandIds } from '../../constants';
import { inert } from '../../shared/inertText';
import type { WorktreeRecord } from '../../worktrees/worktreeRecords';
import { gitFileUri, type WorktreeCommandDeps } from './worktreeCommands';
import { errorText } from './worktreeService';

/** How a merge ended. */
export type MergeOutcome = { readonly kind: 'merged'; readonly sha: string } | { readonly kind: 'conflicts'; readonly files: readonly string[] } | { readonly kind: 'cancelled' } | { readonly kind: 'failed'; readonly message: string };

/** Merges the worktree's branch into its base branch; `autoCommit`: commit what is not committed without asking. */
export async function mergeWorktree(deps: WorktreeCommandDeps, record: WorktreeRecord, o: { readonly autoCommit?: boolean; readonly title?: string } = {}): Promise<MergeOutcome> {
  const git = deps.worktrees.git;
  try {
    const base = await git.repoInfo(record.top);
    if (base?.branch !== record.baseBranch) {
      const message = `${record.top} has ${base?.branch ?? 'no branch'} checked out, not ${record.baseBranch}: check out ${record.baseBranch} there first.`;
      void vscode.window.showErrorMessage(inert.message`Switchboard: nothing was merged. ${message}`);
      return { kind: 'failed', message };
    }
    if (await git.mergeInProgress(record.top)) {
      const message = `A merge is already in progress in ${record.top}: complete it or abort it first.`;
      void vscode.window.showErrorMessage(inert.message`Switchboard: ${message}`, 'Complete Merge', 'Abort Merge').then((pick) => pick && vscode.commands.executeCommand(pick === 'Abort Merge' ? commandIds.worktreeAbortMerge : commandIds.worktreeCompleteMerge, record.id));
      return { kind: 'failed', message };
    }
    if (record.state === 'active' && !await git.isClean(record.path)) {
      if (!o.autoCommit) {
        const pick = await vscode.window.showWarningMessage(inert.message`${record.branch} has changes that are not committed.`, { modal: true, detail: 'They are committed to its branch first, then the branch is merged.' }, 'Commit and Merge');
        if (!pick) return { kind: 'cancelled' };
      }
      await git.commitAll(record.path, `Switchboard: ${o.title ?? record.branch}`);
    }
    const result = await git.merge(record.top, record.branch, `Merge ${record.branch} (Switchboard${o.title ? `: ${o.title}` : ''})`);
    if (result.ok) {
      void vscode.window.showInformationMessage(inert.message`Merged ${record.branch} into ${record.baseBranch} (${result.sha.slice(0, 8)}).`);
      return { kind: 'merged', sha: result.sha };
    }
    await openConflicts(record, result.conflicts);
    return { kind: 'conflicts', files: result.conflicts };
  } catch (error) {
    const message = errorText(error);
    void vscode.window.showErrorMessage(inert.message`Switchboard: the merge of ${record.branch} failed. ${message}`);
    return { kind: 'failed', message };
  }
}

/** Opens each conflicted file in the merge editor and says how to finish. */
export async function openConflicts(record: WorktreeRecord, files: readonly string[]): Promise<void> {
  for (const file of files) await openMergeEditor(record, file);
  void vscode.window.showWarningMessage(
    inert.message`Merging ${record.branch} into ${record.baseBranch}: ${files.length} ${files.length === 1 ? 'file has' : 'files have'} conflicts. Resolve them in the merge editor, save, then Complete Merge.`,
    'Complete Merge', 'Abort Merge',
  ).then((pick) => pick && vscode.commands.executeCommand(pick === 'Abort Merge' ? commandIds.worktreeAbortMerge : commandIds.worktreeCompleteMerge, record.id));
}

/** VS Code's merge editor on one conflicted file (`_open.mergeEditor`, the command the git extension uses). */
async function openMergeEditor(record: WorktreeRecord, file: string): Promise<void> {
  const output = vscode.Uri.file(path.join(record.top, file));
  try {
    await vscode.commands.executeCommand('_open.mergeEditor', {
      base: gitFileUri(record.top, ':1', file),
      input1: { uri: gitFileUri(record.top, ':2', file), title: record.baseBranch, description: 'Base branch', detail: 'Current' },
      input2: { uri: gitFileUri(record.top, ':3', file), title: record.branch, description: 'Session', detail: 'Incoming' },
      output,
    });
  } catch {
    // an older VS Code without the command: the file with its conflict markers
    await vscode.window.showTextDocument(output, { preview: false });
  }
}

/** Complete Merge: commits the merge once no conflicted file has a marker left. */
export async function completeMerge(deps: WorktreeCommandDeps, record: WorktreeRecord): Promise<string | undefined> {
  const git = deps.worktrees.git;
  try {
    if (!await git.mergeInProgress(record.top)) {
      void vscode.window.showInformationMessage(inert.message`No merge is in progress in ${record.top}.`);
      return undefined;
    }
    const files = await git.conflicts(record.top);
    // the merge editor's result may not be saved yet
    for (const doc of vscode.workspace.textDocuments) if (doc.isDirty && files.some((f) => doc.uri.fsPath === path.join(record.top, f))) await doc.save();
    const sha = await git.completeMerge(record.top, files);
    void vscode.window.showInformationMessage(inert.message`Merged ${record.branch} into ${record.baseBranch} (${sha.slice(0, 8)}).`);
    return sha;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Switchboard: the merge is not complete. ${errorText(error)}`);
    return undefined;
  }
}

/** Abort Merge: the base branch goes back to how it was before the merge. */
export async function abortMerge(deps: WorktreeCommandDeps, record: WorktreeRecord): Promise<void> {
  try {
    await deps.worktrees.git.abortMerge(record.top);
    void vscode.window.showInformationMessage(inert.message`The merge of ${record.branch} was aborted; ${record.baseBranch} is as it was.`);
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Switchboard: the merge was not aborted. ${errorText(error)}`);
  }
}
