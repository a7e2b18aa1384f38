/**
 * The preview of a restore (docs/checkpoints.md): restoring is a review, not a leap. A quick
 * pick lists every file that will change (created, deleted, +/− lines) with Open Diff (now ↔ after the
 * restore) on each, and the files left as they are; the first item restores. Escape cancels and nothing
 * changes. It stays open while diffs open beside it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileVersion } from '../../checkpoints/fileWriter';
import type { FileChange, RestorePlan } from '../../checkpoints/sessionCheckpoints';
import { inert } from '../../shared/inertText';
import { openVersionsDiff } from './diffEditor';
import { decodeText, notTextReason } from './textSlice';

/** What the preview needs besides the plan. */
export interface PreviewOptions {
  /** The quick pick's title, e.g. `Restore the checkpoint before "Fix the bug"`. */
  readonly title: string;
  /** The restore item's label, e.g. `Restore 3 files`. */
  readonly action: string;
  /** The two versions of a file: now and after the restore. */
  readonly versions: (file: FileChange) => Promise<{ now: FileVersion | undefined; after: FileVersion | undefined }>;
  /** Where diffs open (beside the chat). */
  readonly viewColumn?: vscode.ViewColumn;
}

interface FileItem extends vscode.QuickPickItem { readonly file?: FileChange; readonly restore?: true }

const diffButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: 'Open Diff: now ↔ after the restore' };
const icons = { created: 'diff-added', modified: 'diff-modified', deleted: 'diff-removed' } as const;
const what = { created: 'created by the restore', modified: 'changed', deleted: 'deleted by the restore' } as const;

/** Shows the preview; true when the user chose to restore. */
export function previewRestore(plan: RestorePlan, o: PreviewOptions): Promise<boolean> {
  const qp = vscode.window.createQuickPick<FileItem>();
  qp.title = inert.label`${o.title}`;
  qp.placeholder = 'Review what will change (Open Diff on a file), then choose Restore; Escape cancels';
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  const files: FileItem[] = plan.files.map((f) => ({
    label: inert.label`$(${icons[f.change]}) ${path.basename(f.path)}`,
    description: inert.label`${path.posix.dirname(f.rel) === '.' ? '' : path.posix.dirname(f.rel)} · ${what[f.change]}${f.added === undefined ? ' · binary' : ` · +${f.added} \u2212${f.removed ?? 0}`}`,
    buttons: [diffButton], file: f,
  }));
  const leftAlone: FileItem[] = plan.leftAlone.map((p) => ({ label: inert.label`$(circle-slash) ${path.basename(p)}`, description: inert.label`${p} · not in a checkpoint (over the size cap, or a nested repository): left as it is` }));
  qp.items = [
    { label: inert.label`$(history) ${o.action}`, detail: 'Files created since are deleted, deleted ones come back. The restore can be undone (Undo Restore in the chat).', restore: true, alwaysShow: true },
    { label: 'Files that will change', kind: vscode.QuickPickItemKind.Separator },
    ...files,
    ...(leftAlone.length ? [{ label: 'Left as they are', kind: vscode.QuickPickItemKind.Separator }, ...leftAlone] : []),
  ];
  const diff = async (f: FileChange) => {
    const v = await o.versions(f);
    await openVersionsDiff({ path: f.path, left: shown(v.now), right: shown(v.after), what: 'now ↔ after the restore' }, { preserveFocus: true, ...(o.viewColumn !== undefined ? { viewColumn: o.viewColumn } : {}) });
  };
  return new Promise<boolean>((resolve) => {
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      resolve(ok);
      qp.dispose();
    };
    qp.onDidTriggerItemButton(({ item }) => { if (item.file) void diff(item.file); });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      if (item?.restore) return finish(true);
      if (item?.file) void diff(item.file);
    });
    qp.onDidHide(() => finish(false));
    qp.show();
  });
}

/** A version as the diff shows it: text, a link's target, or a line saying it is binary. */
export function shown(v: FileVersion | undefined): string | undefined {
  if (!v) return undefined;
  if (v.mode === '120000') return `symbolic link to ${Buffer.from(v.bytes).toString('utf8')}\n`;
  return notTextReason(v.bytes) ? `(a binary file of ${v.bytes.length.toLocaleString('en-US')} bytes)\n` : decodeText(v.bytes);
}
