/**
 * AgentHost: one running agent = one subprocess + one AcpConnection, shared by all of that agent's sessions
 * (one connection, many session ids: https://agentclientprotocol.com/protocol/session-setup). It starts the
 * process, wires stderr and the protocol traffic into the agent's LogOutputChannel, initializes with the
 * capabilities of its client features (src/host/clientFeature.ts), routes `session/update` and the agent's
 * requests to the owning session, keeps what the agent reports of itself (its sign-in state), and turns a
 * crash into a typed state every session can show.
 */
import * as vscode from 'vscode';
import type { AcpConnection, AcpLogger } from '../acp/connection';
import { connectionModule } from '../acp/connectionPart';
import { AcpError } from '../acp/errors';
import { traceLine } from '../acp/traceContext';
import type { V2Event } from '../acp/v2/v2Updates';
import type { AgentCapabilities, AuthStatusResponse, ClientCapabilities, InitializeResponse, SessionNotification, SessionUpdate } from '../acp/schema/types.gen';
import { agentDisplayName } from '../agents/agentDefinition';
import type { AgentDefinition } from '../agents/agentDefinition';
import { AgentProcess } from '../agents/agentProcess';
import type { AgentExit } from '../agents/agentProcess';
import { envPreamble, sshLaunch, type StreamTransport, transportLabel } from '../agents/agentTransport';
import { type PathMapping, pathTranslator } from '../agents/pathMapping';
import { runEndpointCommand } from '../agents/endpointCommand';
import type { AcpCookieStore, StreamChannel } from '../agents/streamChannel';
import { owningSession } from '../thread/model/subagents';
import type { AcpThread } from '../thread/model/thread';
import { accountsOf, authStateOf, type AccountView, type AuthStateView } from '../shared/accountModel';
import { clientCapabilitiesOf } from './clientFeature';
import type { ClientFeature } from './clientFeature';
import { cancelGraceMs } from './prompts/turnEnd';
import type { Disposable, SessionParts } from './sessionContext';
import { applyAgentWork } from './terminals/agentWork';

/**
 * Loads the connection's part a moment from now (New Session calls it while its picker is open), so that the first
 * agent's start does not wait for it. A failure shows where the start needs the part.
 */
export function preloadConnection(): void {
  setTimeout(() => { try { connectionModule(); } catch { /* the start reports it */ } }, 50);
}

/** The setting that offers agents ACP v2 in `initialize` (docs/acp-v2.md). */
const protocolV2Setting = 'experimental.protocolV2';

/** The client identity sent in `initialize` (read from package.json). */
export interface ClientInfo {
  readonly name: string;
  readonly title: string;
  readonly version: string;
}

/**
 * What a host knows of a session attached to it: enough to route the agent's messages to it. A request goes to
 * the session's part that its client feature names (`ClientFeature.part`): whatever the session's list of parts
 * has (src/host/features.ts) can serve requests, and nothing here names them.
 */
export interface AttachedSession extends SessionParts {
  readonly sessionId: string;
  readonly thread: AcpThread;
  /** An update of this session, or (`sessionId`) of a subagent announced in it. */
  handleUpdate(update: SessionUpdate, sessionId: string): void;
  onAgentExit(exit: AgentExit): void;
}

/** What a host gives its features for the agent's messages that belong to no session. */
export interface AttachedAgent {
  /** The agent's capabilities (undefined until `initialize` was answered). */
  readonly agentCapabilities: AgentCapabilities | undefined;
  /** The agent reported its sign-in state (`auth/status` answer, `auth/status_update`). */
  setAuthStatus(status: AuthStatusResponse): void;
}

/** The agent's sign-in state as it last reported it; a state this client does not know is `unknown`. */
export interface AgentAuthStatus {
  readonly state: AuthStateView;
  readonly accounts: readonly AccountView[];
}

/** What connecting to an agent served elsewhere (WebSocket, HTTP) needs besides its entry: docs/remote-agents.md. */
export interface RemoteAccess {
  /** The values of the entry's `transport.headers`, from SecretStorage (asked for when missing; rejects when refused). */
  headers(def: AgentDefinition): Promise<Record<string, string>>;
  /** Each agent's affinity cookies, kept across its reconnections. */
  readonly cookies: Map<string, AcpCookieStore>;
  /** Its folder there and the workspace folder here that holds the same files: paths are translated at the connection. */
  readonly mapping?: PathMapping;
  /** Why its `transport.localFolder` is not used, if it names one. */
  readonly mappingProblem?: string;
}

