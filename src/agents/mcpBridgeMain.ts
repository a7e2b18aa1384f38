/**
 * The stdio face of the editor's MCP server (bundled as dist/agents/mcpBridge.js; docs/editor-tools.md): an agent
 * that takes MCP servers only over stdio starts this program, which serves MCP on its stdin and stdout with the
 * official MCP SDK and forwards each tool request to the extension host's loopback listener
 * (`SWITCHBOARD_MCP_URL`, bearer `SWITCHBOARD_MCP_TOKEN`), an MCP client of the same SDK. It holds no tools of its
 * own and no state; when the session ends, the token stops working and every call answers so.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const url = process.env.SWITCHBOARD_MCP_URL;
const token = process.env.SWITCHBOARD_MCP_TOKEN;
if (!url || !token) {
  process.stderr.write('mcpBridge.js is started by Switchboard for an agent: SWITCHBOARD_MCP_URL and SWITCHBOARD_MCP_TOKEN are required\n');
  process.exit(2);
}

let connected: Promise<Client> | undefined;
/** The client of the editor's listener, connected on the first request (again after a failure). */
function editor(): Promise<Client> {
  connected ??= (async () => {
    const client = new Client({ name: 'switchboard-mcp-bridge', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url as string), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  })().catch((error: unknown) => {
    connected = undefined;
    throw new Error(`Switchboard's editor tools are not reachable (${error instanceof Error ? error.message : String(error)}); the session may have ended.`);
  });
  return connected;
}

serveStdio(() => {
  const server = new Server({ name: 'vscode', title: 'VS Code (Switchboard)', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async (request) => (await editor()).listTools(request.params));
  server.setRequestHandler('tools/call', async (request, ctx) => (await editor()).callTool(request.params, { signal: ctx.mcpReq.signal }));
  return server;
}, { onerror: (error) => process.stderr.write(`mcpBridge: ${error.message}\n`) });
