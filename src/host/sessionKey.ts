/**
 * How the client names a session. An agent names its sessions by id, and two agents may hand out the same
 * id (many count from 1), so the client's key is the agent id and the session id together.
 */

/** The client's key of a session: its agent and the id that agent gave it. */
export function sessionKey(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}

/** A session to open again: from history, a restored panel, or the agent's list. */
export interface SessionRef {
  readonly agentId: string;
  readonly sessionId: string;
  readonly cwd: string;
  /** Shown while the agent is not configured any more. */
  readonly agentName?: string;
  readonly title?: string;
}
