/**
 * Crash recovery: an agent crash must not lose the user's sessions. When an agent exits without being
 * asked to, each of its sessions shows
 * "Agent exited (code, last stderr lines)" with a Restart button (AgentSession.onAgentExit), its pending
 * permissions and terminals are cleaned up, and the agent is restarted automatically at most 3 times in 3
 * minutes ({@link RestartPolicy}); after that the sessions say why it was not. A restart respawns the
 * agent, initializes it, and brings every session back: `session/resume` when the agent advertises
 * `sessionCapabilities.resume`, else `session/load` (its replay is not shown twice) when it advertises
 * `loadSession`. A session the agent can do neither with stays where it is, with the failure in place and
 * a Continue in New Session button: no tab ever opens in front of the failed chat, the user decides when to
 * switch. The prompt that was in flight is offered for resend (in the continuation, when there is one).
 */
import type { AgentDefinition } from '../../agents/agentDefinition';
import { RestartPolicy } from '../../agents/restartPolicy';
import { type HeldUpdate, mergeReplay } from '../../thread/model/replayMerge';
import type { AgentHost } from '../agentHost';
import type { AgentSession } from '../agentSession';
import { clientCheckPrefix } from '../permissions/permissionBroker';
import { applySetup } from './editorTools/editorToolsPart';
import { isConnectionLoss, Reconnector } from './reconnect';
import type { SessionSetup } from './sessionSetup';

/** How a session came back after a restart. */
export type ReattachMode = 'resumed' | 'loaded' | 'new';

/** What the restarter needs from the session manager. */
export interface RestartDeps {
  /** The current host of an agent, if any. */
  hostOf(agentId: string): AgentHost | undefined;
  /** Spawns and initializes a fresh host for `def` (an exited one is replaced). */
  startHost(def: AgentDefinition, cwd: string): Promise<AgentHost>;
  /** The open, non-read-only sessions of an agent. */
  sessionsOf(agentId: string): AgentSession[];
  /** The MCP servers to pass to this agent (filtered by its capabilities). */
  /** The setup fields (cwd, MCP servers, additional directories) of a session of `host` in `cwd`. */
  setupFor(host: AgentHost, cwd: string): Promise<SessionSetup>;
  /**
   * The agent's definition as configured now (an edited command, args or env takes effect at the restart);
   * undefined when it is no longer configured: the running host's definition is used then.
   */
  definitionOf?(agentId: string): AgentDefinition | undefined;
}

/** Restarts agents, automatically after a crash (within the policy) or on request. */
export class AgentRestarter {
  private readonly _policies = new Map<string, RestartPolicy>();
  private readonly _running = new Map<string, Promise<AgentHost>>();
  /** Agents served elsewhere that lost their connection: reconnected without a limit (src/host/lifecycle/reconnect.ts). */
  readonly reconnector: Reconnector;

  constructor(private readonly deps: RestartDeps, private readonly newPolicy: () => RestartPolicy = () => new RestartPolicy()) {
    this.reconnector = new Reconnector({
      sessionsOf: (id) => this.deps.sessionsOf(id),
      attempt: (def, cwd) => this.restart(def, cwd, false, true),
    });
  }

  /** Whether a restart of the agent is in progress. */
  isRestarting(agentId: string): boolean {
    return this._running.has(agentId);
  }

  /** Called when a host exited: a crash with open sessions restarts it automatically within the policy. */
  onHostExit(host: AgentHost): void {
    const exit = host.exit;
    const sessions = host.sessions;
    if (!exit || exit.requested || !sessions.length || this._running.has(host.definition.id)) return;
    if (isConnectionLoss(host)) return this.reconnector.start(host);
    const policy = this.policy(host.definition.id);
    policy.record();
    const decision = policy.shouldRestart();
    const name = host.definition.name;
    if (!decision.restart) {
      host.log.warn(`${name} is not restarted automatically: ${decision.reason}`);
      for (const s of sessions) s.thread.addNotice('error', `${name} is not restarted automatically: ${decision.reason}.`, 'restart');
      return;
    }
    host.log.info(`restarting ${name} automatically (${decision.attempt} of the restarts allowed within the window)`);
    for (const s of sessions) s.thread.addNotice('info', `Restarting ${name} automatically (restart ${decision.attempt} of at most 3 in 3 minutes)…`);
    this.restart(host.definition, host.cwd, false).catch(() => undefined); // failures are shown in the sessions
  }

  /**
   * Restarts an agent now (stopping it first if it runs) and brings its sessions back. A manual restart
   * forgets earlier crashes. Concurrent calls share one restart.
   */
  restart(def: AgentDefinition, cwd: string, manual = true, reconnect = false): Promise<AgentHost> {
    // a restart by hand connects now: the reconnection loop ends
    if (manual) this.reconnector.cancel(def.id);
    const running = this._running.get(def.id);
    if (running) return running;
    if (manual) this.policy(def.id).reset();
    const p = this.doRestart(def, cwd, reconnect).finally(() => this._running.delete(def.id));
    this._running.set(def.id, p);
    return p;
  }

