/**
 * SessionManager: the running agents (one AgentHost per agent id) and their sessions. Creating a session
 * starts its agent when needed (reusing a running one), calls `session/new` with the workspace folder as
 * cwd, and registers the session for routing. Forking is in lifecycle/sessionFork.ts; renaming, archiving and
 * deleting in history/sessionOrganizer.ts (docs/sessions.md "Organizing sessions").
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentDefinition';
import { remoteNotice } from '../agents/agentTransport';
import type { AgentHost, ClientInfo } from './agentHost';
import { clientFeatures, sessionFeatures } from './features';
import { AgentSession } from './agentSession';
import { AgentHosts } from './lifecycle/agentHosts';
import { AgentAuth, vscodeAuthPrompter, type AuthPrompter } from './auth/auth';
import { askHeaderInBox, connectionHeaders } from './auth/connectionHeaders';
import { AgentAccounts } from './auth/agentAccounts';
import type { ProviderPrompter } from './auth/modelProviders';
import { SessionSetupFields, type EditorMcp } from './lifecycle/sessionSetup';
import { AgentLogs } from './auth/agentLogs';
import { applySetup } from './lifecycle/editorTools/editorToolsPart';
import type { AgentLogDefinition, Redactor } from './auth/redactor';
import { AgentRestarter } from './lifecycle/restart';
import { AgentSecrets } from './auth/secrets';
import { listAgentSessions, listRunningAgents, mergeHistory, type HistoryItem } from './history/sessionHistory';
import { sessionKey, type SessionRef } from './sessionKey';
import { nextCreatedAt } from '../shared/sessionTitles';
import type { TranscriptStore } from './history/transcriptStore';
import type { ReopenPolicy } from './history/reopenPolicy';
import type { CheckpointService } from './files/checkpointService';
import { SessionMetaStore, type SessionMetaMemory } from './history/sessionMeta';
import { SessionOrganizer } from './history/sessionOrganizer';
import { reopenStatus } from './history/sessionStatus';
import { forkSession, whyNotForkable, type SessionForkDeps } from './lifecycle/sessionFork';
import { SessionReopener, showReadOnly, type SessionRecording } from './lifecycle/sessionReopen';
import { connectBehind, type OpenOptions } from './lifecycle/openAtOnce';
import { windowClosedNotice } from '../thread/model/stopReasons';

/** What the session manager is given: the surfaces above it, as functions (docs/architecture.md#layers). */
export interface SessionManagerDeps {
  readonly clientInfo: ClientInfo;
  readonly secretStorage?: vscode.SecretStorage;
  readonly redactor: Redactor;
  readonly store?: TranscriptStore; // the client's transcript store: every session opened is recorded in it
  /** An agent's definition as configured now, for restarts (an edited command or env takes effect). */
  readonly definitionOf: (agentId: string) => AgentDefinition | undefined;
  readonly isChatVisible: (key: string) => boolean; // whether the chat of a session (by key) is visible
  readonly reopen?: ReopenPolicy; // what agents could reopen when they last ran: a chat known to be read-only starts no agent
  readonly meta?: SessionMetaMemory; // where the user's titles and archive flags are kept (workspaceState)
  readonly providerPrompter?: ProviderPrompter; // the Set flow of model providers (a VS Code input flow)
  readonly checkpoints?: CheckpointService; // every session that talks to its agent takes them (docs/checkpoints.md)
  readonly editorTools?: EditorMcp; // the editor's MCP server, offered to every session (docs/editor-tools.md)
  readonly isolated?: (cwd: string) => boolean; // a session in a worktree of its own gets no other root (docs/worktrees.md)
}

/** Creates and tracks sessions. */
export class SessionManager implements vscode.Disposable {
  private readonly _hosts: AgentHosts;
  private readonly _sessions = new Map<string, AgentSession>();
  private readonly _recordings = new Map<string, SessionRecording>();
  private readonly _readOnly = new Set<string>();
  private _connecting: Promise<void> = Promise.resolve();
  private readonly _store: TranscriptStore | undefined;
  private _lastNew = 0; // when the last new session was created: names of new sessions differ by a second at least (sessionTitles.ts)
  private readonly clientInfo: ClientInfo;
  private readonly _onDidChangeSessions = new vscode.EventEmitter<void>();
  /** Fires when a session was added or removed, or history changed (a title, an archive flag, a deletion). */
  readonly onDidChangeSessions = this._onDidChangeSessions.event;
  /** Rename, Archive, Unarchive and Delete Session (client-side for every agent, and the agent's when it can). */
  readonly organizer: SessionOrganizer;
  private readonly _meta: SessionMetaStore;
  private readonly _fork: SessionForkDeps;
  private readonly _reopen: SessionReopener;

