import * as acp from '@agentclientprotocol/sdk/unstable';
import { existsSync, writeFileSync } from 'node:fs';
import type { AgentExit, AgentIo } from './agentIo';
import { AgentWire } from './agentWire';
import type { EngineContext } from './engineContext';
import { registerAccountHandlers } from './accountHandlers';
import { registerPromptHandlers } from './promptHandlers';
import { registerSteeringHandlers } from './steeringHandlers';
import type { HookMethod, Scenario } from './scenario';
import { registerSessionHandlers } from './sessionHandlers';
import { registerUnstableSessionHandlers } from './unstableSessionHandlers';
import { SessionFiles } from './sessionFiles';
import { SessionStore, type SessionState } from './sessionStore';
import { StepRunner, type RunTarget } from './stepRunner';
import { sleep, type TurnControl } from './turnControl';

/** The default `initialize` response: everything the engine supports. */
function defaultInitializeResponse(scenario: Scenario): acp.InitializeResponse {
  const agentCapabilities: acp.AgentCapabilities = {
    loadSession: true,
    promptCapabilities: { image: true, audio: false, embeddedContext: true },
    mcpCapabilities: { http: false, sse: false },
    sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
    ...(scenario.auth || scenario.authStatus ? { auth: { ...(scenario.auth ? { logout: {} } : {}), ...(scenario.authStatus ? { status: {} } : {}) } } : {}),
    ...(scenario.providers ? { providers: {} } : {}),
  };
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities,
    authMethods: scenario.auth ? [{ id: 'scripted-login', name: 'Log in (scripted)', description: 'Always succeeds.' }] : [],
    agentInfo: { name: scenario.name, title: scenario.name, version: '1.0.0' },
  };
}

/** An `auth/status` answer from a scenario's status (without its `afterLogin` / `afterLogout`). */
function statusOf(s: { state: string; accounts?: acp.AuthAccount[] }): acp.AuthStatusResponse {
  return { state: s.state, ...(s.accounts ? { accounts: structuredClone(s.accounts) } : {}) };
}

/** The marker file of a terminal login: the value of the env var `auth.loginFileEnv` names (unset: none). */
export function loginFilePath(scenario: Scenario, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const name = scenario.auth?.loginFileEnv;
  return (name && env[name]) || undefined;
}

/**
 * Login mode (the agent started with `--login` by a `terminal` auth method): no ACP; writes the marker
 * file of `auth.loginFileEnv` as JSON `{ "env": {...} }` (the values seen of the env vars that the
 * scenario's terminal methods pass) and returns the exit code: 0, or 1 when there is no file to write.
 */
export function runScriptedLogin(scenario: Scenario, env: Readonly<Record<string, string | undefined>>, write: (line: string) => void): number {
  const file = loginFilePath(scenario, env);
  if (!file) {
    write(`[${scenario.name}] --login: no marker file (auth.loginFileEnv ${scenario.auth?.loginFileEnv ?? 'not set in the scenario'}${scenario.auth?.loginFileEnv ? ' is not set' : ''})`);
    return 1;
  }
  const methods = (scenario.initialize?.response?.authMethods ?? []) as readonly { type?: unknown; env?: unknown }[];
  const names = methods.flatMap((m) => (m.type === 'terminal' && m.env && typeof m.env === 'object' ? Object.keys(m.env) : []));
  const seen = Object.fromEntries(names.map((n) => [n, env[n] ?? null]));
  try {
    writeFileSync(file, `${JSON.stringify({ env: seen })}\n`);
  } catch (error) {
    write(`[${scenario.name}] --login: cannot write ${file}: ${String(error)}`);
    return 1;
  }
  write(`[${scenario.name}] logged in (scripted); marker ${file}`);
  return 0;
}

/**
 * Serves one ACP connection over `io` with the official SDK, following `scenario`. Resolves when
 * the connection closes (stdin ended, or a `crash` step). Never throws for bad client input: the
 * SDK answers malformed messages, handlers answer with JSON-RPC errors, and every received message
 * is logged to stderr.
 */
export async function runScriptedAgent(scenario: Scenario, io: AgentIo): Promise<void> {
  await new ScriptedAgent(scenario, io).run();
}

/** The engine behind `runScriptedAgent`; handlers live in sessionHandlers.ts and promptHandlers.ts. */
export class ScriptedAgent implements EngineContext {
  readonly wire: AgentWire;
  readonly store: SessionStore;
  readonly closed: Promise<void>;
  /** The effective initialize response (defaults + scenario overrides). */
  readonly initializeResponse: acp.InitializeResponse;
  readonly delayScale: number;
  clientCapabilities: acp.ClientCapabilities | undefined;
  authenticated = false;
  /** Prompts answered since the last `authenticate` (for `auth.promptsBeforeExpiry`). */
  promptsSinceLogin = 0;
  readonly subagentTurns = new Map<string, TurnControl>();
  /** What `auth/status` answers (scenario `authStatus`, changed by login, logout and `authStatus` steps). */
  authStatus: acp.AuthStatusResponse = { state: 'unknown' };
  /** The model providers (scenario `providers.list`, changed by `providers/set|disable`). */
  providers: acp.ProviderInfo[] = [];
  private connection: acp.AgentConnection | undefined;
  private closedFlag = false;
  private markClosed: () => void = () => undefined;

