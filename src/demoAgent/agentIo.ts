/**
 * How a scripted agent ends itself: exit with a code, or kill itself with a signal.
 */
export type AgentExit = { code: number } | { signal: string };

/**
 * Everything the scripted agent engine needs from its host. A real agent process passes its stdio
 * (`stdioAgentIo()`); unit tests pass in-memory streams and a stub `exit`.
 */
export interface AgentIo {
  /** Bytes from the client (the agent's stdin). */
  readonly input: ReadableStream<Uint8Array>;
  /** Bytes to the client (the agent's stdout). The engine holds its writer for the whole run. */
  readonly output: WritableStream<Uint8Array>;
  /** Writes text to the agent's stderr as is (the caller adds "\n"). */
  writeStderr(text: string): void;
  /** The agent's environment (for env-var authentication). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The agent's own working directory (used for stored sessions without a cwd). */
  readonly cwd: string;
  /** The executable that runs the agent (node, or Electron as node); the `{{execPath}}` template. */
  readonly execPath: string;
  /**
   * `node` when it is on the agent's PATH, else absent; the `{{nodeCommand}}` template (else `execPath`): a
   * terminal card then shows the command as a user would type it, not a path inside the editor's install.
   */
  readonly nodeCommand?: string;
  /**
   * Ends the agent at once (a `crash` step). A process exits or kills itself; an in-process host
   * records it. The engine flushes stdout before and closes the connection after calling it.
   */
  exit(how: AgentExit): void;
}
