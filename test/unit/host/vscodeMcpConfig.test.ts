import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { chosenFor, vscodeMcpServers, type McpConfigSource, type McpInput } from '../../../src/host/lifecycle/vscodeMcpConfig';

// VS Code's MCP configuration as ACP mcpServers (docs/editor-tools.md, "VS Code's MCP servers").

describe('VS Code MCP servers', () => {
  const asked: string[] = [];
  const vars = {
    input: async (i: McpInput, _s: McpConfigSource, server: string) => { asked.push(`${server}:${i.id}:${i.password}`); return i.id === 'refused' ? undefined : `value-of-${i.id}`; },
    env: { HOME: '/home/me', TOKEN: 'env-token' }, home: '/home/me',
  };
  beforeEach(() => { asked.length = 0; });

  it('converts stdio and http servers, resolves inputs, env, workspaceFolder and userHome, and masks what they carry', async () => {
    const source: McpConfigSource = {
      scope: 'workspace', label: '/w/.vscode/mcp.json', folder: '/w',
      value: {
        inputs: [{ type: 'promptString', id: 'gh', description: 'GitHub token', password: true }],
        servers: {
          files: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/srv.js', '${userHome}${/}x'], env: { TOKEN: '${env:TOKEN}' } },
          github: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${input:gh}' } },
          bare: { command: 'mcp-bare' },
        },
      },
    };
    const r = await vscodeMcpServers([source], vars);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.servers.map(({ scope: _s, ...s }) => s), [
      { name: 'files', command: 'node', args: ['/w/srv.js', `/home/me${path.sep}x`], env: [{ name: 'TOKEN', value: 'env-token' }] },
      { type: 'http', name: 'github', url: 'https://api.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer value-of-gh' }] },
      { name: 'bare', command: 'mcp-bare', args: [], env: [] },
    ]);
    assert.deepEqual(asked, ['github:gh:true']);
    assert.ok(Object.values(r.secrets).includes('value-of-gh') && Object.values(r.secrets).includes('Bearer value-of-gh'), 'the input and the header are masked');
  });

  it('leaves out, and reports, a server with an unknown variable, an undeclared or refused input, or a bad shape; the first of a name wins', async () => {
    const r = await vscodeMcpServers([
      { scope: 'user', label: 'user mcp.json', value: { servers: { a: { command: 'a' }, dup: { command: 'first' } } } },
      {
        scope: 'workspace', label: 'ws', value: {
          inputs: [{ id: 'refused', description: 'x' }],
          servers: {
            dup: { command: 'second' }, v: { command: '${config:editor.fontSize}' }, u: { command: 'x', args: ['${input:nope}'] },
            r: { command: 'x', env: { K: '${input:refused}' } }, s: { type: 'sse', url: 'ftp://x' }, n: 3,
          },
        },
      },
      { scope: 'user', label: 'bad', value: { servers: [] } },
    ], vars);
    assert.deepEqual(r.servers.map((s) => `${s.name}:${'command' in s ? s.command : ''}`), ['a:a', 'dup:first']);
    assert.deepEqual(r.errors.map((e) => e.replace(' left out:', ':')), [
      'ws: MCP server "v": the variable ${config:editor.fontSize} is not supported here',
      'ws: MCP server "u": ${input:nope} has no entry in "inputs"',
      'ws: MCP server "r": no value was given for "x"',
      'ws: MCP server "s": url: "url" must be an http:// or https:// URL',
      'ws: MCP server "n": must be an object',
      'bad: "servers" must be an object of MCP servers by name',
    ]);
  });

  it('chooses per agent: all by default, none, a list, "*" for the others', () => {
    const names = ['github', 'files'];
    assert.deepEqual(chosenFor(undefined, 'claude', names), names);
    assert.deepEqual(chosenFor('none', 'claude', names), []);
    assert.deepEqual(chosenFor({ claude: ['files', 'other'], '*': 'none' }, 'claude', names), ['files']);
    assert.deepEqual(chosenFor({ claude: ['files'], '*': 'none' }, 'codex', names), []);
    assert.deepEqual(chosenFor({ codex: 'none' }, 'claude', names), names);
  });
});
