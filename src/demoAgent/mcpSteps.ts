/**
 * The `mcp` step: the agent uses an MCP server the client gave its session (session/new, load or resume), as a
 * real agent does, with the official MCP SDK's client over the server's own transport: HTTP (its URL and
 * headers) or stdio (its command is started, with its env). Without `tool` it lists the tools (text: their
 * names, joined with ", "); with `tool` it calls it with `arguments` (text: the result's text; outcome `error`
 * when the call failed or the result is an error). Clients are kept per session and server for the next step.
 * Loaded on the first `mcp` step (its own file in the packaged Demo agent: esbuild.mjs).
 */
import * as acp from '@agentclientprotocol/sdk/unstable';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { StepOf } from './scenarioSteps';
import type { StepResult } from './turnControl';

const clients = new Map<string, Promise<Client>>();
const acpCaller = new acp.McpOverAcpCaller({ clientInfo: { name: 'switchboard-scripted-agent', version: '1.0.0' } });

/** One MCP request over the ACP connection (`mcp/message`, MCP over ACP): the inner result, or the inner error thrown. */
async function overAcp(client: acp.AgentContext, serverId: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await acpCaller.request(client, serverId, method, params);
  if ('error' in outcome) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.result as Record<string, unknown>;
}

function connect(server: acp.McpServer): Promise<Client> {
  const client = new Client({ name: 'switchboard-scripted-agent', version: '1.0.0' });
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    return client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } })).then(() => client);
  }
  const stdio = server as acp.McpServerStdio;
  const env = { ...process.env as Record<string, string>, ...Object.fromEntries(stdio.env.map((e) => [e.name, e.value])) };
  return client.connect(new StdioClientTransport({ command: stdio.command, args: stdio.args, env, stderr: 'inherit' })).then(() => client);
}

/** Runs one `mcp` step against the servers of the session. */
export async function runMcpStep(step: StepOf<'mcp'>, sessionId: string, servers: readonly acp.McpServer[], client: acp.AgentContext): Promise<StepResult> {
  const name = step.server ?? 'vscode';
  const server = servers.find((s) => s.name === name);
  if (!server) return { outcome: 'error', text: `no MCP server "${name}" (got: ${servers.map((s) => s.name).join(', ') || 'none'})` };
  if ('type' in server && server.type === 'acp') return runOverAcp(step, client, server.serverId);
  const key = `${sessionId}\0${JSON.stringify(server)}`;
  try {
    let pending = clients.get(key);
    if (!pending) {
      pending = connect(server);
      clients.set(key, pending);
      pending.catch(() => clients.delete(key));
    }
    const client = await pending;
    const once = async (): Promise<StepResult> => {
      if (!step.tool) return { outcome: 'ok', text: (await client.listTools()).tools.map((t) => t.name).join(', ') };
      const result = await client.callTool({ name: step.tool, arguments: step.arguments ?? {} });
      const text = (result.content as { type: string; text?: string }[]).map((c) => (c.type === 'text' ? c.text ?? '' : `[${c.type}]`)).join('\n');
      return { outcome: result.isError ? 'error' : 'ok', text };
    };
    if (!step.repeat) return await once();
    const times: number[] = [];
    let last: StepResult = { outcome: 'error', text: '' };
    for (let i = 0; i < step.repeat; i++) {
      const t0 = performance.now();
      last = await once();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2);
    return { outcome: last.outcome, text: `${last.text.split('\n')[0]}\n[timing] median=${at(0.5)} p95=${at(0.95)} n=${times.length}` };
  } catch (error) {
    return { outcome: 'error', text: error instanceof Error ? error.message : String(error) };
  }
}

/** The `mcp` step for a server the client serves over the ACP connection (no MCP SDK transport: `mcp/message`). */
async function runOverAcp(step: StepOf<'mcp'>, client: acp.AgentContext, serverId: string): Promise<StepResult> {
  const once = async (): Promise<StepResult> => {
    if (!step.tool) {
      const listed = await overAcp(client, serverId, 'tools/list', {});
      return { outcome: 'ok', text: (listed.tools as { name: string }[]).map((t) => t.name).join(', ') };
    }
    const result = await overAcp(client, serverId, 'tools/call', { name: step.tool, arguments: step.arguments ?? {} });
    const text = (result.content as { type: string; text?: string }[]).map((c) => (c.type === 'text' ? c.text ?? '' : `[${c.type}]`)).join('\n');
    return { outcome: result.isError ? 'error' : 'ok', text };
  };
  try {
    return await once();
  } catch (error) {
    return { outcome: 'error', text: error instanceof Error ? error.message : String(error) };
  }
}