  /** With `reconnect`, the sessions keep their Reconnecting… state meanwhile, and a failure is the loop's to show. */
  private async doRestart(started: AgentDefinition, cwd: string, reconnect: boolean): Promise<AgentHost> {
    const def = this.deps.definitionOf?.(started.id) ?? started;
    const sessions = this.deps.sessionsOf(def.id);
    const old = this.deps.hostOf(def.id);
    if (old && old.state !== 'exited') await old.stop();
    if (!reconnect) for (const s of sessions) s.thread.setStatus('starting');
    let host: AgentHost;
    try {
      host = await this.deps.startHost(def, sessions[0]?.cwd ?? cwd);
    } catch (error) {
      if (reconnect) throw error;
      const message = error instanceof Error ? error.message : String(error);
      for (const s of sessions) {
        s.thread.addNotice('error', `${def.name} could not be restarted: ${message}`, 'restart');
        s.thread.setStatus('disconnected', message, 'restart');
      }
      throw error;
    }
    await Promise.all(sessions.map((s) => this.bringBack(s, host, reconnect)));
    return host;
  }

  private async bringBack(session: AgentSession, host: AgentHost, reconnect: boolean): Promise<void> {
    const name = host.definition.name;
    try {
      const mode = await this.reattach(session, host);
      if (mode === 'new') return;
      host.log.info(`session ${session.sessionId} ${mode} after the ${reconnect ? 'reconnection' : 'restart'}`);
      session.thread.addNotice('info', `${name} ${reconnect ? 'is connected again' : 'restarted'}; the session was ${mode === 'resumed' ? 'resumed' : 'loaded again'}.`);
      session.offerResend();
      session.sendQueued(); // what the user queued while it restarted
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      host.log.error(`session ${session.sessionId} could not be brought back: ${message}`);
      session.thread.addNotice('error', `${name} restarted, but this session could not be reopened: ${message}`, 'continue');
      session.thread.setStatus('disconnected', `${name} could not reopen this session: ${message}`, 'continue');
    }
  }

  /**
   * Re-creates `session`, whose transcript is shown, on `host`, gated on its capabilities exactly:
   * `session/resume` only with `sessionCapabilities.resume`, `session/load` only with `loadSession`
   * (https://agentclientprotocol.com/protocol/session-setup). Also what a chat opened at once from the store
   * connects with (SessionManager.open, `atOnce`).
   */
  async reattach(session: AgentSession, host: AgentHost): Promise<ReattachMode> {
    const caps = host.initializeResponse?.agentCapabilities;
    const setup = await this.deps.setupFor(host, session.cwd);
    const params = { sessionId: session.sessionId, ...setup };
    if (caps?.sessionCapabilities?.resume || caps?.loadSession) applySetup(session, setup);
    if (caps?.sessionCapabilities?.resume) {
      session.rebind(host);
      const res = await detachOnError(session, host, () => host.connection.request('session/resume', params));
      session.thread.setSessionSetup(res);
      session.thread.setStatus('idle');
      return 'resumed';
    }
    if (caps?.loadSession) {
      // the transcript is already shown: of the replay of session/load, only what it has beyond it is applied
      session.rebind(host, { ignoreUpdates: true });
      let held: HeldUpdate[] = [];
      const res = await detachOnError(session, host, () => host.connection.request('session/load', params)).finally(() => { held = session.acceptUpdates(); });
      const merge = mergeReplay(session.thread.entries, held, session.sessionId, (e) => e.kind === 'toolCall' && e.toolCallId.startsWith(clientCheckPrefix));
      if (merge.note) host.log.warn(`session ${session.sessionId}: ${merge.note}`);
      host.log.info(`session ${session.sessionId}: ${held.length} updates replayed, ${merge.updates.length} of them (or their rest) not shown yet: applied`);
      for (const u of merge.updates) session.thread.handleSessionUpdate(u.update, u.sessionId);
      session.thread.setSessionSetup(res ?? {});
      session.thread.setStatus('idle');
      return 'loaded';
    }
    const name = host.definition.name;
    session.thread.addNotice('warning', `${name} is running again, but it can neither resume nor load sessions, so this conversation cannot go on here. Continue in New Session starts a new session whose first prompt carries this transcript.`, 'continue');
    session.thread.setStatus('disconnected', `${name} restarted, but it cannot reopen this session.`, 'continue');
    return 'new';
  }

  private policy(agentId: string): RestartPolicy {
    let p = this._policies.get(agentId);
    if (!p) this._policies.set(agentId, (p = this.newPolicy()));
    return p;
  }
}

async function detachOnError<T>(session: AgentSession, host: AgentHost, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    host.detach(session.sessionId);
    throw error;
  }
}
