/**
 * Follow Agent: while on, each tool call's `locations` opens the file as a preview and reveals the line.
 * STUB: the editor-side issue implements it.
 */
import type * as vscode from 'vscode';
import type { ToolCallEntry } from '../thread/toolCall';
import type { SessionContext } from './sessionContext';

/** The follow-along state of one session. */
export class FollowAgent implements vscode.Disposable {
  enabled = false;

  constructor(readonly ctx: SessionContext) {}

  /** Called whenever a tool call of the session was added or changed. */
  onToolCall(_entry: ToolCallEntry): void {
    // not implemented yet
  }

  dispose(): void {
    // nothing to release yet
  }
}
