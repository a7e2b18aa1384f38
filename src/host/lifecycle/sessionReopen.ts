/**
 * Reopening a session from history or a restored chat (https://agentclientprotocol.com/protocol/session-setup):
 * `session/resume` (no replay: the transcript comes from the client's store), `session/load` (the replay is
 * rendered), or read-only from the client's store when the agent can do neither. Which one is the session
 * manager's choice (SessionManager.open); this file runs it (docs/chat.md, restored tabs).
 */
import type * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { remoteNotice } from '../../agents/agentTransport';
import { AgentHost, type ClientInfo } from '../agentHost';
import type { AgentSession } from '../agentSession';
import type { Transcript } from '../history/transcriptLog';
import type { TranscriptStore } from '../history/transcriptStore';
import type { SessionRef } from '../sessionKey';
import { applySetup } from './editorTools/editorToolsPart';
import type { SessionSetup } from './sessionSetup';

/** A recording of a session in the transcript store (`compact` writes the whole thread). */
export interface SessionRecording { dispose(): void; compact(): Promise<void> }

/** What reopening needs from the session manager (docs/architecture.md#layers). */
export interface SessionReopenDeps {
  readonly clientInfo: ClientInfo;
  readonly store: TranscriptStore | undefined;
  readonly logFor: (def: AgentDefinition) => vscode.LogOutputChannel;
  /** A new session object of `host` (not registered yet). */
  readonly create: (host: AgentHost, sessionId: string, cwd: string, log: vscode.LogOutputChannel) => AgentSession;
  /** The fields of a session setup request on `host` in `cwd` (sessionSetup.ts). */
  readonly setupFor: (host: AgentHost, cwd: string) => Promise<SessionSetup>;
  /** Runs a request; after `auth_required`, logs in and runs it again (auth.ts), maybe on a restarted host. */
  readonly withAuth: <T>(host: AgentHost, call: (host: AgentHost) => Promise<T>) => Promise<T>;
  /**
   * Registers a session (read-only: shown from the store, never recorded) and records it, `paused` until
   * compacted; does not tell the listeners.
   */
  readonly add: (session: AgentSession, options: { readonly paused?: boolean; readonly queue?: readonly unknown[]; readonly readOnly?: boolean }) => SessionRecording | undefined;
  /** Closes a session locally. */
  readonly forget: (key: string) => void;
  /** Tells the listeners that the open sessions changed. */
  readonly changed: () => void;
}

/** Shows a session read-only: its banner says why, and offers Continue in New Session. */
export function showReadOnly(session: AgentSession, reason: string): void {
  session.canFork = false;
  session.thread.setStatus('disconnected', `Read-only: ${reason}. Continue in New Session goes on in a new session that gets this transcript.`, 'continue');
}

/** A reopened session of an agent elsewhere says again where it runs (the notice is the client's, not in the transcript). */
export function sayWhereItRuns(session: AgentSession, host: AgentHost): void {
  const t = host.definition.transport;
  if (t) session.thread.addNotice('info', remoteNotice(host.displayName, t, host.pathMapping?.local, host.mappingProblem));
}

/** Shows the client's stored transcript of `ref` in `session`: its entries, title, plans and terminals' output. */
function showStored(session: AgentSession, stored: Transcript, ref: SessionRef): void {
  session.thread.restore(stored.entries, stored.title || ref.title || '', stored.plan, stored.terminals, stored.plans, stored.planCancelled);
}

/** Runs the reopening of sessions. */
export class SessionReopener {
  constructor(private readonly deps: SessionReopenDeps) {}

  /** `session/resume` on `host` (which advertises it). */
  async resume(host: AgentHost, ref: SessionRef, token?: vscode.CancellationToken): Promise<AgentSession> {
    const log = this.deps.logFor(host.definition);
    const session = this.deps.create(host, ref.sessionId, ref.cwd, log);
    const stored = this.deps.store?.read(host.definition.id, ref.sessionId);
    if (stored) showStored(session, stored, ref);
    else if (ref.title) session.thread.restore([], ref.title, []);
    // attached before the request: the agent may send updates (commands, usage) right after it answers
    host.attach(session);
    try {
      // config options and legacy modes come with the response
      session.thread.setSessionSetup(await this.deps.withAuth(host, async (h) => h.connection.request('session/resume', await this.params(session, h, ref), token)));
    } catch (error) {
      session.host.detach(ref.sessionId);
      session.dispose();
      throw error;
    }
    log.info(`session ${ref.sessionId} resumed in ${ref.cwd}`);
    sayWhereItRuns(session, host);
    this.deps.add(session, { queue: stored?.queue });
    this.deps.changed();
    return session;
  }

