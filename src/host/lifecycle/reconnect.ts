/**
 * Reconnection (docs/remote-agents.md "When the connection drops"): an agent served elsewhere whose connection
 * ends without being asked to (a WebSocket or HTTP connection lost, `ssh` failing with its own exit code 255) is
 * connected again, without a limit: first at once, then every half second for about a minute, then every 5 s. Each of its sessions shows "Reconnecting…" with the attempt and the next try,
 * and a button that connects now (the restart, which supersedes the loop). A successful attempt is the restart of
 * src/host/lifecycle/restart.ts: the sessions come back through `session/resume` (else `session/load`), and a
 * prompt that the loss interrupted is offered for resend. The turn itself ended when the connection did: ACP v1
 * does not carry a turn over to a new connection, so nothing waits on the dead one (Stop has nothing left to
 * stop). Other agents' sessions are not touched. The loop ends when the agent has no open session left.
 */
import type { AgentDefinition } from '../../agents/agentDefinition';
import { lostConnection } from '../../agents/agentTransport';
import type { AgentHost } from '../agentHost';
import type { AgentSession } from '../agentSession';

/**
 * The wait before attempt `attempt` (1-based): at once, 250 ms, then every 500 ms for about a minute (a server that
 * comes back is found within half a second: a refused connection costs next to nothing), then every 5 s.
 */
export function reconnectDelayMs(attempt: number): number {
  if (attempt <= 1) return 0;
  if (attempt === 2) return 250;
  return attempt <= 120 ? 500 : 5000;
}

/** Whether `host` ended by losing its connection (reconnected) rather than by a crash (the restart policy). */
export function isConnectionLoss(host: AgentHost): boolean {
  return host.exit !== undefined && lostConnection(host.definition.transport, host.exit);
}

/** What reconnecting needs. */
export interface ReconnectDeps {
  /** The open, non-read-only sessions of an agent. */
  sessionsOf(agentId: string): AgentSession[];
  /** One attempt: a new host for `def`, its sessions brought back; rejects when it could not connect. */
  attempt(def: AgentDefinition, cwd: string): Promise<AgentHost>;
  /** Waits (tests shorten it). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const sleepFor = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  if (ms <= 0 || signal.aborted) return resolve();
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** The reconnection loops, one per agent. */
export class Reconnector {
  private readonly _loops = new Map<string, AbortController>();

  constructor(private readonly deps: ReconnectDeps) {}

  /** Whether the agent is being reconnected. */
  isReconnecting(agentId: string): boolean {
    return this._loops.has(agentId);
  }

  /** Ends the agent's loop (a manual restart connects instead; the agent was stopped). */
  cancel(agentId: string): void {
    this._loops.get(agentId)?.abort();
    this._loops.delete(agentId);
  }

  /** Ends every loop (every agent is stopped). */
  cancelAll(): void {
    for (const id of [...this._loops.keys()]) this.cancel(id);
  }

  /** Starts reconnecting the agent of `host`, which lost its connection (once per agent). */
  start(host: AgentHost): void {
    const def = host.definition;
    if (this._loops.has(def.id)) return;
    const loop = new AbortController();
    this._loops.set(def.id, loop);
    const why = host.exit?.error.message ?? 'the connection ended';
    host.log.warn(`${why}; reconnecting`);
    void this.run(def, host, why, loop.signal).finally(() => {
      if (this._loops.get(def.id) === loop) this._loops.delete(def.id);
    });
  }

  private async run(def: AgentDefinition, lostHost: AgentHost, why: string, signal: AbortSignal): Promise<void> {
    const sleep = this.deps.sleep ?? sleepFor;
    const since = Date.now();
    let last = why;
    for (let attempt = 1; !signal.aborted; attempt++) {
      const sessions = this.deps.sessionsOf(def.id);
      if (!sessions.length) return;
      const delay = reconnectDelayMs(attempt);
      const next = delay ? `next try in ${delay >= 1000 ? `${delay / 1000} s` : `${delay} ms`}` : 'trying now';
      for (const s of sessions) s.thread.setStatus('reconnecting', `${last}. Reconnecting: attempt ${attempt}, ${next}.`, 'reconnect');
      await sleep(delay, signal);
      if (signal.aborted) return;
      try {
        await this.deps.attempt(def, lostHost.cwd);
        lostHost.log.info(`reconnected after ${attempt} attempt${attempt === 1 ? '' : 's'} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
        return;
      } catch (error) {
        last = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
        lostHost.log.warn(`reconnect attempt ${attempt} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
