/**
 * SessionManager: the running agents (one AgentHost per agent id) and their sessions. Creating a session
 * starts its agent when needed (reusing a running one), calls `session/new` with the workspace folder as
 * cwd, and registers the session for routing.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import { AgentHost } from './agentHost';
import type { ClientInfo } from './agentHost';
import { AgentSession } from './agentSession';
import { demoAgentId } from './agentRegistry';

/** Creates and tracks sessions. */
export class SessionManager implements vscode.Disposable {
  private readonly _hosts = new Map<string, AgentHost>();
  private readonly _sessions = new Map<string, AgentSession>();
  private readonly _logs = new Map<string, vscode.LogOutputChannel>();
  private readonly _onDidChangeSessions = new vscode.EventEmitter<void>();
  /** Fires when a session was added or removed. */
  readonly onDidChangeSessions = this._onDidChangeSessions.event;

  constructor(private readonly clientInfo: ClientInfo) {}

  /** All open sessions. */
  get sessions(): readonly AgentSession[] {
    return [...this._sessions.values()];
  }

  /** A session by id. */
  get(sessionId: string): AgentSession | undefined {
    return this._sessions.get(sessionId);
  }

  /** The log channel of an agent (created on first use). */
  logFor(def: Pick<AgentDefinition, 'id' | 'name'>): vscode.LogOutputChannel {
    let log = this._logs.get(def.id);
    if (!log) {
      log = vscode.window.createOutputChannel(`Switchboard: ${def.name}`, { log: true });
      this._logs.set(def.id, log);
    }
    return log;
  }

  /** The working directory of new sessions: the first workspace folder, else the home folder. */
  defaultCwd(): string {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    return folder ? folder.uri.fsPath : os.homedir();
  }

  /** Starts (or reuses) the agent and creates a new session in `cwd`. */
  async newSession(def: AgentDefinition, cwd = this.defaultCwd(), token?: vscode.CancellationToken): Promise<AgentSession> {
    const host = await this.ensureHost(def, cwd, token);
    const log = this.logFor(def);
    const res = await host.connection.request('session/new', { cwd, mcpServers: [] });
    log.info(`session ${res.sessionId} created in ${cwd}`);
    const session = new AgentSession(host, res.sessionId, cwd, log);
    session.thread.setSessionSetup(res); // config options and legacy modes (acp-client-spec §3.1)
    host.attach(session);
    this._sessions.set(session.sessionId, session);
    this._onDidChangeSessions.fire();
    return session;
  }

  /** Closes a session locally (the panel was closed). */
  forget(sessionId: string): void {
    const s = this._sessions.get(sessionId);
    if (!s) return;
    s.cancel();
    s.host.detach(sessionId);
    this._sessions.delete(sessionId);
    s.dispose();
    this._onDidChangeSessions.fire();
  }

  private async ensureHost(def: AgentDefinition, cwd: string, token?: vscode.CancellationToken): Promise<AgentHost> {
    let host = this._hosts.get(def.id);
    if (host && host.state === 'exited') {
      host.dispose();
      host = undefined;
    }
    if (!host) {
      host = new AgentHost(def, this.logFor(def), this.clientInfo, cwd, def.id === demoAgentId && def.command === process.execPath);
      this._hosts.set(def.id, host);
      const created = host;
      created.onDidChangeState((state) => {
        if (state === 'exited' && this._hosts.get(def.id) === created) this._onDidChangeSessions.fire();
      });
    }
    try {
      await host.start(token);
    } catch (error) {
      // a failed start is not reused: the next attempt spawns again
      if (this._hosts.get(def.id) === host) this._hosts.delete(def.id);
      void host.stop();
      throw error;
    }
    return host;
  }

  /** Stops every agent. */
  async stopAll(): Promise<void> {
    await Promise.all([...this._hosts.values()].map((h) => h.stop()));
  }

  dispose(): void {
    for (const h of this._hosts.values()) h.dispose();
    this._hosts.clear();
    for (const l of this._logs.values()) l.dispose();
    this._onDidChangeSessions.dispose();
  }
}
