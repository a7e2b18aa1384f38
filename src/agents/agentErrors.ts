/**
 * Typed failures of the agent process layer. Both carry a `reason` discriminator and the static
 * `is(ex, reason?)` guard of src/shared/typedError.ts; their `message` is written for the user.
 */
import { typedError } from '../shared/typedError';

/** Why an agent could not be started. */
export type AgentSpawnErrorReason =
  /** The command is not on PATH / the path does not exist (ENOENT). */
  | 'commandNotFound'
  /** The file exists but may not be executed (EACCES, no x bit, a directory). */
  | 'commandNotExecutable'
  /** The working directory is missing, not a directory, or not absolute. */
  | 'cwdNotFound'
  /** An argument or path cannot be passed safely (EINVAL, newline in a cmd.exe argument, NUL byte). */
  | 'invalidArgument'
  /** Anything else the OS refused (E2BIG, EAGAIN, EMFILE …). */
  | 'spawnFailed';

/** Details of an {@link AgentSpawnError}. */
export interface AgentSpawnErrorDetails {
  /** Display name of the agent. */
  readonly agentName: string;
  /** The command as configured. */
  readonly command: string;
  /** The working directory the agent was to start in. */
  readonly cwd: string;
  /** The PATH directories searched for a bare command name, in order (empty for paths). */
  readonly searchedPath?: readonly string[];
  /** The Node/OS error code, e.g. `ENOENT`, when the OS refused the spawn. */
  readonly code?: string;
  /** The underlying error. */
  readonly cause?: unknown;
}

/** The agent process could not be started; nothing is running. */
export class AgentSpawnError extends typedError('AgentSpawnError') {
  /** Display name of the agent. */
  readonly agentName: string;
  /** The command as configured. */
  readonly command: string;
  /** The working directory the agent was to start in. */
  readonly cwd: string;
  /** The PATH directories searched (empty when the command was a path). */
  readonly searchedPath: readonly string[];
  /** The Node/OS error code, when there was one. */
  readonly code: string | undefined;

  /**
   * @param reason discriminator
   * @param message complete, user-facing message (names the agent and the command)
   */
  constructor(readonly reason: AgentSpawnErrorReason, message: string, details: AgentSpawnErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.agentName = details.agentName;
    this.command = details.command;
    this.cwd = details.cwd;
    this.searchedPath = details.searchedPath ?? [];
    this.code = details.code;
  }
}

/** How an agent process ended. */
export type AgentExitedErrorReason =
  /** It exited by itself with an exit code (0 included: an ACP agent should not exit while connected). */
  | 'exitCode'
  /** It was killed by a signal nobody in Switchboard sent (OOM killer, a user's `kill`, a crash). */
  | 'signal'
  /** Switchboard stopped it (`stop()`/`kill()`); not a crash, do not restart. */
  | 'stopped'
  /** The connection to an agent served elsewhere (WebSocket, HTTP) ended: it is reconnected (src/host/lifecycle/reconnect.ts). */
  | 'disconnected';

/** Details of an {@link AgentExitedError}. */
export interface AgentExitedErrorDetails {
  /** Display name of the agent. */
  readonly agentName: string;
  /** Exit code, or null when killed by a signal. */
  readonly code: number | null;
  /** Terminating signal, or null. */
  readonly signal: NodeJS.Signals | null;
  /** The last stderr lines, oldest first. */
  readonly stderrTail: readonly string[];
  /** True when Switchboard asked the agent to stop. */
  readonly requested: boolean;
  /** For an agent served elsewhere: how its connection ended, e.g. "ws://127.0.0.1:8080/acp closed (code 1006)". */
  readonly lost?: string;
}

/**
 * The agent process has ended; every pending request on its connection fails with this error.
 * `message` reads like "Agent 'Claude Code' exited with code 1: Error: not logged in".
 */
export class AgentExitedError extends typedError('AgentExitedError') {
  /** Discriminator, derived from the details. */
  readonly reason: AgentExitedErrorReason;
  /** Display name of the agent. */
  readonly agentName: string;
  /** Exit code, or null when killed by a signal. */
  readonly code: number | null;
  /** Terminating signal, or null. */
  readonly signal: NodeJS.Signals | null;
  /** The last stderr lines, oldest first. */
  readonly stderrTail: readonly string[];

  constructor(details: AgentExitedErrorDetails) {
    const reason: AgentExitedErrorReason = details.requested ? 'stopped' : details.lost ? 'disconnected' : details.code === null ? 'signal' : 'exitCode';
    super(exitMessage(reason, details));
    this.reason = reason;
    this.agentName = details.agentName;
    this.code = details.code;
    this.signal = details.signal;
    this.stderrTail = details.stderrTail;
  }
}

function exitMessage(reason: AgentExitedErrorReason, details: AgentExitedErrorDetails): string {
  const who = `Agent '${details.agentName}'`;
  if (reason === 'stopped') return `${who} was stopped.`;
  if (details.lost) return `${who} lost its connection: ${details.lost}`;
  const how = details.code !== null ? `exited with code ${details.code}` : `was killed by signal ${details.signal ?? 'unknown'}`;
  const line = pickTellingLine(details.stderrTail);
  // 127 is the shell/env convention for "command not found", e.g. `#!/usr/bin/env node` without node on PATH
  const hint = details.code === 127 ? ' (exit code 127 usually means a program it needs, such as node, is not on PATH)' : '';
  return line ? `${who} ${how}: ${line}${hint}` : `${who} ${how}${hint} (no stderr output)`;
}

// stack frames, node's caret line and version footer, Rust's backtrace note: never the telling line
const noiseLine = /^\s*$|^\s*at\s|^\s*\^+\s*$|^Node\.js v\d|^note: run with `RUST_BACKTRACE/;

/**
 * Chooses the stderr line that best explains a crash: the last line that is not blank, a stack frame,
 * or a runtime footer (node prints the `Error: …` line, then frames, then "Node.js v20…").
 */
export function pickTellingLine(tail: readonly string[]): string | undefined {
  for (let i = tail.length - 1; i >= 0; i--) {
    if (!noiseLine.test(tail[i])) return tail[i].trim();
  }
  return undefined;
}