  /** Restarts crashed agents (within the policy) and on request. */
  readonly restarter: AgentRestarter;
  /** Runs logins when a request fails with auth_required. */
  readonly auth: AgentAuth;
  /** The agents' sign-in states and model providers (UNSTABLE capabilities, each asked only when advertised). */
  readonly accounts: AgentAccounts;
  private _authPrompter: AuthPrompter = vscodeAuthPrompter;
  private readonly _secrets: AgentSecrets | undefined;
  private readonly _setup: SessionSetupFields;
  private readonly _logs: AgentLogs;

  constructor(private readonly deps: SessionManagerDeps) {
    this.clientInfo = deps.clientInfo;
    this._store = deps.store;
    this._setup = new SessionSetupFields(deps.redactor, deps.editorTools, deps.isolated);
    this._logs = new AgentLogs(deps.redactor);
    this._secrets = deps.secretStorage && new AgentSecrets(deps.secretStorage, deps.redactor);
    this._hosts = new AgentHosts({
      clientInfo: this.clientInfo, features: clientFeatures, logFor: (def) => this.logFor(def),
      envFor: (id) => this._secrets?.envFor(id) ?? Promise.resolve({}), headersFor: (def) => connectionHeaders(def, this._secrets, (n, h) => (this._authPrompter.askHeader ?? askHeaderInBox)(n, h), (v) => deps.redactor.add(v)),
      headersRefused: (def) => this._secrets?.forgetHeaders(def.id) ?? Promise.resolve(),
      onExit: (host) => { this.restarter.onHostExit(host); this._onDidChangeSessions.fire(); },
      onReady: (def, caps) => this.deps.reopen?.remember(def, caps),
      afterInitialize: (h, t) => this.accounts.initialized(h, t),
    });
    this.restarter = new AgentRestarter({
      hostOf: (id) => this._hosts.get(id),
      startHost: (def, cwd) => this.ensureHost(def, cwd),
      sessionsOf: (id) => this.sessions.filter((s) => s.host.definition.id === id && !this.isReadOnly(s.key)),
      setupFor: (host, cwd) => this._setup.for(host, cwd),
      definitionOf: (id) => this.deps.definitionOf(id),
    });
    const secrets: Pick<AgentSecrets, 'envFor' | 'store' | 'clear'> = this._secrets ?? { envFor: () => Promise.resolve({}), store: () => Promise.reject(new Error('No secret storage.')), clear: () => Promise.resolve(false) };
    this.auth = new AgentAuth({
      secrets, prompter: { pickMethod: (n, m) => this._authPrompter.pickMethod(n, m), askValue: (n, m, v) => this._authPrompter.askValue(n, m, v) },
      restart: (host) => this.restarter.restart(host.definition, host.cwd),
      afterLogin: (host) => this.accounts.refreshAuthStatus(host),
    });
    const providerPrompter = deps.providerPrompter ?? { ask: () => Promise.resolve(undefined) };
    this.accounts = new AgentAccounts({ secrets: this._secrets, addSecret: (v) => deps.redactor.add(v), login: (h) => this.auth.login(h), providerPrompter });
    this._meta = new SessionMetaStore(deps.meta, (text) => deps.redactor.redact(text));
    const changed = () => this._onDidChangeSessions.fire();
    this.organizer = new SessionOrganizer({ meta: this._meta, store: deps.store, sessionOf: (k) => this._sessions.get(k), hostOf: (id) => this._hosts.get(id), close: (k) => this.close(k), changed });
    this._fork = {
      setupFor: (h, cwd) => this._setup.for(h, cwd), withAuth: (h, call) => this.auth.withAuth(h, call),
      create: (h, id, cwd) => this.create(h, id, cwd, this.logFor(h.definition)),
      adopt: async (session) => { await this.register(session, true); },
    };
    this._reopen = new SessionReopener({
      clientInfo: this.clientInfo, store: this._store, logFor: (def) => this.logFor(def), create: (h, id, cwd, log) => this.create(h, id, cwd, log),
      setupFor: (h, cwd) => this._setup.for(h, cwd), withAuth: (h, call) => this.auth.withAuth(h, call),
      add: (session, { paused, queue, readOnly }) => {
        this._sessions.set(session.key, session);
        if (!readOnly) return this.track(session, paused, queue);
        return void this.markReadOnly(session);
      },
      forget: (key) => this.forget(key), changed,
    });
  }

