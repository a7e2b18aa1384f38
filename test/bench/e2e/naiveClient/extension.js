// @ts-check
// The end-to-end bench's baseline client (a second extension the bench installs next to Switchboard): what a
// simple ACP chat does. It reads the agent's NDJSON with JSON.parse and no validation, posts every chunk to
// its webview as it comes (no batching on the host), and the webview (naiveWebview.mjs) renders with the same
// markdown-it + DOMPurify configuration as Switchboard, once per animation frame: the whole message again
// (`naiveBench.mode` "rerender"), or only the blocks completed since the last frame, appended, and the open
// last block ("incremental": the minimal incremental client the bench's targets are held to).
/* eslint-disable @typescript-eslint/no-require-imports -- VS Code loads an extension's main with require() */
const vscode = require('vscode');
const { spawn } = require('node:child_process');
const readline = require('node:readline');

/** @param {vscode.ExtensionContext} context */
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('naiveBench.open', () => {
    const panel = vscode.window.createWebviewPanel('naiveBench.chat', 'Naive chat', vscode.ViewColumn.Active, {
      enableScripts: true, localResourceRoots: [context.extensionUri],
    });
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'naive.js'));
    const nonce = Math.random().toString(36).slice(2);
    panel.webview.html = `<!DOCTYPE html><html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline';">
<style>body{font:13px sans-serif;margin:0}#transcript{position:absolute;top:0;bottom:60px;left:0;right:0;overflow:auto;padding:8px}
#composer{position:absolute;bottom:0;left:0;right:0;height:56px}textarea{width:100%;height:100%}</style></head>
<body data-mode="${vscode.workspace.getConfiguration('naiveBench').get('mode') === 'incremental' ? 'incremental' : 'rerender'}"><main id="transcript"></main><div id="composer"><textarea data-testid="composer-input"></textarea></div>
<script nonce="${nonce}" src="${script}"></script></body></html>`;
    /** @type {import('node:child_process').ChildProcess | undefined} */
    let agent;
    let nextId = 1;
    /** @type {Map<number, (result: any) => void>} */
    const pending = new Map();
    const request = (/** @type {string} */ method, /** @type {unknown} */ params) => new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      agent?.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
    const start = async () => {
      const cfg = vscode.workspace.getConfiguration('naiveBench').get('agent') ?? {};
      agent = spawn(cfg.command, cfg.args ?? [], { env: { ...process.env, ...(cfg.env ?? {}) }, stdio: ['pipe', 'pipe', 'ignore'] });
      readline.createInterface({ input: /** @type {NodeJS.ReadableStream} */ (agent.stdout) }).on('line', (line) => {
        const msg = JSON.parse(line);
        if (msg.id !== undefined && pending.has(msg.id)) {
          pending.get(msg.id)?.(msg.result);
          pending.delete(msg.id);
        } else if (msg.method === 'session/update' && msg.params.update.sessionUpdate === 'agent_message_chunk') {
          void panel.webview.postMessage({ text: msg.params.update.content.text });
        }
      });
      await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      return (await request('session/new', { cwd: process.cwd(), mcpServers: [] })).sessionId;
    };
    /** @type {Promise<string> | undefined} */
    let session;
    panel.webview.onDidReceiveMessage(async (m) => {
      if (m?.type !== 'send') return;
      session ??= start();
      const sessionId = await session;
      await request('session/prompt', { sessionId, prompt: [{ type: 'text', text: String(m.text) }] });
      void panel.webview.postMessage({ done: true });
    });
    panel.onDidDispose(() => agent?.kill());
  }));
};
exports.deactivate = () => {};
