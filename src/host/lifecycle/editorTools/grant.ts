/**
 * The shapes the editor's MCP server and its tools share (docs/editor-tools.md): a session's grant (its token's
 * access: whose session, which folders, which log), what each tool call gets, and the request handler of the
 * lazily loaded server. Types and one symbol only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PermissionBroker } from '../../permissions/permissionBroker';
import type { SessionContext } from '../../sessionContext';

/** Where a session setup carries its grant: a symbol key, copied by spreads, never sent (JSON skips symbols). */
export const editorGrantKey = Symbol('switchboard.editorGrant');

/** One session's access to the editor's tools. */
export interface EditorGrant {
  readonly agentId: string;
  readonly cwd: string;
  /** The session's roots: tools answer only about files inside them. */
  roots: readonly string[];
  /** The session it serves, once the agent has answered (the log names it). */
  sessionId: string | undefined;
  /** The session's context and its permissions, once it holds the grant: run_task asks through them. */
  session: { readonly ctx: SessionContext; readonly permissions: PermissionBroker } | undefined;
  /** The per-session log (docs/editor-tools.md, "The log"). */
  readonly logFile: string;
  /** Appends a line to the log, secrets masked. */
  log(line: string): void;
  /** Resolves once every line logged so far is written. */
  flushed(): Promise<void>;
  /** True until the session ends. */
  readonly live: boolean;
  revoke(): void;
}

/** What every tool gets: the session's grant and the call's cancellation. */
export interface ToolCall {
  readonly grant: EditorGrant;
  readonly signal: AbortSignal;
}

/** Serves one HTTP request whose grant the listener already checked (`req.auth.extra.grant`). */
export type EditorToolsHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;