  /** Replaces the login questions (tests answer them); undefined restores the QuickPick and InputBox. */
  setAuthPrompter(prompter: AuthPrompter | undefined): void { this._authPrompter = prompter ?? vscodeAuthPrompter; }

  /** The secret environment variables of agents (SecretStorage), when the manager has a secret storage. */
  get secrets(): AgentSecrets | undefined { return this._secrets; }

  /** The running host of an agent, if any. */
  hostOf(agentId: string): AgentHost | undefined { return this._hosts.get(agentId); }

  /** Restarts the agent of a session (or an agent by id) and reopens its sessions (`ACP: Restart Agent`). */
  async restartAgent(def: AgentDefinition, cwd = this.defaultCwd()): Promise<AgentHost> {
    return this.restarter.restart(def, cwd);
  }

  /** All open sessions. */
  get sessions(): readonly AgentSession[] {
    return [...this._sessions.values()];
  }

  /**
   * A session by its key ({@link sessionKey}), or by a bare session id (the test API, commands given an id):
   * when two agents' sessions share it, the one opened last.
   */
  get(keyOrId: string): AgentSession | undefined {
    return this._sessions.get(keyOrId) ?? [...this._sessions.values()].reverse().find((x) => x.sessionId === keyOrId);
  }

  /** The log channel of an agent (created on first use, redacting; the values of `def.env` are masked from now on). */
  logFor(def: AgentLogDefinition): vscode.LogOutputChannel {
    return this._logs.for(def);
  }

  /** The working directory of new sessions: the first workspace folder, else the home folder. */
  defaultCwd(): string {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    return folder ? folder.uri.fsPath : os.homedir();
  }

  /**
   * Starts (or reuses) the agent and creates a new session in `cwd`; `mcpServers` (a preset's) names the servers
   * of `switchboard.mcpServers` it gets (absent: all).
   */
  async newSession(def: AgentDefinition, cwd = this.defaultCwd(), token?: vscode.CancellationToken, options: { readonly mcpServers?: readonly string[] } = {}): Promise<AgentSession> {
    const log = this.logFor(def);
    const only = options.mcpServers;
    const done = this._hosts.waitOn(def.id);
    // auth_required → login → the request is retried (on the restarted agent after an env_var login)
    const { host, res, setup } = await this.ensureHost(def, cwd, token).then((started) => this.auth.withAuth(started, async (h) => {
      const fields = await this._setup.for(h, cwd, only);
      return { host: h, setup: fields, res: await h.connection.request('session/new', fields, token) };
    })).finally(done);
    log.info(`session ${res.sessionId} created in ${cwd}`);
    const session = this.create(host, res.sessionId, cwd, log);
    applySetup(session, setup);
    session.thread.setSessionSetup(res); // config options and legacy modes come with the response
    if (def.transport) session.thread.addNotice('info', remoteNotice(host.displayName, def.transport, host.pathMapping?.local, host.mappingProblem));
    return this.register(session);
  }

  /**
   * Forks an open session (`session/fork`, only when its agent advertises `sessionCapabilities.fork`): a new
   * session with a copy of the transcript (lifecycle/sessionFork.ts). Rejects, saying why, when it cannot.
   */
  async forkSession(keyOrId: string, token?: vscode.CancellationToken): Promise<AgentSession> {
    const source = this.get(keyOrId);
    if (!source) throw new Error(`There is no open session '${keyOrId}' to fork.`);
    const why = whyNotForkable(source, this.isReadOnly(source.key));
    if (why) throw new Error(`Cannot fork "${source.thread.title || 'this session'}": ${why}.`);
    return forkSession(this._fork, source, token);
  }

  /** Attaches and registers a session that talks to its agent, and records it (the whole thread, `compact`). */
  private async register(session: AgentSession, compact = false): Promise<AgentSession> {
    session.host.attach(session);
    this._sessions.set(session.key, session);
    const recording = this.track(session);
    if (compact) await recording?.compact();
    this._onDidChangeSessions.fire();
    return session;
  }

