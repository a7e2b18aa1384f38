/**
 * MCP over ACP for the editor's tools (docs/editor-tools.md, "How it is served"): an agent that advertises
 * `mcpCapabilities.acp` (UNSTABLE) gets the editor's server as `{ "type": "acp", "name", "serverId" }` and sends its MCP
 * requests back on the ACP connection as `mcp/message`; no port, no process. A server id is random per session
 * setup and answers only on the connection of the agent it was given to.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError } from '../../../acp/errors';
import type { AcpConnection } from '../../../acp/connection';
import type { MessageMcpRequest, MessageMcpResponse } from '../../../acp/schema/types.gen';
import type { ClientFeature } from '../../clientFeature';
import type { EditorGrant } from './grant';

/** Serves one `mcp/message` for a grant (the lazily loaded server: editorMcpServer.ts). */
export type AcpMessageServer = (grant: EditorGrant, params: MessageMcpRequest, signal: AbortSignal) => Promise<MessageMcpResponse>;

interface AcpEntry { readonly grant: EditorGrant; readonly owner: unknown; readonly serve: () => Promise<AcpMessageServer> }

/** The server ids given out in this window, by id. */
const servers = new Map<string, AcpEntry>();

/** Gives `grant` a server id on `owner` (the agent's connection); forgotten when the grant is revoked. */
export function registerAcpServer(serverId: string, entry: AcpEntry): void {
  servers.set(serverId, entry);
}

/** Forgets a server id. */
export function unregisterAcpServer(serverId: string): void {
  servers.delete(serverId);
}

/** Answers an agent's `mcp/message` request: the server must be one given to this connection, and live. */
export async function answerMcpMessage(connection: AcpConnection, params: MessageMcpRequest, token: CancellationToken): Promise<MessageMcpResponse> {
  const entry = servers.get(params.serverId);
  if (!entry || entry.owner !== connection || !entry.grant.live) {
    // -33001: the binding's "server unavailable" (https://agentclientprotocol.com, MCP over ACP)
    throw new AcpError('remote', `No MCP server "${params.serverId}" on this connection (unknown, another agent's, or its session ended).`, -33001);
  }
  const abort = new AbortController();
  token.onCancellationRequested(() => abort.abort());
  return (await entry.serve())(entry.grant, params, abort.signal);
}

/** The client side of MCP over ACP: `mcp/message` requests (no client capability: the agent advertises it). */
export const mcpOverAcpFeature: ClientFeature = {
  fillClientCapabilities: () => undefined,
  register: (connection) => {
    connection.onRequest('mcp/message', (p, ct) => answerMcpMessage(connection, p, ct));
  },
};