/** Lifecycle of an agent host. */
export type AgentHostState = 'starting' | 'ready' | 'exited';

/** One agent process and its connection. */
export class AgentHost implements AttachedAgent, vscode.Disposable {
  private _process: AgentProcess | StreamChannel | undefined;
  private _connection: AcpConnection | undefined;
  private _init: InitializeResponse | undefined;
  /** The capabilities sent in `initialize`. */
  private _advertised: ClientCapabilities | undefined;
  private _starting: Promise<void> | undefined;
  private _state: AgentHostState = 'starting';
  private _exit: AgentExit | undefined;
  private readonly _sessions = new Map<string, AttachedSession>();
  private readonly _onDidChangeState = new vscode.EventEmitter<AgentHostState>();
  /** Fires when the agent became ready or exited. */
  readonly onDidChangeState = this._onDidChangeState.event;
  private _authStatus: AgentAuthStatus | undefined;
  private readonly _onDidChangeAuthStatus = new vscode.EventEmitter<void>();
  /** Fires when the agent reported its sign-in state. */
  readonly onDidChangeAuthStatus = this._onDidChangeAuthStatus.event;

  constructor(
    readonly definition: AgentDefinition,
    /** The agent's log channel (redacting: see src/host/auth/redactor.ts). */
    readonly log: vscode.LogOutputChannel,
    private readonly clientInfo: ClientInfo,
    /** Where the process runs. */
    readonly cwd: string,
    /** True for the packaged Demo agent. */
    private readonly isBuiltIn = false,
    /** Extra environment, read at each start (the user's `env_var` login values from SecretStorage); never logged. */
    private readonly env: () => Promise<Readonly<Record<string, string>>> = () => Promise.resolve({}),
    /** The client capabilities: advertised in `initialize`, and their handlers registered on the connection. */
    private readonly features: readonly ClientFeature<Disposable, AttachedAgent>[] = [],
    /**
     * Runs once `initialize` was answered, before the host is ready and before any session is created on it
     * (the agent's sign-in state, its saved model providers: docs/acp-features.md#accounts-and-model-providers).
     */
    private readonly afterInitialize: (host: AgentHost, token?: vscode.CancellationToken) => Promise<void> = () => Promise.resolve(),
    /** Headers and cookies of an agent served elsewhere. */
    private readonly remoteAccess?: RemoteAccess,
  ) {}

  /** Current state. */
  get state(): AgentHostState { return this._state; }
  /**
   * What this client advertised in `initialize` (its features' capabilities; before it, what it would advertise).
   * Kept from `initialize`: every `session/update` is checked against it (a hot path: extension-host CPU, docs/performance.md).
   */
  get clientCapabilities(): ClientCapabilities { return this._advertised ?? clientCapabilitiesOf(this.features); }
  /** The agent's initialize answer, once ready. */
  get initializeResponse(): InitializeResponse | undefined { return this._init; }
  /** How a running session names its agent: the user's name for it, else its own title ({@link agentDisplayName}). */
  get displayName(): string { return agentDisplayName(this.definition, this._init?.agentInfo); }
  /** An agent elsewhere's path mapping (src/agents/pathMapping.ts), and why its `localFolder` is not used. */
  get pathMapping(): PathMapping | undefined { return this.remoteAccess?.mapping; }
  get mappingProblem(): string | undefined { return this.remoteAccess?.mappingProblem; }
  /** How the process ended, if it did. */
  get exit(): AgentExit | undefined { return this._exit; }
  /** The agent's process id while it runs (tests kill it to simulate a crash). */
  get pid(): number | undefined { return this._process?.pid; }
  /** The agent's capabilities from its initialize answer (undefined before). */
  get agentCapabilities(): AgentCapabilities | undefined { return this._init?.agentCapabilities; }
  /** The agent's sign-in state, when it advertises `auth.status` and reported it. */
  get authStatus(): AgentAuthStatus | undefined { return this._authStatus; }

  setAuthStatus(status: AuthStatusResponse): void {
    this._authStatus = { state: authStateOf(status.state), accounts: accountsOf(status.accounts) };
    this._onDidChangeAuthStatus.fire();
  }

  /** The sessions attached to this agent process. */
  get sessions(): readonly AttachedSession[] { return [...this._sessions.values()]; }

