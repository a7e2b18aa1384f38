import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { demoScenario } from '../../../src/demoAgent/demoScenario';
import { TestClient, repoRoot, useTestClient } from './acpTestClient';

// The `mcp` step (src/demoAgent/mcpSteps.ts): a scripted agent uses an MCP server of its session with the MCP
// SDK's client, over HTTP and over stdio (the editor tools' bridge, dist/agents/mcpBridge.js).

describe('demoAgent / mcp step', function () {
  this.timeout(20000);
  const open = useTestClient();
  let server: http.Server;
  let url: string;
  before(async () => {
    const handler = toNodeHandler(createMcpHandler(() => {
      const s = new McpServer({ name: 'vscode', version: '1.0.0' });
      s.registerTool('get_diagnostics', { inputSchema: z.object({ path: z.string() }) }, async ({ path: p }) => ({ content: [{ type: 'text' as const, text: `problems of ${p}` }] }));
      s.registerTool('fails', { inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text' as const, text: 'no such file' }], isError: true }));
      return s;
    }));
    server = http.createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer t0ken') return void res.writeHead(401).end();
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => { server.closeAllConnections(); server.close(); });

  const httpServer = () => ({ type: 'http' as const, name: 'vscode', url, headers: [{ name: 'Authorization', value: 'Bearer t0ken' }] });

  it('lists the tools and calls one over HTTP; a tool error and a missing server are outcome "error"', async () => {
    const c = open('editorTools');
    const { sessionId } = await c.start('/work/project', [httpServer()]);
    await c.prompt(sessionId, 'tools');
    assert.match(c.text(), /\[tools\] ok: get_diagnostics, fails/);
    await c.prompt(sessionId, '/get_diagnostics src/a.ts');
    assert.match(c.text(), /\[call\] ok: problems of src\/a\.ts/);
  });

  it('starts a stdio server with its env: the bridge forwards to the HTTP endpoint', async () => {
    const c = open('editorToolsStdio');
    const bridge = { name: 'vscode', command: process.execPath, args: [path.join(repoRoot, 'dist/agents/mcpBridge.js')], env: [{ name: 'SWITCHBOARD_MCP_URL', value: url }, { name: 'SWITCHBOARD_MCP_TOKEN', value: 't0ken' }] };
    const { sessionId } = await c.start('/work/project', [bridge]);
    await c.prompt(sessionId, '/get_diagnostics b.ts');
    assert.match(c.text(), /\[call\] ok: problems of b\.ts/);
  });

  it('reports a server the session did not get, and a refused token', async () => {
    const c = open('editorTools');
    const { sessionId } = await c.start('/work/project', [{ ...httpServer(), headers: [{ name: 'Authorization', value: 'Bearer wrong' }] }]);
    await c.prompt(sessionId, 'tools');
    assert.match(c.text(), /\[tools\] error: Error POSTing to endpoint/, 'the server answered 401');
    const d = open('editorTools');
    const s2 = await d.start('/work/project', []);
    await d.prompt(s2.sessionId, 'tools');
    assert.match(d.text(), /\[tools\] error: no MCP server "vscode" \(got: none\)/);
  });

  it('the Demo agent\'s /tools lists the editor\'s tools and calls two, each in a tool call card; without the server it says so', async () => {
    const c = TestClient.inProcess(demoScenario);
    try {
      const { sessionId } = await c.start('/work/project', [{ ...httpServer() }]);
      await c.prompt(sessionId, '/tools src/a.ts');
      const done = c.updatesOf('tool_call_update').filter((u) => u.status === 'completed' || u.status === 'failed');
      const texts = done.map((u) => `${u.status}: ${JSON.stringify(u.content)}`);
      assert.equal(done.length, 3, texts.join('\n'));
      assert.match(texts[0], /completed: .*get_diagnostics, fails/);
      assert.match(texts[1], /completed: .*problems of src\/a\.ts/);
      assert.match(texts[2], /failed: .*get_open_editors/, 'a tool the server does not have fails its card');
      assert.match(c.text(), /A real agent uses them the same way/);
      const bare = await c.agent.request('session/new', { cwd: '/work/project', mcpServers: [] });
      await c.prompt(bare.sessionId, '/tools');
      assert.match(c.text(), /did not get the editor's tools .*no MCP server "vscode"/);
    } finally {
      await c.close();
    }
  });
});
