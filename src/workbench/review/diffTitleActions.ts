/**
 * Keep and Undo in the title bar of a diff that Switchboard opened for an agent's change (diffEditor.ts): the
 * context key {@link agentChangeDiffContextKey} is true while an editor group shows such a diff whose file is
 * still in a session's change record; package.json shows the two commands under it in diff editors. A diff
 * opened beside the chat keeps the focus in the chat, so the key does not follow the active group only. Each
 * command acts on its group's file (VS Code passes the group's resource, the diff's right side) through the
 * shared review actions, then closes the diff.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import type { ChangeTracker } from '../../host/files/changeTracker';
import { originalScheme } from '../../host/files/diffEditor';
import { applyReviewAction } from '../../host/files/reviewActions';
import { agentChangeDiffContextKey, commandIds } from '../../constants';
import { inert } from '../../shared/inertText';

/** A diff tab Switchboard opened, with the file it compares. */
interface AgentDiff { readonly tab: vscode.Tab; readonly file: vscode.Uri; readonly modified: vscode.Uri }

/** The tab's diff when Switchboard opened it (its left side is one of our read-only documents). */
function agentDiff(tab: vscode.Tab | undefined): AgentDiff | undefined {
  const input = tab?.input;
  if (!tab || !(input instanceof vscode.TabInputTextDiff) || input.original.scheme !== originalScheme) return undefined;
  return { tab, file: vscode.Uri.file(input.original.fsPath), modified: input.modified };
}

/** The diffs shown in the editor groups (each group's active tab), the active group's first. */
function shownAgentDiffs(): AgentDiff[] {
  const groups = vscode.window.tabGroups;
  const ordered = [groups.activeTabGroup, ...groups.all.filter((g) => g !== groups.activeTabGroup)];
  return ordered.map((g) => agentDiff(g.activeTab)).filter((d): d is AgentDiff => d !== undefined);
}

/**
 * Registers the two commands and keeps the context key current. `sessions` lists the open sessions, the
 * active chat's first (its record wins when several sessions changed the same file); `onDidChangeChanges` fires
 * when the record of any of them changed, or sessions opened or closed.
 */
export function registerDiffTitleActions(sessions: () => readonly AgentSession[], onDidChangeChanges: vscode.Event<void>): vscode.Disposable {
  const trackerOf = (file: vscode.Uri): ChangeTracker | undefined => sessions().find((s) => s.changes.get(file))?.changes;
  let shown: boolean | undefined;
  const update = () => {
    const show = shownAgentDiffs().some((d) => trackerOf(d.file));
    if (show === shown) return;
    shown = show;
    void vscode.commands.executeCommand('setContext', agentChangeDiffContextKey, show);
  };
  const act = async (action: 'keep' | 'undo', resource: unknown) => {
    const diffs = shownAgentDiffs();
    const diff = (resource instanceof vscode.Uri ? diffs.find((d) => d.modified.toString() === resource.toString()) : undefined) ?? diffs[0];
    const tracker = diff && trackerOf(diff.file);
    if (!diff || !tracker) {
      void vscode.window.showInformationMessage('This diff shows no pending change of an agent: it was kept or undone already.');
      return update();
    }
    try {
      await applyReviewAction(tracker, action, diff.file);
    } catch (e) {
      void vscode.window.showErrorMessage(inert.message`Could not ${action} the change of ${vscode.workspace.asRelativePath(diff.file)}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    await vscode.window.tabGroups.close(diff.tab).then(undefined, () => false);
  };
  // a preview diff that replaces another one may reach the tab model after the first event: look again soon
  let recheck: NodeJS.Timeout | undefined;
  const updateSoon = () => {
    update();
    clearTimeout(recheck);
    recheck = setTimeout(update, 150);
  };
  update();
  return vscode.Disposable.from(
    vscode.commands.registerCommand(commandIds.keepChange, (resource: unknown) => act('keep', resource)),
    vscode.commands.registerCommand(commandIds.undoChange, (resource: unknown) => act('undo', resource)),
    vscode.window.tabGroups.onDidChangeTabs(updateSoon),
    vscode.window.tabGroups.onDidChangeTabGroups(updateSoon),
    vscode.window.onDidChangeVisibleTextEditors(updateSoon),
    onDidChangeChanges(update),
    { dispose: () => clearTimeout(recheck) },
  );
}