  /** `session/load` on `host` (which advertises `loadSession`): the replay streams into the chat. */
  async load(host: AgentHost, ref: SessionRef, token?: vscode.CancellationToken): Promise<AgentSession> {
    const log = this.deps.logFor(host.definition);
    const session = this.deps.create(host, ref.sessionId, ref.cwd, log);
    const stored = this.deps.store?.read(host.definition.id, ref.sessionId);
    // the replay's tool calls show the output their terminals had, from the client's store
    if (ref.title || stored) session.thread.restore([], stored?.title || ref.title || '', [], stored?.terminals);
    // the view exists (empty) before the request: the replay streams into it
    host.attach(session);
    const recording = this.deps.add(session, { paused: true, queue: stored?.queue });
    try {
      // config options and legacy modes come with the response (null is allowed for session/load)
      session.thread.setSessionSetup(await session.replaying(() => this.deps.withAuth(host, async (h) => h.connection.request('session/load', await this.params(session, h, ref), token))) ?? {});
    } catch (error) {
      this.deps.forget(session.key);
      throw error;
    }
    log.info(`session ${ref.sessionId} loaded in ${ref.cwd} (${session.thread.entries.length} entries replayed)`);
    sayWhereItRuns(session, host);
    await recording?.compact();
    this.deps.changed();
    return session;
  }

  /**
   * The stored transcript of `ref` as an open session whose agent is not connected yet ('starting'), recorded
   * from here on; undefined when the store has none. The session manager connects it behind the chat
   * (SessionManager.open, `atOnce`): until then it sends nothing.
   */
  fromStore(ref: SessionRef, def: AgentDefinition): AgentSession | undefined {
    const stored = this.deps.store?.read(def.id, ref.sessionId);
    if (!stored) return undefined;
    // until the session is moved to the agent's host (AgentSession.rebind)
    const session = this.unstarted(ref, def, stored);
    session.thread.setStatus('starting');
    this.deps.add(session, { queue: stored.queue });
    this.deps.changed();
    return session;
  }

  /** Shows a stored transcript read-only (no agent process is started for it). */
  readOnly(ref: SessionRef, def: AgentDefinition | undefined, reason: string): AgentSession {
    const stored = this.deps.store?.read(ref.agentId, ref.sessionId);
    if (!stored) throw new Error(`Cannot open session ${ref.title || ref.sessionId}: ${reason}, and Switchboard has no transcript of it.`);
    const agent: AgentDefinition = def ?? { id: ref.agentId, name: stored.header.agentName, command: '', args: [], env: {} };
    const session = this.unstarted(ref, agent, stored);
    showReadOnly(session, reason);
    this.deps.add(session, { readOnly: true });
    this.deps.changed();
    return session;
  }

  /** A session showing its stored transcript, on a host that is never started: it cannot send anything. */
  private unstarted(ref: SessionRef, agent: AgentDefinition, stored: Transcript): AgentSession {
    const log = this.deps.logFor(agent);
    const session = this.deps.create(new AgentHost(agent, log, this.deps.clientInfo, ref.cwd), ref.sessionId, ref.cwd, log);
    showStored(session, stored, ref);
    return session;
  }

  /**
   * The params of `session/resume` or `session/load` of `ref` on `host`, with the roots as they are now. After
   * an `env_var` login restarted the agent (a new host), the session moves to it before the request is sent again.
   */
  private async params(session: AgentSession, host: AgentHost, ref: SessionRef): Promise<SessionSetup & { sessionId: string }> {
    if (session.host !== host) {
      session.host.detach(session.sessionId);
      session.rebind(host);
      host.attach(session);
    }
    const setup = await this.deps.setupFor(host, ref.cwd);
    applySetup(session, setup);
    return { sessionId: ref.sessionId, ...setup };
  }
}
