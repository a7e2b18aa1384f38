import * as assert from 'node:assert/strict';
import type { SwitchboardTestApi } from '../../src/api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentText, api, setSetting, useScriptedAgent, workspaceRoot } from './helpers';

/** `switchboard.mcpServers` in the user settings: a stdio, an http and an sse server. */
const servers = [
  { name: 'files', command: 'node', args: ['mcp-files.js', '--root', '.'], env: { MCP_FILES_TOKEN: 'stdio-secret-1' } },
  { type: 'http', name: 'docs', url: 'https://mcp.example.com/docs', headers: { Authorization: 'Bearer http-secret-2' } },
  { type: 'sse', name: 'events', url: 'https://mcp.example.com/sse' },
];
const stdio = 'stdio files node [mcp-files.js --root .] env=MCP_FILES_TOKEN';
const http = 'http docs https://mcp.example.com/docs headers=Authorization';
/** The editor's own server comes last (docs/editor-tools.md): over stdio, or HTTP for an agent that takes it. */
const editorStdio = / stdio vscode \S+ \[\S+mcpBridge\.js\] env=ELECTRON_RUN_AS_NODE,SWITCHBOARD_MCP_URL,SWITCHBOARD_MCP_TOKEN$/;
const editorHttp = / http vscode http:\/\/127\.0\.0\.1:\d+\/mcp headers=Authorization$/;

describe('MCP servers (switchboard.mcpServers)', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => {
    sb = await api();
    await setSetting('mcpServers', servers);
  });
  after(async () => {
    await sb.stopAll();
    await setSetting('mcpServers', undefined);
  });

  it('passes stdio servers on session/new and drops http and sse for an agent without mcpCapabilities', async () => {
    const id = await sb.newSession(await useScriptedAgent('mcpEcho'));
    await sb.prompt(id, 'which MCP servers?');
    const text = agentText(sb, id).trim();
    assert.ok(text.startsWith(`MCP servers: ${stdio};`), text);
    assert.match(text, editorStdio);
  });

  it('keeps http for an agent with mcpCapabilities.http (still no sse), and passes them again on resume after a restart', async () => {
    const id = await sb.newSession(await useScriptedAgent('mcpEchoHttp'));
    await sb.prompt(id, 'which MCP servers?');
    const first = agentText(sb, id).trim();
    assert.ok(first.startsWith(`MCP servers: ${stdio}; ${http};`), first);
    assert.match(first, editorHttp);
    const pid = sb.session(id)?.host.pid;
    await sb.restartAgent(id);
    assert.notEqual(sb.session(id)?.host.pid, pid, 'a new agent process');
    await sb.prompt(id, 'and now?');
    const text = agentText(sb, id).trimEnd();
    assert.ok(text.slice(text.lastIndexOf('MCP servers:')).startsWith(`MCP servers: ${stdio}; ${http};`), `the answer after the restart: ${text}`);
    assert.match(text, editorHttp);
  });

  it('passes VS Code\'s own MCP servers (a trusted workspace\'s .vscode/mcp.json) after the user\'s, as switchboard.mcp.vscodeServers chooses', async () => {
    const dir = path.join(workspaceRoot(), '.vscode');
    const file = path.join(dir, 'mcp.json');
    const had = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, '// VS Code\'s own MCP configuration\n' + JSON.stringify({
      servers: {
        'ws-tools': { type: 'stdio', command: 'node', args: ['${workspaceFolder}/tools.js'], env: { WS_TOKEN: 'ws-secret-3' } },
        docs: { type: 'http', url: 'https://other.example.com/docs' }, // the user's "docs" wins
      },
    }));
    try {
      const id = await sb.newSession(await useScriptedAgent('mcpEchoHttp'));
      await sb.prompt(id, 'which MCP servers?');
      const text = agentText(sb, id).trim();
      assert.ok(text.startsWith(`MCP servers: ${stdio}; ${http}; stdio ws-tools node [${workspaceRoot()}/tools.js] env=WS_TOKEN;`), text);
      assert.doesNotMatch(text, /other\.example\.com/, 'a name the user already gave keeps the user\'s server');
      await setSetting('mcp.vscodeServers', { '*': 'none' });
      const id2 = await sb.newSession(await useScriptedAgent('mcpEchoHttp'));
      await sb.prompt(id2, 'which MCP servers?');
      assert.doesNotMatch(agentText(sb, id2), /ws-tools/, 'switchboard.mcp.vscodeServers: none');
    } finally {
      await setSetting('mcp.vscodeServers', undefined);
      if (had === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, had);
    }
  });
});
