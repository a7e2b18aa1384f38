import * as acp from '@agentclientprotocol/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { AgentExit } from '../../../src/demoAgent/agentIo';
import { parseScenarioText, type Scenario } from '../../../src/demoAgent/scenario';
import { runScriptedAgent } from '../../../src/demoAgent/scriptedAgent';

/** The repository root (tests run from out/test/unit/demoAgent). */
export const repoRoot = path.resolve(__dirname, '../../../..');
/** Folder of the scenario files. */
export const scenarioDir = path.join(repoRoot, 'test/fixtures/agents/scenarios');
/** The bundled scripted agent (built by `node esbuild.mjs --tests`). */
export const scriptedAgentJs = path.join(repoRoot, 'out/test/fixtures/agents/scriptedAgent.js');
/** The bundled Demo agent. */
export const demoAgentJs = path.join(repoRoot, 'dist/agents/demoAgent.js');

/** Reads and validates a scenario file of test/fixtures/agents/scenarios. */
export function loadScenario(name: string): Scenario {
  const file = path.join(scenarioDir, name.endsWith('.json') ? name : `${name}.json`);
  return parseScenarioText(fs.readFileSync(file, 'utf8'), file);
}

/** A message the agent wrote to stdout: parsed JSON, or `{ raw }` for a line that is not JSON. */
export type WireLine = { json: Record<string, unknown> } | { raw: string };

