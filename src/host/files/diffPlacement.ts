/**
 * Where a diff opens: beside the chat, never over it (the diff editor in the chat's own group would hide the
 * chat). The rule is diffColumn.ts (pure); this reads the editor groups.
 */
import * as vscode from 'vscode';
import { diffColumnBeside } from './diffColumn';

/** The column for a diff beside a chat shown in `chatColumn` (see {@link diffColumnBeside}). */
export function besideChat(chatColumn: vscode.ViewColumn | undefined): vscode.ViewColumn | undefined {
  const groups = vscode.window.tabGroups;
  return diffColumnBeside(chatColumn, groups.all.map((g) => g.viewColumn), groups.activeTabGroup.viewColumn);
}
