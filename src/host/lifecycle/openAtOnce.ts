/**
 * A chat reopened at once (SessionManager.open with `atOnce`: a tab restored after a reload, Switch Session, the
 * Sessions view): when its agent is known to resume sessions (history/reopenPolicy.ts) and the client's store has
 * the transcript, the session is shown from the store at once, 'starting', and its agent is started and the
 * session brought back behind the chat, as a restart brings a session back (lifecycle/restart.ts: `session/resume`,
 * else `session/load`, of whose replay only what the transcript lacks is applied). What the user sends meanwhile
 * waits in the queue and goes once it is connected. If the agent cannot reopen it, the session turns read-only,
 * saying why, as SessionManager.open would have opened it (docs/chat.md, "Reopened at once").
 */
import type * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import type { AgentHost } from '../agentHost';
import type { AgentSession } from '../agentSession';
import { reopenStatus } from '../history/sessionStatus';
import type { SessionRef } from '../sessionKey';
import type { ReattachMode } from './restart';
import { whyNotForkable } from './sessionFork';
import { sayWhereItRuns } from './sessionReopen';

/** How SessionManager.open opens a session. */
export interface OpenOptions {
  /**
   * A chat the user is waiting to see: from the store at once when its agent is known to resume, connected
   * behind it (this file). Otherwise, and by default, the agent is started and the session resumed or loaded first.
   */
  readonly atOnce?: boolean;
}

/** What connecting a session behind its chat needs from the session manager. */
export interface ConnectBehindDeps {
  /** The agent's running host, started when needed (a new one is recorded as started to reopen). */
  readonly hostFor: (def: AgentDefinition) => Promise<AgentHost>;
  /** Whether the session is still open (not closed meanwhile). */
  readonly isOpen: (session: AgentSession) => boolean;
  /** Brings the session back on the host (restart.ts), logging in first when the agent asks. */
  readonly reattach: (session: AgentSession, host: AgentHost) => Promise<ReattachMode>;
  /** The session could not be reopened: read-only from here on, saying why. */
  readonly readOnly: (session: AgentSession, reason: string) => void;
  readonly logFor: (def: AgentDefinition) => vscode.LogOutputChannel;
}

/**
 * Connects `session`, shown from the store, to its agent: `session/status` first (a session the agent does not
 * know turns read-only), then the reattach, then the queued prompts. Never rejects.
 */
export async function connectBehind(deps: ConnectBehindDeps, session: AgentSession, ref: SessionRef, def: AgentDefinition): Promise<void> {
  const log = deps.logFor(def);
  let failure: string | undefined;
  try {
    const host = await deps.hostFor(def);
    const caps = host.initializeResponse?.agentCapabilities;
    if (!caps?.sessionCapabilities?.resume && !caps?.loadSession) failure = `${def.name} can neither resume nor load sessions`;
    else if (await reopenStatus(host, ref.sessionId) === 'unknown') failure = `${def.name} could not reopen it (it does not know this session any more)`;
    else if (deps.isOpen(session)) {
      session.canFork = !whyNotForkable({ host }, false);
      const mode = await deps.reattach(session, host);
      if (!deps.isOpen(session)) return void session.host.detach(session.sessionId); // closed while it connected
      log.info(`session ${ref.sessionId} ${mode} in ${ref.cwd}, behind its chat (shown from the store at once)`);
      sayWhereItRuns(session, session.host);
      session.sendQueued();
    }
  } catch (error) {
    failure = `${def.name} could not reopen it (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!failure) return;
  log.warn(`could not reopen session ${ref.sessionId}: ${failure}`);
  if (deps.isOpen(session)) deps.readOnly(session, failure);
}
