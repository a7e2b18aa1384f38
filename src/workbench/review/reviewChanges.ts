/**
 * ACP: Review Changes: every file the session changed, with Keep, Undo and Open Diff per file, and Undo All /
 * Keep All, so the user decides which of the agent's edits stay. The picker is a thin layer over
 * {@link applyReviewAction} and {@link undoAllChanges}, which the tests call directly.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { isCreated } from '../../host/files/changeTracker';
import type { ChangeRecord, ChangeTracker } from '../../host/files/changeTracker';
import { openDiff } from '../../host/files/diffEditor';
import { findOpenDocument, statOrUndefined } from '../../host/files/editorFiles';
import { decodeText } from '../../host/files/textSlice';
import { inert, inertText } from '../../shared/inertText';

/** What the user can do with one changed file. */
export type ReviewAction = 'keep' | 'undo' | 'diff';

/** Applies one review action to a file of the session's record. */
export async function applyReviewAction(tracker: ChangeTracker, action: ReviewAction, uri: vscode.Uri): Promise<void> {
  const record = tracker.get(uri);
  if (!record) return;
  switch (action) {
    case 'keep': return tracker.keep(uri);
    case 'undo': return tracker.undo(uri);
    case 'diff': return openDiff({ path: record.uri.fsPath, oldText: record.original ?? null, newText: await currentText(record.uri) }, { preserveFocus: true });
  }
}

/** Undoes every change of the session; shows which files could not be restored, if any. */
export async function undoAllChanges(tracker: ChangeTracker): Promise<void> {
  const failed = await tracker.undoAll();
  if (failed.length) {
    void vscode.window.showErrorMessage(inert.message`Could not undo ${failed.length} change(s): ${failed.map((f) => `${vscode.workspace.asRelativePath(f.uri)} (${f.error})`).join('; ')}`);
  }
}

/** The file's text now: the open editor's, else the disk's, else empty (the file is gone). */
async function currentText(uri: vscode.Uri): Promise<string> {
  const doc = findOpenDocument([uri.fsPath]);
  if (doc) return doc.getText();
  if (!(await statOrUndefined(uri).catch(() => undefined))) return '';
  return decodeText(await vscode.workspace.fs.readFile(uri));
}

interface FileItem extends vscode.QuickPickItem {
  readonly record: ChangeRecord;
}
interface AllItem extends vscode.QuickPickItem {
  readonly all: 'undo' | 'keep';
}
interface SeparatorItem extends vscode.QuickPickItem {
  readonly kind: vscode.QuickPickItemKind.Separator;
}
type ReviewItem = FileItem | AllItem | SeparatorItem;

const actions: { action: ReviewAction; icon: string; label: string }[] = [
  { action: 'diff', icon: 'diff', label: 'Open Diff' },
  { action: 'keep', icon: 'check', label: 'Keep' },
  { action: 'undo', icon: 'discard', label: 'Undo (restore the file as it was before the agent)' },
];
const buttons = actions.map((a) => ({ action: a.action, button: { iconPath: new vscode.ThemeIcon(a.icon), tooltip: a.label } }));

function items(tracker: ChangeTracker): ReviewItem[] {
  const files: ReviewItem[] = tracker.changes.map((record) => ({
    record,
    label: inert.label`$(${isCreated(record) ? 'diff-added' : 'diff-modified'}) ${vscode.workspace.asRelativePath(record.uri)}`,
    description: isCreated(record) ? 'created' : 'modified',
    buttons: buttons.map((b) => b.button),
  }));
  const n = files.length;
  return [
    ...files,
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { all: 'undo', label: '$(discard) Undo All', description: n === 1 ? 'restore 1 file as it was before the agent' : inert.label`restore ${n} files as they were before the agent` },
    { all: 'keep', label: '$(check-all) Keep All', description: 'keep the agent\'s changes and clear this list' },
  ];
}

/** Runs an action, reporting a failure to the user instead of throwing. */
async function run(what: string, action: () => Promise<void> | void): Promise<void> {
  try {
    await action();
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The follow-up question for a file picked with Enter. */
async function pickAction(record: ChangeRecord): Promise<ReviewAction | undefined> {
  const choice = await vscode.window.showQuickPick(
    actions.map((a) => ({ label: inert.label`$(${a.icon}) ${a.label}`, action: a.action })),
    { title: inertText(vscode.workspace.asRelativePath(record.uri), 'label'), placeHolder: isCreated(record) ? 'Created by the agent: Undo deletes it' : 'Changed by the agent' },
  );
  return choice?.action;
}

/** Shows the review of a session's changes. */
export async function reviewChanges(session: AgentSession | undefined): Promise<void> {
  if (!session) {
    void vscode.window.showInformationMessage('Open a Switchboard chat first: Review Changes works on the active session.');
    return;
  }
  const tracker = session.changes;
  if (!tracker.changes.length) {
    void vscode.window.showInformationMessage(inert.message`${session.host.definition.name} has not changed any file in this session: nothing to review.`);
    return;
  }
  const qp = vscode.window.createQuickPick<ReviewItem>();
  const refresh = () => {
    if (!tracker.changes.length) return qp.hide();
    qp.title = inert.label`ACP: Review Changes of ${session.host.definition.name} (${tracker.changes.length} file${tracker.changes.length === 1 ? '' : 's'})`;
    qp.items = items(tracker);
  };
  qp.placeholder = 'Pick a file to keep, undo or compare it; or Undo All / Keep All (Escape closes the list)';
  qp.ignoreFocusOut = true; // stays open while the user looks at a diff
  qp.matchOnDescription = true;
  refresh();
  const done = new Promise<void>((resolve) => qp.onDidHide(() => resolve()));
  qp.onDidTriggerItemButton(async (e) => {
    const action = buttons.find((b) => b.button === e.button)?.action;
    const item = e.item;
    if (!action || !('record' in item)) return;
    await run(`${e.button.tooltip ?? action}`, () => applyReviewAction(tracker, action, item.record.uri));
    if (action !== 'diff') refresh();
  });
  qp.onDidAccept(async () => {
    const item = qp.selectedItems[0];
    if (!item || !('record' in item || 'all' in item)) return;
    qp.hide();
    if ('all' in item) {
      await run(item.all === 'undo' ? 'Undo All' : 'Keep All', () => (item.all === 'undo' ? undoAllChanges(tracker) : tracker.keepAll()));
      return;
    }
    const action = await pickAction(item.record);
    if (!action) return;
    await run(action, () => applyReviewAction(tracker, action, item.record.uri));
    if (action !== 'diff' && tracker.changes.length) void reviewChanges(session); // back to the list
  });
  qp.show();
  await done;
  qp.dispose();
}