  /** A session object: `auth_required` offers the login; with the user's title and level (sessionMeta.ts) and the header's Fork. */
  private create(host: AgentHost, sessionId: string, cwd: string, log: vscode.LogOutputChannel): AgentSession {
    const session = new AgentSession(host, sessionId, host.pathMapping?.local ?? cwd, log, { ...sessionFeatures, isChatVisible: this.deps.isChatVisible, login: (h) => this.auth.login(h), redact: (text) => this.deps.redactor.redact(text), ...(host.definition.transport && !host.pathMapping ? {} : { checkpoints: this.deps.checkpoints }) });
    this._meta.restore(host.definition.id, sessionId, session); // its title and approval level, kept across reloads
    // untitled, it is named by its agent (as the tab names it: agentInfo's title) and the time the store first
    // recorded it (the same after a reload)
    const stored = this._store?.info(host.definition.id, sessionId)?.createdAt;
    session.thread.titles.setOrigin(host.displayName, stored ?? (this._lastNew = nextCreatedAt(Date.now(), this._lastNew)));
    session.canFork = !whyNotForkable(session, false);
    void session.checkpoints.reopen(); // a session opened again lists its pending files (docs/checkpoints.md)
    return session;
  }

  /** True for a session shown read-only from the client's store (its agent can neither resume nor load). */
  isReadOnly(keyOrId: string): boolean {
    const s = this.get(keyOrId);
    return !!s && this._readOnly.has(s.key);
  }

  /** The running (ready) agents. */
  runningHosts(): AgentHost[] {
    return this._hosts.running();
  }

  /** Starts (or reuses) an agent and lists its sessions in `cwd` (all pages; [] without `sessionCapabilities.list`). */
  async listSessions(def: AgentDefinition, cwd = this.defaultCwd(), token?: vscode.CancellationToken) {
    const done = this._hosts.waitOn(def.id);
    try {
      const host = await this.ensureHost(def, cwd, token);
      return await listAgentSessions(host.connection, host.initializeResponse?.agentCapabilities, cwd);
    } finally {
      done();
    }
  }

  /**
   * History: open sessions, the client's stored transcripts, and what running agents that can list report
   * for `cwd` (agents are not started for this), with the user's titles; archived sessions only with
   * `archived` (the list of an agent that can archive is asked for them too). A failing list is logged and skipped.
   */
  async history(cwd = this.defaultCwd(), options: { readonly archived?: boolean } = {}): Promise<HistoryItem[]> {
    const listed = await listRunningAgents(this.runningHosts(), cwd, (h, message) => this.logFor(h.definition).warn(message), options.archived ? 'include' : 'exclude');
    const rows = mergeHistory({ open: this.sessions, store: this._store ?? emptyStore, listed, meta: (a, s) => this._meta.get(a, s) });
    return options.archived ? rows : rows.filter((r) => !r.archived);
  }

  /**
   * Opens an existing session (https://agentclientprotocol.com/protocol/session-setup, gated exactly on the capabilities): `session/resume` when the agent
   * advertises `sessionCapabilities.resume` (no replay: the transcript comes from the client's store), else
   * `session/load` when it advertises `loadSession` (the replay is rendered; updates arriving after the
   * response are applied too, as gemini-cli sends them), else read-only from the client's store
   * (lifecycle/sessionReopen.ts). `def` is undefined when the agent is not configured any more (read-only too).
   */
  async open(ref: SessionRef, def: AgentDefinition | undefined, token?: vscode.CancellationToken, options: OpenOptions = {}): Promise<AgentSession> {
    const already = this._sessions.get(sessionKey(ref.agentId, ref.sessionId));
    if (already) return already;
    const early = options.atOnce && def && this.deps.reopen?.knownToResume(def) ? this._reopen.fromStore(ref, def) : undefined;
    if (early && def) return this.connectBehind(early, ref, def);
    let failure = def ? `${def.name} can neither resume nor load sessions` : `the agent '${ref.agentName ?? ref.agentId}' is not configured`;
    if (def && !this.deps.reopen?.knownUnable(def)) {
      const done = this._hosts.waitOn(def.id);
      try {
        const host = await this._hosts.ensureToReopen(def, this.defaultCwd(), token); // the process runs in the workspace; the session's cwd is sent in the request
        const caps = host.initializeResponse?.agentCapabilities;
        const how = caps?.sessionCapabilities?.resume ? 'resume' : caps?.loadSession ? 'load' : undefined;
        // session/status first (history/sessionStatus.ts): a session the agent does not know opens read-only at once
        if (how && await reopenStatus(host, ref.sessionId, token) === 'unknown') throw new Error('it does not know this session any more');
        if (how === 'resume') return await this._reopen.resume(host, ref, token);
        if (how === 'load') return await this._reopen.load(host, ref, token);
      } catch (error) {
        failure = `${def.name} could not reopen it (${error instanceof Error ? error.message : String(error)})`;
        this.logFor(def).warn(`could not reopen session ${ref.sessionId}: ${failure}`);
      } finally {
        done();
      }
      this._hosts.stopUnused(def.id);
    }
    return this._reopen.readOnly(ref, def, failure);
  }