/** How the fake client answers permission requests. */
export type PermissionHandler = (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;

/** Options of the test client. */
export interface TestClientOptions {
  /** Client capabilities sent in `initialize`. Default: fs read + write and terminal. */
  capabilities?: acp.ClientCapabilities;
  /** Files of the fake editor (absolute path → text). */
  files?: Record<string, string>;
  /** Default: selects the first `allow_*` option. */
  permission?: PermissionHandler;
  /** How `elicitation/create` is answered. Default: `decline`. */
  elicitation?: (params: acp.CreateElicitationRequest) => Promise<acp.CreateElicitationResponse>;
  /** Fake terminals: output text, exit code, and when the command exits (ms; `null` = never). */
  terminal?: { output?: string; exitCode?: number; exitAfterMs?: number | null };
  /** Environment of the agent (in-process: `AgentIo.env`; subprocess: added to process.env). */
  env?: Record<string, string>;
  /** The SDK's incoming message cap (default: the SDK's 32 MiB). */
  maxMessageBytes?: number;
}

/** Selects the first allow option. */
export const allowFirst: PermissionHandler = async (params) => {
  const option = params.options.find((o) => o.kind.startsWith('allow')) ?? params.options[0];
  return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
};

/** Selects the option with this id. */
export function choose(optionId: string): PermissionHandler {
  return async () => ({ outcome: { outcome: 'selected', optionId } });
}

/**
 * An ACP client built on the official SDK (`acp.client()`), with a fake editor behind it (files,
 * terminals, permission answers), connected to a scripted agent in-process or as a subprocess. It
 * records every line the agent wrote (also those the SDK rejects) and every request it received.
 */
export class TestClient {
  readonly wire: WireLine[] = [];
  readonly updates: acp.SessionNotification[] = [];
  readonly requests: Array<{ method: string; params: unknown }> = [];
  readonly stderr: string[] = [];
  readonly exits: AgentExit[] = [];
  readonly files: Map<string, string>;
  readonly connection: acp.ClientConnection;
  /** Settles when the agent is gone (in-process: engine finished; subprocess: process exited). */
  agentDone: Promise<unknown> = Promise.resolve();
  child: ChildProcess | undefined;
  private terminals = new Map<string, { exited: Promise<acp.WaitForTerminalExitResponse>; kill: () => void; released: boolean }>();
  private terminalCount = 0;

  private constructor(private readonly toAgent: WritableStream<Uint8Array>, fromAgent: ReadableStream<Uint8Array>, readonly options: TestClientOptions) {
    this.files = new Map(Object.entries(options.files ?? {}));
    const decoder = new TextDecoder();
    let pending = '';
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        pending += decoder.decode(chunk, { stream: true });
        let index: number;
        while ((index = pending.indexOf('\n')) >= 0) {
          this.recordLine(pending.slice(0, index));
          pending = pending.slice(index + 1);
        }
        controller.enqueue(chunk);
      },
    });
    const stream = acp.ndJsonStream(toAgent, fromAgent.pipeThrough(tap), { maxMessageBytes: options.maxMessageBytes });
    this.connection = this.buildApp().connect(stream);
  }

  /** Runs `scenario` in this process (fast; `crash` only calls the recorded `exit`). */
  static inProcess(scenario: Scenario, options: TestClientOptions = {}): TestClient {
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const fromAgent = new TransformStream<Uint8Array, Uint8Array>();
    const client = new TestClient(toAgent.writable, fromAgent.readable, options);
    client.agentDone = runScriptedAgent(scenario, {
      input: toAgent.readable, output: fromAgent.writable,
      writeStderr: (text) => client.stderr.push(text),
      env: options.env ?? {}, cwd: '/agent/cwd', execPath: process.execPath,
      exit: (how) => client.exits.push(how),
    });
    return client;
  }

  /** Spawns `node <script> [args]` (the bundled scripted agent or the Demo agent). */
  static subprocess(script: string, args: string[], options: TestClientOptions = {}): TestClient {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env },
    });
    const client = new TestClient(
      Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>, options,
    );
    client.child = child;
    child.stderr.setEncoding('utf8').on('data', (text: string) => client.stderr.push(text));
    child.stdin.on('error', () => undefined);
    client.agentDone = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    return client;
  }

  /** The SDK context for calling the agent. */
  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  /** Sends `initialize` with the configured capabilities. */
  initialize(): Promise<acp.InitializeResponse> {
    return this.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: this.options.capabilities ?? { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: 'switchboard-test-client', version: '0.0.0' },
    });
  }

  /** `initialize` then `session/new` in `cwd` (with `mcpServers`). */
  async start(cwd = '/work/project', mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    await this.initialize();
    return this.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
  }

  /** Sends a text prompt and resolves with the stop reason. */
  async prompt(sessionId: string, text: string): Promise<acp.StopReason> {
    const response = await this.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
    return response.stopReason;
  }

  /** Sends `session/cancel`. */
  cancel(sessionId: string): Promise<void> {
    return this.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  /** The `session/update` payloads received (validated by the SDK), optionally of one kind. */
  updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(kind: K, sessionId?: string): Array<Extract<acp.SessionUpdate, { sessionUpdate: K }>> {
    return this.updates
      .filter((n) => sessionId === undefined || n.sessionId === sessionId)
      .map((n) => n.update)
      .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
  }

  /** All agent message text (or thought text) received, concatenated. */
  text(kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk' = 'agent_message_chunk', sessionId?: string): string {
    return this.updatesOf(kind, sessionId).map((u) => (u.content.type === 'text' ? u.content.text : '')).join('');
  }

  /** The requests the agent sent with this method. */
  requestsOf(method: string): unknown[] {
    return this.requests.filter((r) => r.method === method).map((r) => r.params);
  }

  /** Waits until `predicate` holds (polling), or fails after `timeoutMs`. */
  async waitFor(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const start = Date.now();
    while (!predicate()) {
      if (Date.now() - start > timeoutMs) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Closes the connection (the agent sees stdin end) and waits for the agent to finish. */
  async close(): Promise<void> {
    this.connection.close();
    if (!this.toAgent.locked) {
      await this.toAgent.close().catch(() => undefined);
    }
    await Promise.race([this.agentDone, new Promise((resolve) => setTimeout(resolve, 1000))]);
    this.child?.kill('SIGKILL');
  }

  private recordLine(line: string): void {
    try {
      const value: unknown = JSON.parse(line);
      this.wire.push(typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { json: value as Record<string, unknown> } : { raw: line });
    } catch {
      this.wire.push({ raw: line });
    }
  }

  private record<T>(method: string, params: T): T {
    this.requests.push({ method, params });
    return params;
  }

  private buildApp(): acp.ClientApp {
    const terminal = this.options.terminal ?? {};
    return acp.client({ name: 'switchboard-test-client' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.updates.push(params);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) =>
        (this.options.permission ?? allowFirst)(this.record('session/request_permission', params), signal))
      .onRequest(acp.methods.client.elicitation.create, ({ params }) =>
        (this.options.elicitation ?? (async () => ({ action: 'decline' as const })))(this.record('elicitation/create', params)))
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        this.record('fs/read_text_file', params);
        const content = this.files.get(params.path);
        if (content === undefined) {
          throw acp.RequestError.resourceNotFound(params.path);
        }
        const lines = content.split('\n');
        const start = (params.line ?? 1) - 1;
        return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join('\n') };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        this.files.set(this.record('fs/write_text_file', params).path, params.content);
        return {};
      })
      .onRequest(acp.methods.client.terminal.create, ({ params }) => {
        this.record('terminal/create', params);
        const terminalId = `term-${++this.terminalCount}`;
        let kill = (): void => undefined;
        const exited = new Promise<acp.WaitForTerminalExitResponse>((resolve) => {
          kill = () => resolve({ exitCode: null, signal: 'SIGTERM' });
          const after = terminal.exitAfterMs === undefined ? 0 : terminal.exitAfterMs;
          if (after !== null) {
            setTimeout(() => resolve({ exitCode: terminal.exitCode ?? 0, signal: null }), after);
          }
        });
        this.terminals.set(terminalId, { exited, kill: () => kill(), released: false });
        return { terminalId };
      })
      .onRequest(acp.methods.client.terminal.output, async ({ params }) => {
        const t = this.liveTerminal(this.record('terminal/output', params).terminalId);
        const status = await Promise.race([t.exited, Promise.resolve(undefined)]);
        return { output: terminal.output ?? 'hello\n', truncated: false, ...(status ? { exitStatus: status } : {}) };
      })
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params, signal }) => {
        const { exited } = this.liveTerminal(this.record('terminal/wait_for_exit', params).terminalId);
        return Promise.race([exited, new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => reject(acp.RequestError.requestCancelled()), { once: true });
        })]);
      })
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
        this.liveTerminal(this.record('terminal/kill', params).terminalId).kill();
        return {};
      })
      .onRequest(acp.methods.client.terminal.release, ({ params }) => {
        const t = this.liveTerminal(this.record('terminal/release', params).terminalId);
        t.kill();
        t.released = true;
        return {};
      });
  }

  private liveTerminal(terminalId: string): { exited: Promise<acp.WaitForTerminalExitResponse>; kill: () => void; released: boolean } {
    const t = this.terminals.get(terminalId);
    if (!t || t.released) {
      throw acp.RequestError.invalidParams({ terminalId }, 'unknown or released terminal');
    }
    return t;
  }
}

/**
 * For a `describe` block: returns `open(scenario, options)`, which starts an in-process test client for a
 * scenario, and registers an `afterEach` that closes the last client opened.
 */
export function useTestClient(): (scenario: string, options?: TestClientOptions) => TestClient {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  return (scenario, options = {}) => {
    client = TestClient.inProcess(loadScenario(scenario), options);
    return client;
  };
}
