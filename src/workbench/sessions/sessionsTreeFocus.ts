/**
 * The Sessions view's focused row, for its keys (F2, Delete, Space). The arrow keys move the tree's focus, not
 * its selection, and a command run by a keybinding gets no argument; the extension API tells the selection
 * only (`TreeView.activeItem` is a proposed API). So the row is found through the workbench's own list
 * commands, which act on the focused list: `list.toggleSelection` adds the focused row to the selection or
 * takes it out, and the row that changed is the focused one; it is then made the only selection. Neither
 * command opens the row (only a selection made with a key or the mouse does), so no chat opens.
 * docs/sessions.md "A home for all sessions".
 */
import * as vscode from 'vscode';
import type { SessionsNode } from './sessionsTreeItems';

/** A node's identity across reads of the selection (the tree item's id: sessionsTreeItems.ts). */
function nodeId(node: SessionsNode): string {
  switch (node.type) {
    case 'group': return `group:${node.by}:${node.key}`;
    case 'session': return `session:${node.item.agentId}:${node.item.sessionId}`;
    case 'file': return `file:${node.session.key}:${node.file.path}`;
    case 'worktree': return `worktree:${node.record.id}:${node.item.agentId}:${node.item.sessionId}`;
  }
}

function ids(nodes: readonly SessionsNode[]): string[] {
  return nodes.map(nodeId);
}

/**
 * The focused row of `view` (which has the keyboard: the keybindings' `listFocus`), selected alone; the
 * selection when no row has the focus. The selection the extension sees is updated before a workbench
 * command's answer comes back (both travel on the same channel, in order).
 */
export async function focusedNode(view: vscode.TreeView<SessionsNode>): Promise<SessionsNode | undefined> {
  const selected = view.selection;
  const before = ids(selected);
  await vscode.commands.executeCommand('list.toggleSelection');
  const after = view.selection;
  const focused = after.find((n) => !before.includes(nodeId(n)));
  if (focused) {
    // it was added next to another selected row: only the focused one stays
    if (after.length > 1) await vscode.commands.executeCommand('list.clear');
    if (!ids(view.selection).includes(nodeId(focused))) await vscode.commands.executeCommand('list.toggleSelection');
    return focused;
  }
  const removed = selected.find((n) => !ids(after).includes(nodeId(n)));
  if (!removed) return selected[0]; // no row has the focus
  // the focused row was the selected one: select it again
  await vscode.commands.executeCommand('list.toggleSelection');
  return removed;
}
