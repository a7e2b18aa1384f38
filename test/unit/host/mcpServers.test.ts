import * as assert from 'node:assert/strict';
import { filterMcpServers, parseMcpServers } from '../../../src/host/lifecycle/mcpServers';

describe('switchboard.mcpServers', () => {
  it('converts stdio env objects and remote headers to name/value lists', () => {
    const { servers, errors, secrets } = parseMcpServers([
      { name: 'fs', command: '/usr/bin/mcp-fs', args: ['--stdio'], env: { ROOT: '/tmp' } },
      { name: 'plain', command: 'mcp' },
      { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer tok-123' } },
      { type: 'sse', name: 'events', url: 'http://localhost:9000/sse', headers: [{ name: 'X-Key', value: 'k' }] },
    ]);
    assert.deepEqual(errors, []);
    assert.deepEqual(servers, [
      { name: 'fs', command: '/usr/bin/mcp-fs', args: ['--stdio'], env: [{ name: 'ROOT', value: '/tmp' }] },
      { name: 'plain', command: 'mcp', args: [], env: [] },
      { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer tok-123' }] },
      { type: 'sse', name: 'events', url: 'http://localhost:9000/sse', headers: [{ name: 'X-Key', value: 'k' }] },
    ]);
    assert.deepEqual(secrets, {
      'MCP server "fs" env ROOT': '/tmp', 'MCP server "web" header Authorization': 'Bearer tok-123', 'MCP server "events" header X-Key': 'k',
    });
  });

  it('reports bad entries clearly and keeps the good ones', () => {
    const { servers, errors } = parseMcpServers([
      { name: 'ok', command: 'mcp' },
      { command: 'mcp' },
      { type: 'http', name: 'web', url: 'ftp://x' },
      { type: 'ws', name: 'w', url: 'https://x' },
      { name: 'ok', command: 'again' },
      'nope',
      { name: 'e', command: 'c', env: { A: 1 } },
    ]);
    assert.equal(servers.length, 1);
    assert.equal(errors.length, 6, errors.join('\n'));
    assert.match(errors[0] ?? '', /^switchboard\.mcpServers\[1\]: name: "name" is required/);
    assert.match(errors[1] ?? '', /\[2\]: url: "url" must be an http/);
    assert.match(errors[2] ?? '', /\[3\]: type: "type" must be "http" or "sse"/);
    assert.match(errors[3] ?? '', /\[4\]: the name "ok" is already used/);
    assert.match(errors[4] ?? '', /\[5\]: must be an object/);
    assert.match(errors[5] ?? '', /\[6\]: env/);
    assert.deepEqual(parseMcpServers({}).errors, ['switchboard.mcpServers: must be an array of MCP server objects']);
    assert.deepEqual(parseMcpServers(undefined), { servers: [], errors: [], secrets: {} });
  });

  it('drops http and sse servers the agent does not support, with a reason', () => {
    const { servers } = parseMcpServers([
      { name: 'fs', command: 'mcp' },
      { type: 'http', name: 'web', url: 'https://a' },
      { type: 'sse', name: 'ev', url: 'https://b' },
    ]);
    const none = filterMcpServers(servers, undefined);
    assert.deepEqual(none.servers.map((s) => s.name), ['fs']);
    assert.equal(none.dropped.length, 2);
    assert.match(none.dropped[0] ?? '', /"web" \(http\) not passed: the agent does not advertise mcpCapabilities\.http/);
    assert.deepEqual(filterMcpServers(servers, { http: true }).servers.map((s) => s.name), ['fs', 'web']);
    assert.deepEqual(filterMcpServers(servers, { http: true, sse: true }).dropped, []);
  });
});
