/**
 * The agents Switchboard started: one AgentHost (process + connection) per agent id, shared by all of that
 * agent's sessions, started on first use with its secret environment and the client's features. A start that
 * fails is not reused (the next attempt spawns again); an exited host is replaced on the next use.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentCapabilities } from '../../acp/schema/types.gen';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { type PathMapping, resolveMapping } from '../../agents/pathMapping';
import type { AcpCookieStore } from '../../agents/streamChannel';
import { AgentHost, type AttachedAgent, type ClientInfo } from '../agentHost';
import { type ClientFeature, featuresFor } from '../clientFeature';
import type { Disposable } from '../sessionContext';
import { demoAgentId } from './agentRegistry';

/** What starting agents needs (docs/architecture.md#layers). */
export interface AgentHostsDeps {
  readonly clientInfo: ClientInfo;
  /** The client capabilities every agent is initialized with (src/host/features.ts). */
  readonly features: readonly ClientFeature<Disposable, AttachedAgent>[];
  readonly logFor: (def: AgentDefinition) => vscode.LogOutputChannel;
  /** The agent's secret environment (SecretStorage), read at each start. */
  readonly envFor: (agentId: string) => Promise<Readonly<Record<string, string>>>;
  /** The header values of an agent served over WebSocket or HTTP (SecretStorage, asked for when missing). */
  readonly headersFor?: (def: AgentDefinition) => Promise<Record<string, string>>;
  /** The server refused the agent's headers (HTTP 401 or 403): their saved values are forgotten, to be asked for again. */
  readonly headersRefused?: (def: AgentDefinition) => Promise<void>;
  /** The current host of an agent exited (a replaced one's exit is not reported). */
  readonly onExit: (host: AgentHost) => void;
  /** An agent is ready, with what it advertised. */
  readonly onReady: (def: AgentDefinition, caps: AgentCapabilities | undefined) => void;
  /** Runs after `initialize`, before the host is ready (the sign-in state and model providers: AgentAccounts). */
  readonly afterInitialize?: (host: AgentHost, token?: vscode.CancellationToken) => Promise<void>;
}

/**
 * Where an agent elsewhere has its files on this machine (its `transport.localFolder`, src/agents/pathMapping.ts),
 * or why that folder is not used; nothing for an agent on this machine or without one.
 */
function placementOf(def: AgentDefinition): { mapping?: PathMapping; problem?: string } {
  const t = def.transport;
  if (!t?.localFolder) return {};
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
  return resolveMapping(t.cwd, t.localFolder, folders, os.homedir());
}

/** The hosts by agent id. */
export class AgentHosts implements vscode.Disposable {
  private readonly _hosts = new Map<string, AgentHost>();
  /** Each agent's affinity cookies, kept across its hosts (reconnections: the remote transport's routing affinity). */
  private readonly _cookies = new Map<string, AcpCookieStore>();

  /** Requests in flight that need the agent (new, reopen, list), by agent id: it is not stopped under them. */
  private readonly _waiting = new Map<string, number>();
  /** Agents started by a reopen (not by New Session or a list): stopped when they end up with no session. */
  private readonly _startedToReopen = new WeakSet<AgentHost>();

  constructor(private readonly deps: AgentHostsDeps) {}

  /** The host of an agent, if it was started (it may have exited). */
  get(agentId: string): AgentHost | undefined {
    return this._hosts.get(agentId);
  }

  /** The running (ready) agents. */
  running(): AgentHost[] {
    return [...this._hosts.values()].filter((h) => h.state === 'ready');
  }

  /** Forgets `host` if it is still its agent's host (true then): the caller stops it. */
  forget(host: AgentHost): boolean {
    return this._hosts.get(host.definition.id) === host && this._hosts.delete(host.definition.id);
  }

  /**
   * Counts a request in flight that needs the agent (a new session, a reopen, a list) until the returned
   * function is called: {@link stopUnused} leaves the agent running meanwhile.
   */
  waitOn(agentId: string): () => void {
    this._waiting.set(agentId, (this._waiting.get(agentId) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this._waiting.set(agentId, (this._waiting.get(agentId) ?? 1) - 1);
    };
  }

  /** {@link ensure} to reopen a session: a host it has to start is stopped by {@link stopUnused} when no session uses it. */
  async ensureToReopen(def: AgentDefinition, cwd: string, token?: vscode.CancellationToken): Promise<AgentHost> {
    const wasRunning = this._hosts.get(def.id)?.state === 'ready';
    const host = await this.ensure(def, cwd, token);
    if (!wasRunning) this._startedToReopen.add(host);
    return host;
  }

  /**
   * Stops an agent that was started to reopen a session that then opened read-only (it could not reopen it,
   * or cannot reopen at all), unless a session uses it or a request is still waiting on it. Continue in New
   * Session starts it again.
   */
  stopUnused(agentId: string): void {
    const host = this._hosts.get(agentId);
    if (!host || !this._startedToReopen.has(host) || host.sessions.length > 0 || (this._waiting.get(agentId) ?? 0) > 0 || !this.forget(host)) return;
    host.log.info('stopping the agent: it was started to reopen a session, and no session uses it');
    void host.stop();
  }

  /** The running host of an agent, started (with its secret environment) when needed. */
  async ensure(def: AgentDefinition, cwd: string, token?: vscode.CancellationToken): Promise<AgentHost> {
    let host = this._hosts.get(def.id);
    if (host && host.state === 'exited') {
      host.dispose();
      host = undefined;
    }
    if (!host) {
      // an agent elsewhere gets this machine's files and terminals only through a valid path mapping
      const { mapping, problem } = placementOf(def);
      host = new AgentHost(def, this.deps.logFor(def), this.deps.clientInfo, cwd, def.id === demoAgentId && def.command === process.execPath,
        () => this.deps.envFor(def.id), featuresFor(this.deps.features, def.transport !== undefined, mapping !== undefined), this.deps.afterInitialize,
        { headers: (d) => this.deps.headersFor?.(d) ?? Promise.resolve({}), cookies: this._cookies, ...(mapping ? { mapping } : {}), ...(problem ? { mappingProblem: problem } : {}) });
      this._hosts.set(def.id, host);
      const created = host;
      created.onDidChangeState((state) => {
        if (state === 'exited' && this._hosts.get(def.id) === created) this.deps.onExit(created);
      });
    }
    try {
      await host.start(token);
    } catch (error) {
      // a failed start is not reused: the next attempt spawns again
      this.forget(host);
      void host.stop();
      if (def.transport && def.transport.type !== 'ssh' && def.transport.headers.length && /\bHTTP (401|403)\b/.test(String(error))) {
        await this.deps.headersRefused?.(def);
        throw new Error(`${error instanceof Error ? error.message : String(error)} (the saved ${def.transport.headers.join(', ')} ${def.transport.headers.length === 1 ? 'value is' : 'values are'} forgotten: you are asked again at the next connection)`);
      }
      throw error;
    }
    this.deps.onReady(def, host.initializeResponse?.agentCapabilities);
    return host;
  }

  /** Stops every agent. */
  async stopAll(): Promise<void> {
    await Promise.all([...this._hosts.values()].map((h) => h.stop()));
  }

  dispose(): void {
    for (const h of this._hosts.values()) h.dispose();
    this._hosts.clear();
  }
}