  /** Connects a session opened at once from the store behind its chat (lifecycle/openAtOnce.ts); {@link connecting} waits for it. */
  private connectBehind(session: AgentSession, ref: SessionRef, def: AgentDefinition): AgentSession {
    const done = this._hosts.waitOn(def.id);
    const connected = connectBehind({
      hostFor: (d) => this._hosts.ensureToReopen(d, this.defaultCwd()),
      isOpen: (s) => this._sessions.get(s.key) === s,
      reattach: (s, host) => this.auth.withAuth(host, (h) => this.restarter.reattach(s, h)),
      readOnly: (s, reason) => {
        this._recordings.get(s.key)?.dispose(); // a read-only session is not recorded
        this._recordings.delete(s.key);
        this.markReadOnly(s);
        showReadOnly(s, reason);
        this._onDidChangeSessions.fire();
      },
      logFor: (d) => this.logFor(d),
    }, session, ref, def).finally(() => { done(); this._hosts.stopUnused(def.id); });
    this._connecting = Promise.all([this._connecting, connected]).then(() => undefined);
    return session;
  }

  /** A session shown read-only from the store: it sends nothing and its composer says so. */
  private markReadOnly(session: AgentSession): void { this._readOnly.add(session.key); session.activity.setReadOnly(); }

  /** Resolves when every session opened at once from the store is connected, or read-only (the test API's `restored`). */
  get connecting(): Promise<void> { return this._connecting; }

  /** Records a session in the transcript store (`paused` until compacted, while `session/load` replays). */
  private track(session: AgentSession, paused = false, queue?: readonly unknown[]): SessionRecording | undefined {
    const recording = this._store?.recordSession(session, paused, queue);
    if (recording) this._recordings.set(session.key, recording);
    return recording;
  }

  /**
   * Leaves a session (its panel was closed): cancels a running turn, sends `session/close` when the agent
   * advertises `sessionCapabilities.close`, and forgets it. Its transcript stays in the store.
   */
  close(keyOrId: string): void {
    const s = this.get(keyOrId);
    if (!s) return;
    const { sessionId } = s;
    const readOnly = this._readOnly.has(s.key);
    this.forget(s.key);
    if (readOnly || s.host.state !== 'ready' || !s.host.initializeResponse?.agentCapabilities?.sessionCapabilities?.close) return;
    s.host.connection.request('session/close', { sessionId }).then(
      () => this.logFor(s.host.definition).info(`session ${sessionId} closed`),
      (error: unknown) => this.logFor(s.host.definition).warn(`session/close failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /**
   * Deletes a session (after the user confirmed; history/sessionOrganizer.ts) and its checkpoints; false when the
   * agent kept its copy.
   */
  async delete(agentId: string, sessionId: string): Promise<boolean> {
    const deleted = await this.organizer.delete(agentId, sessionId);
    await this.deps.checkpoints?.deleteSession(sessionKey(agentId, sessionId));
    return deleted;
  }

  /** Closes a session locally (the panel was closed). */
  forget(keyOrId: string): void {
    const s = this.get(keyOrId);
    if (!s) return;
    const key = s.key;
    s.cancel();
    s.host.detach(s.sessionId);
    this._sessions.delete(key);
    this._recordings.get(key)?.dispose();
    this._recordings.delete(key);
    this._readOnly.delete(key);
    s.dispose();
    this._onDidChangeSessions.fire();
  }

  /** The running host of an agent, started (with its secret environment) when needed. */
  ensureHost(def: AgentDefinition, cwd: string, token?: vscode.CancellationToken): Promise<AgentHost> {
    return this._hosts.ensure(def, cwd, token);
  }

  /** Stops every agent, and ends every reconnection. */
  stopAll(): Promise<void> {
    this.restarter.reconnector.cancelAll();
    return this._hosts.stopAll();
  }

  dispose(): void {
    // deactivation (a reload, the window closed): a turn it cuts off says so in the transcript and ends as a Stop would
    for (const s of this._sessions.values()) {
      const notice = this._recordings.has(s.key) ? windowClosedNotice(s.thread.status) : undefined;
      if (notice) s.thread.addNotice('warning', notice);
      if (notice) s.thread.cancelUnfinishedToolCalls('all');
    }
    for (const r of this._recordings.values()) r.dispose();
    this._recordings.clear();
    this._hosts.dispose();
    this._logs.dispose();
    this.accounts.dispose();
    this._onDidChangeSessions.dispose();
  }
}

const emptyStore: Pick<TranscriptStore, 'list'> = { list: () => [] };
