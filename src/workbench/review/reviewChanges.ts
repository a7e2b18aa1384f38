/**
 * ACP: Review Changes: every file the session changed, with Keep, Undo and Open Diff per file, and Undo All /
 * Keep All, so the user decides which of the agent's edits stay. The picker is a thin layer over
 * {@link applyReviewAction} and {@link undoAllChanges} (host/files/reviewActions.ts, shared with the chat's
 * changed-files bar), which the tests call directly. Diffs open beside the chat (diffPlacement.ts).
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { isCreated } from '../../host/files/changeTracker';
import type { ChangeRecord, ChangeTracker } from '../../host/files/changeTracker';
import { besideChat } from '../../host/files/diffPlacement';
import { applyReviewAction, confirmUndoAll, undoAllChanges } from '../../host/files/reviewActions';
import type { ReviewAction } from '../../host/files/reviewActions';
import { inert, inertText } from '../../shared/inertText';

export { applyReviewAction, undoAllChanges };
export type { ReviewAction };

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
export async function reviewChanges(session: AgentSession | undefined, chatColumn: () => vscode.ViewColumn | undefined = () => undefined): Promise<void> {
  if (!session) {
    void vscode.window.showInformationMessage('Open a Switchboard chat first: Review Changes works on the active session.');
    return;
  }
  const tracker = session.changes;
  if (!tracker.changes.length) {
    void vscode.window.showInformationMessage(inert.message`${session.host.definition.name} has not changed any file in this session: nothing to review.`);
    return;
  }
  // beside the chat, focus kept in the list
  const placement = () => ({ viewColumn: besideChat(chatColumn()), preserveFocus: true });
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
    await run(`${e.button.tooltip ?? action}`, () => applyReviewAction(tracker, action, item.record.uri, placement()));
    if (action !== 'diff') refresh();
  });
  qp.onDidAccept(async () => {
    const item = qp.selectedItems[0];
    if (!item || !('record' in item || 'all' in item)) return;
    qp.hide();
    if ('all' in item) {
      const undo = async () => { if (await confirmUndoAll(tracker.changes.length)) await undoAllChanges(tracker); };
      await run(item.all === 'undo' ? 'Undo All' : 'Keep All', () => (item.all === 'undo' ? undo() : tracker.keepAll()));
      return;
    }
    const action = await pickAction(item.record);
    if (!action) return;
    await run(action, () => applyReviewAction(tracker, action, item.record.uri, placement()));
    if (action !== 'diff' && tracker.changes.length) void reviewChanges(session, chatColumn); // back to the list
  });
  qp.show();
  await done;
  qp.dispose();
}