  constructor(readonly scenario: Scenario, readonly io: AgentIo) {
    this.wire = new AgentWire(io, (line) => this.log(line));
    const storeDir = scenario.session?.storeDirEnv && io.env[scenario.session.storeDirEnv];
    this.store = new SessionStore(scenario, io.cwd, storeDir ? new SessionFiles(storeDir, (line) => this.log(line)) : undefined);
    this.closed = new Promise((resolve) => {
      this.markClosed = resolve;
    });
    // The scenario may hold values the SDK's types do not model (env_var auth methods,
    // non-standard capability keys); they are sent as written.
    const overrides = (scenario.initialize?.response ?? {}) as Partial<acp.InitializeResponse>;
    this.initializeResponse = { ...defaultInitializeResponse(scenario), ...overrides };
    if (scenario.authStatus) this.authStatus = statusOf(scenario.authStatus);
    this.providers = structuredClone(scenario.providers?.list ?? []);
    const scale = Number(io.env.SCRIPTED_AGENT_DELAY_SCALE ?? '1');
    this.delayScale = Number.isFinite(scale) && scale >= 0 ? scale : 1;
  }

  /** The SDK context for calling the client. */
  get client(): acp.AgentContext {
    if (!this.connection) {
      throw new Error('not connected');
    }
    return this.connection.client;
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  log(line: string): void {
    this.io.writeStderr(`[${this.scenario.name}] ${line}\n`);
  }

  /** Serves the connection until it closes. */
  async run(): Promise<void> {
    for (const line of this.scenario.stderr ?? []) {
      this.io.writeStderr(`${line}\n`);
    }
    this.log(`started (pid ${typeof process === 'undefined' ? '?' : process.pid})`);
    const app = acp.agent({ name: this.scenario.name });
    this.registerLifecycleHandlers(app);
    registerSessionHandlers(app, this);
    registerUnstableSessionHandlers(app, this);
    registerAccountHandlers(app, this);
    registerPromptHandlers(app, this);
    registerSteeringHandlers(app, this);
    this.connection = app.connect(this.wire.stream);
    await this.connection.closed;
    this.shutDown();
    await this.wire.close();
    this.log('connection closed');
  }

  async crash(how: AgentExit, stderr: readonly string[]): Promise<void> {
    await this.wire.flush();
    this.log('code' in how ? `crashing: exit code ${how.code}` : `crashing: signal ${how.signal}`);
    for (const line of stderr) {
      this.io.writeStderr(`${line}\n`);
    }
    this.io.exit(how);
    // Only reached in-process (a real process is gone by now).
    this.connection?.close(new Error('agent crashed'));
    this.shutDown();
    await this.wire.close();
  }

  /** The advertised capabilities, with the UNSTABLE ones typed. */
  get capabilities(): acp.AgentCapabilities {
    return (this.initializeResponse.agentCapabilities ?? {}) as acp.AgentCapabilities;
  }

  async setAuthStatus(status: { state: string; accounts?: acp.AuthAccount[] }, notify: boolean): Promise<void> {
    this.authStatus = statusOf(status);
    this.log(`  auth status → ${status.state}`);
    if (!notify || !this.capabilities.auth?.status || !this.connection) return;
    await this.client.notify<acp.AuthStatusUpdateNotification>('auth/status_update', structuredClone(this.authStatus));
  }

  /** Runs the `before` hook of `method`; throws its `error` step as a RequestError. Hangs with `hang`. */
  async before(method: HookMethod, target: RunTarget): Promise<void> {
    const steps = this.scenario.hooks?.[method]?.before;
    if (!steps?.length) {
      return;
    }
    const runner = new StepRunner(this, target);
    const done = runner.runSteps(steps);
    const answer = await Promise.race([runner.answer, done.then(() => undefined)]);
    if (answer?.kind === 'error') {
      throw new acp.RequestError(answer.error.code, answer.error.message, answer.error.data);
    }
    if (runner.isHalted) {
      await this.closed;
    }
  }

  /** After the response went out: runs `first`, then the `after` hook of `method`. */
  after(method: HookMethod, target: RunTarget, first?: () => Promise<void>): void {
    const steps = this.scenario.hooks?.[method]?.after ?? [];
    if (!first && steps.length === 0) {
      return;
    }
    setTimeout(() => {
      void (async () => {
        await first?.();
        await new StepRunner(this, target).runSteps(steps);
      })().catch((error: unknown) => this.log(`after ${method} failed: ${String(error)}`));
    }, 0);
  }

  /** `session/prompt`: throws -32000 when the scenario's login expired (`auth.promptsBeforeExpiry`). */
  requirePromptAuth(): void {
    const limit = this.scenario.auth?.promptsBeforeExpiry;
    if (limit === undefined) return;
    if (this.promptsSinceLogin >= limit) this.authenticated = false;
    this.requireAuth();
    this.promptsSinceLogin += 1;
  }

  /**
   * Throws -32000 unless authenticated (or the scenario needs no auth, or its env var is set, or the
   * marker file of a terminal login exists).
   */
  requireAuth(): void {
    const auth = this.scenario.auth;
    if (!auth?.required || this.authenticated || (auth.envVar && this.io.env[auth.envVar])) {
      return;
    }
    const loginFile = loginFilePath(this.scenario, this.io.env);
    if (loginFile && existsSync(loginFile)) {
      return;
    }
    this.log('  → auth_required');
    throw acp.RequestError.authRequired(undefined, 'call authenticate first');
  }

  /** Throws -32601 (and logs a violation) if the client calls a method we did not advertise. */
  requireAdvertised(advertised: unknown, method: string, capability: string): void {
    if (advertised !== undefined && advertised !== null && advertised !== false) {
      return;
    }
    this.log(`  VIOLATION: ${method} called but ${capability} was not advertised`);
    throw acp.RequestError.methodNotFound(method);
  }

  /** A request field gated by a capability the agent did not advertise: -32602, as an older agent may answer. */
  rejectUnadvertisedField(value: unknown, advertised: unknown, method: string, field: string, capability: string): void {
    if (value === undefined || (advertised !== undefined && advertised !== null && advertised !== false)) {
      return;
    }
    this.log(`  VIOLATION: ${method} sent ${field} but ${capability} was not advertised`);
    throw acp.RequestError.invalidParams(undefined, `${field} is not supported: ${capability} was not advertised`);
  }

  /** `modes` and `configOptions` of a session setup response. */
  setupState(session: SessionState): { modes?: acp.SessionModeState; configOptions?: acp.SessionConfigOption[] } {
    const booleanOk = Boolean(this.clientCapabilities?.session?.configOptions?.boolean);
    const configOptions = this.store.visibleConfigOptions(session, booleanOk);
    return { ...(session.modes ? { modes: session.modes } : {}), ...(configOptions ? { configOptions } : {}) };
  }

  /** Sends the available commands and the usage after new/load/resume. */
  async afterSetup(session: SessionState): Promise<void> {
    const runner = new StepRunner(this, { session, record: false });
    const { commands, usage } = this.scenario.session ?? {};
    if (commands) {
      await runner.sendUpdate({ sessionUpdate: 'available_commands_update', availableCommands: commands });
    }
    if (usage) {
      await runner.sendUpdate({ sessionUpdate: 'usage_update', ...usage });
    }
  }

  private shutDown(): void {
    if (this.closedFlag) {
      return;
    }
    this.closedFlag = true;
    for (const session of this.store.all()) {
      session.activeTurn?.cancel('connection closed');
    }
    this.markClosed();
  }

  private registerLifecycleHandlers(app: acp.AgentApp): void {
    app.onRequest(acp.methods.agent.initialize, async ({ params }) => {
      // what the client sent, with any keys the SDK's parse leaves out
      const raw = this.wire.rawClientCapabilities;
      this.clientCapabilities = typeof raw === 'object' && raw !== null ? { ...raw, ...params.clientCapabilities } : params.clientCapabilities;
      const info = params.clientInfo ? `${params.clientInfo.name} ${params.clientInfo.version}` : 'unnamed client';
      this.log(`  client ${info}, protocol ${params.protocolVersion}, capabilities ${JSON.stringify(params.clientCapabilities ?? {})}`);
      await sleep((this.scenario.initialize?.delayMs ?? 0) * this.delayScale);
      await this.before('initialize', {});
      this.after('initialize', {});
      return this.initializeResponse;
    });
    app.onRequest(acp.methods.agent.authenticate, async ({ params }) => {
      const known = (this.initializeResponse.authMethods ?? []).some((m) => m.id === params.methodId);
      if (!known) {
        throw acp.RequestError.invalidParams({ methodId: params.methodId }, 'unknown auth method');
      }
      await this.before('authenticate', {});
      this.authenticated = true;
      this.promptsSinceLogin = 0;
      if (this.scenario.authStatus?.afterLogin) await this.setAuthStatus(this.scenario.authStatus.afterLogin, true);
      this.after('authenticate', {});
      return {};
    });
    app.onRequest(acp.methods.agent.logout, async () => {
      this.requireAdvertised(this.initializeResponse.agentCapabilities?.auth?.logout, 'logout', 'auth.logout');
      await this.before('logout', {});
      this.authenticated = false;
      if (this.scenario.authStatus?.afterLogout) await this.setAuthStatus(this.scenario.authStatus.afterLogout, true);
      this.after('logout', {});
      return {};
    });
  }
}
