import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { AgentExit, AgentIo } from './agentIo';
import type { AgentWire } from './agentWire';
import type { Scenario } from './scenario';
import type { SessionStore } from './sessionStore';
import type { TurnControl } from './turnControl';

/** What the step runner needs from the engine that serves the connection. */
export interface EngineContext {
  readonly scenario: Scenario;
  readonly io: AgentIo;
  readonly wire: AgentWire;
  readonly store: SessionStore;
  /** The SDK context for calling the client (`session/update`, permission, fs, terminal, …). */
  readonly client: acp.AgentContext;
  /** What the client advertised in `initialize` (undefined before). */
  readonly clientCapabilities: acp.ClientCapabilities | undefined;
  /** Factor for `sleep` steps and chunk delays (env SCRIPTED_AGENT_DELAY_SCALE, default 1; 0 = no delays). */
  readonly delayScale: number;
  /** The running subagents' work by their session id: `session/cancel` for one of them cancels it. */
  readonly subagentTurns: Map<string, TurnControl>;
  /** Whether the connection is closed (stdin ended, or after a crash). */
  readonly isClosed: boolean;
  /** Resolves when the connection closes. */
  readonly closed: Promise<void>;
  /** Writes one log line to stderr, prefixed with the scenario name. */
  log(line: string): void;
  /** Changes the sign-in state `auth/status` answers; sends `auth/status_update` when advertised and `notify`. */
  setAuthStatus(status: { state: string; accounts?: acp.AuthAccount[] }, notify: boolean): Promise<void>;
  /** Flushes stdout, writes `stderr` lines, then ends the agent (see `AgentIo.exit`). */
  crash(how: AgentExit, stderr: readonly string[]): Promise<void>;
}
