/**
 * The editor's MCP server, offered to every session (docs/editor-tools.md). One loopback HTTP listener per
 * window, on 127.0.0.1 and a free port, started with the first session that gets it; each session setup gets its
 * own random token (a grant), sent as a bearer header, and a request without a live grant is refused before any
 * MCP code runs. The MCP SDK and the tools (editorMcpServer.ts, its own bundle) load on the first request, not at
 * activation nor at session start. An agent without `mcpCapabilities.http` gets the same server over stdio,
 * through a small bundled program that forwards to the listener (src/agents/mcpBridgeMain.ts).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '../../../acp/schema/types.gen';
import type { Redactor } from '../../auth/redactor';
import type { VsCodeMcp } from '../vscodeMcp';
import { registerAcpServer, unregisterAcpServer } from './acpServers';
import type { EditorGrant, EditorToolsHandler } from './grant';

/** The agent a session setup is for: its id and the transports it takes (`acp`: with its connection). */
export interface EditorToolsAgent {
  readonly id: string;
  readonly http: boolean;
  readonly acp?: { readonly owner: unknown };
}

/** The setting that turns the editor's tools off for every agent. */
export const editorToolsSetting = 'editorTools.enabled';
/** The agents that do not get the editor's tools (ids). */
export const editorToolsOffSetting = 'editorTools.disabledFor';