  /** The connection of a ready agent; throws when the agent is not running. */
  get connection(): AcpConnection {
    if (!this._connection || this._connection.isClosed) throw new AcpError('closed', this._exit?.error.message ?? `Agent '${this.definition.name}' is not running.`);
    return this._connection;
  }

  /** Starts the process and initializes it (once; later calls wait for the same start). */
  start(token?: vscode.CancellationToken): Promise<void> {
    this._starting ??= this.doStart(token);
    return this._starting;
  }

  /** Registers a session of this agent, so its updates and requests reach it. */
  attach(session: AttachedSession): void {
    this._sessions.set(session.sessionId, session);
  }

  /** Forgets a session. */
  detach(sessionId: string): void {
    this._sessions.delete(sessionId);
  }

  private async doStart(token?: vscode.CancellationToken): Promise<void> {
    const def = this.definition;
    const remote = def.transport;
    this.log.info(`starting ${def.name}: ${[def.command, ...def.args].join(' ')} (${remote ? `on ${transportLabel(remote)}, in ${remote.cwd}` : `cwd ${this.cwd}`})`);
    // an agent served at a URL gets no environment: nothing runs here (its endpoint command does)
    const secret = remote && remote.type !== 'ssh' && remote.url ? {} : await this.env();
    let connection: AcpConnection;
    const mapping = this.pathMapping;
    const options = { logger: this.acpLogger(), streamEndGraceMs: 500, cancelGraceMs, ...(mapping ? { translate: pathTranslator(mapping) } : {}) };
    if (mapping) this.log.info(`path mapping: ${mapping.remote} there is ${mapping.local} here`);
    else if (this.mappingProblem) this.log.warn(`"transport.localFolder" not used: ${this.mappingProblem}`);
    if (remote && remote.type !== 'ssh') {
      const channel = await this.connectStream(remote, secret);
      this._process = channel;
      this.log.info(`connected to ${channel.commandPath}`);
      connection = connectionModule().AcpConnection.overMessages(channel.readable, channel.writable, options);
    } else {
      // an agent elsewhere is started by the system ssh (docs/remote-agents.md), its environment sent down the pipe
      const launch = remote ? { ...def, ...sshLaunch(remote, def.command, def.args) } : def;
      // the built-in Demo agent runs on this Node and needs no login-shell PATH: skip that lookup (up to 5 s)
      const proc = await AgentProcess.spawn(launch, { cwd: this.cwd, env: secret, ...(this.isBuiltIn ? { baseEnv: process.env } : {}) });
      this._process = proc;
      if (remote) {
        const { text, skipped } = envPreamble({ ...secret, ...def.env });
        if (skipped.length) this.log.warn(`not sent to the agent on ${remote.host} (a name sh cannot export, or a line break in the value): ${skipped.join(', ')}`);
        proc.stdin.write(text);
      }
      this.log.info(`started ${proc.commandPath} (pid ${proc.pid})`);
      proc.onStderr((line) => this.log.info(`[stderr] ${line}`));
      connection = connectionModule().AcpConnection.overStreams(proc.stdout, proc.stdin, options);
    }
    const proc = this._process;
    this._connection = connection;
    connection.onNotification('session/update', (p) => this.routeUpdate(p));
    // agent → client requests, each feature's served by its part of the session
    for (const f of this.features) f.register?.(connection, (sessionId) => this.partOf(sessionId, f), (m) => this.log.info(m), this);
    proc.onDidExit((exit) => this.onExit(exit));
    connection.listen();
    const cancel = token ? { token } : {};
    const ct = cancel.token ? toJsonRpcToken(cancel.token) : undefined;
    this._advertised = clientCapabilitiesOf(this.features);
    // ACP v2 is offered only behind its setting (docs/acp-v2.md); the agent chooses
    const offer = vscode.workspace.getConfiguration('switchboard').get<boolean>(protocolV2Setting) === true
      ? (await import('../acp/v2/v2Dialect')).offerV2({ onEvent: (e) => this.routeV2(e), log: (m) => this.log.info(m) }) : undefined;
    this._init = await connection.initialize({ clientCapabilities: this._advertised, clientInfo: this.clientInfo }, ct, offer);
    const info = this._init.agentInfo;
    this.log.info(`initialized: protocol ${this._init.protocolVersion}${info ? `, ${info.title ?? info.name} ${info.version}` : ''}; capabilities ${JSON.stringify(this._init.agentCapabilities ?? {})}`);
    await this.afterInitialize(this, token);
    this._state = 'ready';
    this._onDidChangeState.fire('ready');
  }

