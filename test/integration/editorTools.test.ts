import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, setSetting, until, useScriptedAgent, workspaceRoot } from './helpers';

/**
 * The editor's MCP server (docs/editor-tools.md), used by scripted agents through the MCP SDK's client: over
 * HTTP (the agent advertises mcpCapabilities.http) and over stdio (the bundled bridge).
 */
const lib = 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n';
const main = "import { greet } from './lib';\n\nconst text = greet('you');\nconst count: number = text.length;\nexport { count };\n";

/** The text the agent echoed for its last prompt. */
async function ask(sb: SwitchboardTestApi, id: string, prompt: string): Promise<string> {
  const before = agentText(sb, id).length;
  await sb.prompt(id, prompt);
  return agentText(sb, id).slice(before);
}

/** A raw request to the editor's listener: status code. */
function post(url: string, headers: Record<string, string>, host = '127.0.0.1'): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port: u.port, path: u.pathname, method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}

describe('Editor tools (the editor\'s MCP server)', function () {
  this.timeout(120000);
  let sb: SwitchboardTestApi;
  let dir: string;
  let mainDoc: vscode.TextDocument;
  before(async () => {
    sb = await api();
    dir = path.join(workspaceRoot(), 'editor-tools');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib.ts'), lib);
    fs.writeFileSync(path.join(dir, 'main.ts'), main);
    // an unsaved type error in the editor: the file on disk is fine
    mainDoc = await vscode.workspace.openTextDocument(path.join(dir, 'main.ts'));
    const editor = await vscode.window.showTextDocument(mainDoc);
    await editor.edit((e) => e.insert(new vscode.Position(4, 0), "const wrong: number = 'not a number';\n"));
    await until(() => vscode.languages.getDiagnostics(mainDoc.uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'the TypeScript server reports the unsaved error', 60000);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await sb.stopAll();
    await setSetting('editorTools.enabled', undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('over HTTP: lists the tools, and get_diagnostics gives the unsaved type error', async () => {
    const id = await sb.newSession(await useScriptedAgent('editorTools'));
    const servers = await ask(sb, id, 'servers');
    assert.match(servers, /http vscode http:\/\/127\.0\.0\.1:\d+\/mcp headers=Authorization/);
    const tools = await ask(sb, id, 'tools');
    for (const name of ['get_diagnostics', 'read_file', 'get_document_symbols', 'search_symbols', 'go_to_definition', 'find_references', 'get_hover', 'get_open_editors', 'search_text']) {
      assert.ok(tools.includes(name), `${name} in ${tools}`);
    }
    const diagnostics = await ask(sb, id, '/get_diagnostics editor-tools/main.ts');
    assert.match(diagnostics, /\[call\] ok: \d problems? in 1 file \(1 error/);
    assert.match(diagnostics, /unsaved changes in the editor: editor-tools\/main\.ts/);
    assert.match(diagnostics, /editor-tools\/main\.ts:5:7-5:12 error \[ts 2322\]: Type 'string' is not assignable to type 'number'\./);
  });

  it('over the ACP connection (MCP over ACP, UNSTABLE) for an agent that advertises mcpCapabilities.acp: no port, mcp/message', async () => {
    const id = await sb.newSession(await useScriptedAgent('editorToolsAcp'));
    assert.match(await ask(sb, id, 'servers'), /MCP servers: acp vscode$/m, 'the acp declaration, before HTTP');
    assert.match(await ask(sb, id, 'tools'), /\[tools\] ok: get_diagnostics, read_file/);
    const diagnostics = await ask(sb, id, '/get_diagnostics editor-tools/main.ts');
    assert.match(diagnostics, /\[call\] ok: \d problems? in 1 file \(1 error/);
    assert.match(diagnostics, /Type 'string' is not assignable to type 'number'/);
    assert.match(await ask(sb, id, `/read_file ${os.tmpdir()}/x.ts`), /\[call\] error: .*outside the session's folders/);
  });

  it('go_to_definition, find_references and search_text answer from the editor', async () => {
    const id = await sb.newSession(await useScriptedAgent('editorTools'));
    assert.match(await ask(sb, id, '/go_to_definition greet'), /1 definition\neditor-tools\/lib\.ts:1:17 {2}export function greet\(name: string\): string \{/);
    const refs = await ask(sb, id, '/find_references greet');
    assert.match(refs, /3 references/);
    assert.match(refs, /editor-tools\/main\.ts:3:14 {2}const text = greet\('you'\);/);
    const search = await ask(sb, id, '/search_text not a number');
    assert.match(search, /1 match\neditor-tools\/main\.ts:5:24 {2}const wrong: number = 'not a number';/, 'the unsaved line is found in the buffer');
  });

  it('refuses paths outside the session\'s folders, and requests without the token or from another host name', async () => {
    const id = await sb.newSession(await useScriptedAgent('editorTools'));
    const outside = await ask(sb, id, `/read_file ${os.tmpdir()}/x.ts`);
    assert.match(outside, /\[call\] error: .*x\.ts is outside the session's folders/);
    const url = /http vscode (http:\S+)/.exec(await ask(sb, id, 'servers'))?.[1] ?? '';
    assert.equal(await post(url, {}), 401, 'no token');
    assert.equal(await post(url, { Authorization: 'Bearer not-the-token' }), 401, 'a wrong token');
    assert.equal(await post(url, { Authorization: 'Bearer x', Host: `evil.example:${new URL(url).port}` }), 403, 'DNS rebinding');
    assert.equal(await post(url, { Origin: 'https://evil.example' }), 403, 'a browser page');
    const others = Object.values(os.networkInterfaces()).flat().filter((a) => a && a.family === 'IPv4' && !a.internal).map((a) => a?.address ?? '');
    for (const address of others) {
      await assert.rejects(post(url, {}, address), /ECONNREFUSED/, `nothing listens on ${address}`);
    }
  });

  it('over stdio (the bundled bridge) for an agent without mcpCapabilities.http; a closed session\'s token stops working', async () => {
    const id = await sb.newSession(await useScriptedAgent('editorToolsStdio'));
    assert.match(await ask(sb, id, 'servers'), /stdio vscode \S+ \[\S+mcpBridge\.js\] env=ELECTRON_RUN_AS_NODE,SWITCHBOARD_MCP_URL,SWITCHBOARD_MCP_TOKEN/);
    assert.match(await ask(sb, id, '/get_diagnostics editor-tools/main.ts'), /\[call\] ok: \d problems? in 1 file \(1 error/);
    const logDir = path.join(sb.logDir(), 'editor-tools');
    const logs = (skip = new Set<string>()) => fs.readdirSync(logDir).filter((f) => !skip.has(f)).map((f) => fs.readFileSync(path.join(logDir, f), 'utf8'));
    // scripted agents number their sessions: an earlier suite's session may have had the same id
    const logOf = (sessionId: string, skip?: Set<string>) => logs(skip).filter((l) => l.includes(`session ${sessionId}\n`)).join('\n');
    await until(() => /get_diagnostics \{"path":"editor-tools\/main\.ts"\} → \d+ bytes in \d+ ms/.test(logOf(id)) && /tools\/list \(/.test(logOf(id)), 'the list and the call in the session\'s log').catch((error: unknown) => {
      throw new Error(`${String(error)}; session ${id}; the logs: ${logs().join('\n---\n')}`);
    });
    assert.doesNotMatch(logs().join('\n'), /SWITCHBOARD_MCP_TOKEN=|Bearer [A-Za-z0-9_-]{20,}/, 'no token in the logs');
    const earlier = new Set(fs.readdirSync(logDir));
    const other = await sb.newSession(await useScriptedAgent('editorTools'));
    await ask(sb, other, 'tools');
    await vscode.commands.executeCommand('switchboard.closeSession', { agentId: sb.session(other)?.host.definition.id, sessionId: other });
    await until(() => logOf(other, earlier).includes('session ended: the token no longer works'), 'the closed session\'s token is revoked');
    assert.match(await ask(sb, id, 'tools'), /get_diagnostics/, 'the other session keeps its tools');
  });

  it('run_task asks first, as a command does: a card, then the exit code; a deny rule refuses it; an allow rule runs it', async () => {
    const vscodeDir = path.join(workspaceRoot(), '.vscode');
    const tasksFile = path.join(vscodeDir, 'tasks.json');
    const hadTasks = fs.existsSync(tasksFile) ? fs.readFileSync(tasksFile, 'utf8') : undefined;
    fs.mkdirSync(vscodeDir, { recursive: true });
    fs.writeFileSync(tasksFile, JSON.stringify({ version: '2.0.0', tasks: [{ label: 'say hello', type: 'shell', command: 'echo hello-from-task' }] }));
    await setSetting('permissions.uncoveredActions', 'ask'); // the product's default (the test harness allows)
    try {
      for (let i = 0; i < 50 && !(await vscode.tasks.fetchTasks()).some((t) => t.name === 'say hello'); i++) await new Promise((r) => setTimeout(r, 200));
      const id = await sb.newSession(await useScriptedAgent('editorTools'));
      assert.match(await ask(sb, id, '/list_tasks'), /say hello: echo hello-from-task/);
      const before = agentText(sb, id).length;
      const running = sb.prompt(id, '/run_task say hello');
      await until(() => sb.snapshot(id)?.entries.some((e) => e.kind === 'toolCall' && e.toolCallId.startsWith('switchboard-check-') && e.title === 'Run the task "say hello"' && !!e.permission), 'the card asks');
      assert.ok(sb.respondPermission(id, 'allow_once'), 'the card is answered');
      await running;
      assert.match(agentText(sb, id).slice(before), /\[call\] ok: The task "say hello" exited with code 0 after [\d.]+ s/);

      await setSetting('permissions.rules', [{ action: 'deny', command: 'echo *' }]);
      assert.match(await ask(sb, id, '/run_task say hello'), /\[call\] error: Not run: Access denied by the user's rule/);
      await setSetting('permissions.rules', [{ action: 'allow', command: 'echo *' }]);
      assert.match(await ask(sb, id, '/run_task say hello'), /\[call\] ok: The task "say hello" exited with code 0/, 'the allow rule answers: no card');
      assert.match(await ask(sb, id, '/run_task no such task'), /\[call\] error: There is no task "no such task"/);
    } finally {
      await setSetting('permissions.rules', undefined);
      await setSetting('permissions.uncoveredActions', 'allow');
      if (hadTasks === undefined) fs.rmSync(tasksFile, { force: true });
      else fs.writeFileSync(tasksFile, hadTasks);
    }
  });

  it('is not offered when switchboard.editorTools.enabled is false, nor to an agent of switchboard.editorTools.disabledFor', async () => {
    await setSetting('editorTools.enabled', false);
    const id = await sb.newSession(await useScriptedAgent('editorTools'));
    assert.match(await ask(sb, id, 'servers'), /MCP servers: none/);
    await setSetting('editorTools.enabled', undefined);
    const agent = await useScriptedAgent('editorTools');
    await setSetting('editorTools.disabledFor', [agent]);
    try {
      assert.match(await ask(sb, await sb.newSession(agent), 'servers'), /MCP servers: none/);
      assert.match(await ask(sb, await sb.newSession(await useScriptedAgent('editorToolsStdio')), 'servers'), /stdio vscode /, 'another agent still gets them');
    } finally {
      await setSetting('editorTools.disabledFor', undefined);
    }
  });
});