/** What the coordinator needs from the extension. */
export interface EditorMcpDeps {
  /** VS Code's own MCP servers, passed on with the editor's (docs/editor-tools.md, "VS Code's MCP servers"). */
  readonly vscodeServers?: VsCodeMcp;
  readonly extensionPath: string;
  readonly logDir: string;
  readonly redactor: Pick<Redactor, 'add' | 'redact'>;
}

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The largest request body the listener reads (the SDK's adapter has the same bound by default). */
const maxBodyBytes = 4 * 1024 * 1024;
const tooLarge = Symbol('too large');

/** A request's body as text, or {@link tooLarge}. */
function readBody(req: http.IncomingMessage): Promise<string | typeof tooLarge> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBodyBytes) { req.removeAllListeners('data'); req.resume(); resolve(tooLarge); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The JSON of a body, or undefined when it is not JSON. */
function parseJson(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** Serves the editor's tools to the sessions of this window. */
export class EditorMcp implements vscode.Disposable {
  private readonly _grants = new Map<string, Grant>();
  private _server: Promise<number> | undefined;
  private _listener: http.Server | undefined;
  private _handler: Promise<EditorToolsHandler> | undefined;
  private _module: Promise<typeof import('./editorMcpServer')> | undefined;

  constructor(private readonly deps: EditorMcpDeps) {}

  /** VS Code's own MCP servers for agents. */
  get vscodeServers(): VsCodeMcp | undefined { return this.deps.vscodeServers; }

  /** True when the user has not turned the tools off, for every agent or for `agentId`. */
  enabled(agentId?: string): boolean {
    const config = vscode.workspace.getConfiguration('switchboard');
    const off = config.get<unknown>(editorToolsOffSetting);
    return config.get<boolean>(editorToolsSetting, true) !== false && !(agentId && Array.isArray(off) && off.includes(agentId));
  }

  /**
   * The MCP server entry for a new session setup, over HTTP when the agent takes it, else over stdio; with its
   * grant. `taken` are the names of the user's servers (ours steps aside from a name already used).
   */
  async serverFor(agent: EditorToolsAgent, cwd: string, roots: readonly string[], taken: readonly string[]): Promise<{ server: McpServer; grant: EditorGrant }> {
    const name = taken.includes('vscode') ? 'vscode-switchboard' : 'vscode';
    if (agent.acp) {
      // MCP over ACP (UNSTABLE): no port, no token; the server id answers on this agent's connection only
      const serverId = `vscode-${crypto.randomBytes(16).toString('hex')}`;
      const grant = new Grant(agent.id, cwd, roots, this.logPath(agent.id), this.deps.redactor, () => unregisterAcpServer(serverId));
      registerAcpServer(serverId, { grant, owner: agent.acp.owner, serve: () => this.loaded().then((m) => m.acpMessage) });
      grant.log(`offered to ${agent.id} over the ACP connection (MCP over ACP) as "${name}", cwd ${cwd}`);
      return { server: { type: 'acp', name, serverId }, grant };
    }
    const port = await this.listen();
    const token = crypto.randomBytes(32).toString('base64url');
    this.deps.redactor.add(token);
    const grant = new Grant(agent.id, cwd, roots, this.logPath(agent.id), this.deps.redactor, () => this._grants.delete(hashOf(token)));
    this._grants.set(hashOf(token), grant);
    const url = `http://127.0.0.1:${port}/mcp`;
    const server: McpServer = agent.http
      ? { type: 'http', name, url, headers: [{ name: 'Authorization', value: `Bearer ${token}` }] }
      : {
        name, command: process.execPath, args: [path.join(this.deps.extensionPath, 'dist', 'agents', 'mcpBridge.js')],
        env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }, { name: 'SWITCHBOARD_MCP_URL', value: url }, { name: 'SWITCHBOARD_MCP_TOKEN', value: token }],
      };
    grant.log(`offered to ${agent.id} over ${agent.http ? 'HTTP' : 'stdio'} as "${name}" (${url}), cwd ${cwd}`);
    return { server, grant };
  }

  /** The port of the window's listener (started on first use). */
  listen(): Promise<number> {
    this._server ??= new Promise<number>((resolve, reject) => {
      const listener = http.createServer((req, res) => { void this.serve(req, res); });
      listener.once('error', reject);
      listener.listen(0, '127.0.0.1', () => {
        const address = listener.address();
        if (typeof address === 'object' && address) resolve(address.port);
        else reject(new Error('The editor tools server has no port.'));
      });
      this._listener = listener;
    }).catch((error: unknown) => {
      this._server = undefined;
      throw error;
    });
    return this._server;
  }

  /** Checks a request (host, origin, path, token) and hands it to the MCP handler. */
  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const port = (this._listener?.address() as { port?: number } | null)?.port;
    const refuse = (status: number, why: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(why);
    };
    // DNS rebinding: only the loopback names of this port; a browser page (any Origin) never reaches the tools
    if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) return refuse(403, 'Forbidden host.');
    if (req.headers.origin !== undefined) return refuse(403, 'Browser requests are not accepted.');
    if ((req.url ?? '').split('?')[0] !== '/mcp') return refuse(404, 'Not found.');
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const grant = bearer === undefined ? undefined : this._grants.get(hashOf(bearer));
    if (!grant?.live) return refuse(401, 'A valid session token is required.', { 'WWW-Authenticate': 'Bearer' });
    try {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      if (body === tooLarge) return refuse(413, `A request body is limited to ${maxBodyBytes} bytes.`);
      const parsed = parseJson(body);
      if (body !== undefined && parsed === undefined) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } }));
        return;
      }
      const method = (parsed as { method?: unknown } | undefined)?.method;
      // tool calls are logged with their answers (editorMcpServer.ts); the rest by method: what the agent looked at
      if (typeof method === 'string' && method !== 'tools/call' && !method.startsWith('notifications/')) grant.log(`${method} (${String(req.headers['user-agent'] ?? 'no user agent')})`);
      const handler = await this.handler();
      (req as http.IncomingMessage & { auth?: unknown }).auth = { token: 'session', clientId: grant.sessionId ?? 'pending', scopes: [], extra: { grant } };
      await handler(req, res, parsed);
    } catch (error) {
      grant.log(`failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(500, 'The editor tools failed; see the session log.');
      else res.end();
    }
  }

  private handler(): Promise<EditorToolsHandler> {
    this._handler ??= this.loaded().then((m) => m.editorToolsHandler()).catch((error: unknown) => {
      this._handler = undefined;
      throw error;
    });
    return this._handler;
  }

  /** The lazily loaded server (the MCP SDK), on the first request. */
  private loaded(): Promise<typeof import('./editorMcpServer')> {
    this._module ??= import('./editorMcpServer').catch((error: unknown) => {
      this._module = undefined;
      throw error;
    });
    return this._module;
  }

  private logPath(agentId: string): string {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return path.join(this.deps.logDir, 'editor-tools', `${agentId.replace(/[^\w.-]/g, '_')}-${stamp}-${crypto.randomBytes(3).toString('hex')}.log`);
  }

  dispose(): void {
    for (const g of [...this._grants.values()]) g.revoke();
    this._listener?.close();
    this._listener?.closeAllConnections();
  }
}

/** A grant, with its log file (written in order, created on the first line). */
class Grant implements EditorGrant {
  sessionId: string | undefined;
  session: EditorGrant['session'];
  private _live = true;
  private _writes: Promise<void> = Promise.resolve();

  constructor(readonly agentId: string, readonly cwd: string, public roots: readonly string[], readonly logFile: string,
    private readonly redactor: Pick<Redactor, 'redact'>, private readonly onRevoke: () => void) {}

  get live(): boolean { return this._live; }

  log(line: string): void {
    const text = `${new Date().toISOString()} ${this.redactor.redact(line)}\n`;
    this._writes = this._writes
      .then(() => fs.promises.mkdir(path.dirname(this.logFile), { recursive: true }))
      .then(() => fs.promises.appendFile(this.logFile, text))
      .catch(() => undefined); // a log that cannot be written never fails a tool call
  }

  flushed(): Promise<void> {
    return this._writes;
  }

  revoke(): void {
    if (!this._live) return;
    this._live = false;
    this.log('session ended: the token no longer works');
    this.onRevoke();
  }
}