  /**
   * Connects to an agent served over WebSocket or HTTP: at its `url`, or at the endpoint its `command` prints
   * (placement by an engine), with its headers from SecretStorage and the cookies of its earlier connections.
   */
  private async connectStream(t: StreamTransport, secret: Readonly<Record<string, string>>): Promise<StreamChannel> {
    const def = this.definition;
    const { StreamChannel, MemoryAcpCookieStore } = await import('../agents/streamChannel');
    const url = t.url ?? await runEndpointCommand({
      command: def.command, args: def.args, type: t.type, cwd: this.cwd, env: { ...secret, ...def.env },
      onStderr: (line) => this.log.info(`[endpoint command] ${line}`),
    });
    const headers = this.remoteAccess ? await this.remoteAccess.headers(def) : {};
    const cookieStore = this.remoteAccess?.cookies.get(def.id) ?? new MemoryAcpCookieStore();
    this.remoteAccess?.cookies.set(def.id, cookieStore);
    try {
      return await StreamChannel.open({ agentName: def.name, type: t.type, url, headers, cookieStore });
    } catch (error) {
      throw new Error(`Could not connect to agent '${def.name}': ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The session a request is for (a subagent's requests are served by the session that announced it); an unknown id is invalid params. */
  private session(sessionId: string): AttachedSession {
    const session = this.owner(sessionId);
    if (!session) throw AcpError.invalidParams(`Unknown session '${sessionId}'`);
    return session;
  }

  /** The part of the session a request is for that serves `feature`'s requests. */
  private partOf<S extends Disposable>(sessionId: string, feature: ClientFeature<S, AttachedAgent>): S {
    const session = this.session(sessionId);
    if (!feature.part) throw new Error('This client feature serves no session requests.');
    return session.part(feature.part);
  }

  /** The attached session with this id, or the one in which a subagent with this id was announced (src/thread/model/subagents.ts). */
  private owner(sessionId: string): AttachedSession | undefined {
    return this._sessions.get(sessionId) ?? owningSession(this._sessions.values(), sessionId);
  }

  private routeUpdate(p: SessionNotification): void {
    const session = this.owner(p.sessionId);
    if (session) session.handleUpdate(p.update, p.sessionId);
    else this.log.warn(`session/update for unknown session '${p.sessionId}' ignored`);
  }

  /** What an ACP v2 agent reports beyond v1's updates (src/acp/v2/v2Updates.ts), to the thread of its session. */
  private routeV2(e: V2Event): void {
    const session = e.type === 'log' ? undefined : this.owner(e.sessionId);
    if (session) applyAgentWork(session.thread, e);
  }

  private onExit(exit: AgentExit): void {
    this._exit = exit;
    this._state = 'exited';
    if (exit.requested) this.log.info(`${this.definition.name} stopped`);
    else this.log.error(exit.error.message);
    // handle what the agent wrote before dying, then fail every pending request with the exit error
    this._connection?.closeWhenDrained(exit.error);
    for (const s of this._sessions.values()) s.onAgentExit(exit);
    this._onDidChangeState.fire('exited');
  }

  private acpLogger(): AcpLogger {
    const log = this.log;
    return {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
      // the protocol traffic, visible with the log level set to Trace; stringified only then. At Trace level the
      // client's requests also carry W3C trace ids, named in front of each request (docs/errors-and-cancellation.md "Trace ids")
      trace: (direction, message) => {
        if (log.logLevel === vscode.LogLevel.Trace) log.trace(traceLine(direction, message));
      },
      traceEnabled: () => log.logLevel === vscode.LogLevel.Trace,
    };
  }

  /** Stops the agent: closes stdin, then SIGTERM, then SIGKILL of the process tree. */
  async stop(): Promise<void> {
    this._connection?.close(new AcpError('closed', `Agent '${this.definition.name}' was stopped.`));
    await this._process?.stop();
  }

  dispose(): void {
    void this.stop();
    this._onDidChangeState.dispose();
    this._onDidChangeAuthStatus.dispose();
  }
}

/** vscode.CancellationToken → vscode-jsonrpc token (same shape). */
function toJsonRpcToken(token: vscode.CancellationToken) {
  return { get isCancellationRequested() { return token.isCancellationRequested; }, onCancellationRequested: token.onCancellationRequested };
}
