/**
 * What the per-session handlers (files, terminals, permissions, follow-along, change review) get from their
 * session. One object, so each handler stays independent of how sessions are built.
 */
import type * as vscode from 'vscode';
import type { AcpThread } from '../thread/model/thread';

/** The session a handler serves. */
export interface SessionContext {
  readonly sessionId: string;
  /** The session's working directory (absolute). */
  readonly cwd: string;
  /** Extra roots granted to the session (absolute), besides `cwd` and the workspace folders. */
  readonly additionalDirectories: readonly string[];
  /** Display name of the agent, e.g. "Claude Code". */
  readonly agentName: string;
  /** The conversation model (tool calls, notices, permission state). */
  readonly thread: AcpThread;
  /** The agent's log. */
  readonly log: vscode.LogOutputChannel;
  /** True while a chat panel of this session is visible. */
  isChatVisible(): boolean;
}
