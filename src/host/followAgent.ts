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

  /** Turns following on or off. */
  toggle(): void {
    this.enabled = !this.enabled;
  }

  /** Called whenever a tool call of the session was added or changed. */
  onToolCall(_entry: ToolCallEntry): void {
    // not implemented yet
  }

  dispose(): void {
    // nothing to release yet
  }
}

/** The status-bar indicator of Follow Agent for the active session. STUB. */
export class FollowStatusBar implements vscode.Disposable {
  constructor(private readonly _active: () => FollowAgent | undefined) {}

  /** Re-renders for the active session. */
  update(): void {
    void this._active;
  }

  dispose(): void {
    // nothing to release yet
  }
}
