// @ts-check
// Workspace trust: in an untrusted workspace (Restricted Mode) an agent command defined in
// the workspace's .vscode/settings.json must not be offered (it would run a program the workspace chose),
// while the user's own agents and the Demo agent still are; a notice says why. The MCP servers of the workspace
// (its switchboard.mcpServers and its .vscode/mcp.json, VS Code's own) do not reach an agent; the editor's tools do.
import { openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'trust';
export const trust = 'untrusted';
export const settings = {
  'switchboard.agents': [{ id: 'user-agent', name: 'User Settings Agent', command: 'switchboard-user-agent-cli' }, scriptedAgent('trust-echo', 'Trust Echo Agent', 'mcpEcho')],
};
export const files = {
  // JSONC, as people write it: comments and a trailing comma
  '.vscode/settings.json': `{
  // an agent command chosen by whoever wrote this repository
  "switchboard.agents": [
    { "id": "workspace-agent", "name": "Workspace Defined Agent", "command": "workspace-defined-agent-cli", "args": ["--acp"] },
  ],
  "switchboard.mcpServers": [{ "name": "workspace-mcp", "command": "workspace-mcp-server" }],
}
`,
  '.vscode/mcp.json': JSON.stringify({ servers: { 'workspace-vscode-mcp': { type: 'stdio', command: 'workspace-vscode-mcp-server' } } }),
  'README.md': '# an untrusted project\n',
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  // Restricted Mode is on (the status bar or the banner says so)
  await page.locator('.monaco-workbench').getByText(/Restricted Mode/).first().waitFor({ timeout: 30_000 });
  t.expect(true, 'the workspace opened in Restricted Mode');

  await t.runCommand(t.commandTitle('switchboard.newSession'));
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: 'Demo agent' }).first().waitFor({ timeout: 15_000 });
  await rows.filter({ hasText: 'User Settings Agent' }).first().waitFor({ timeout: 5000 });
  t.expect(true, 'the agent picker offers the Demo agent and the agent from the user settings');
  const shown = await rows.allTextContents();
  t.expect(!shown.some((r) => /Workspace Defined Agent|workspace-agent/.test(r)), `the workspace-defined agent is not offered (${JSON.stringify(shown)})`);
  await t.screenshot('trust-picker');
  await page.keyboard.press('Escape');

  await t.notification(/This workspace is not trusted, so Switchboard ignores the agent definitions and MCP servers/, { timeoutMs: 20_000 });
  t.expect(true, 'a notice says the workspace settings are ignored because the workspace is not trusted');
  await t.screenshot('trust-notice');

  const chat = await openSession(t, 'Trust Echo Agent');
  await sendPrompt(t, chat, 'which MCP servers?');
  const answer = chat.locator('[data-testid="agent-message"]', { hasText: 'MCP servers:' }).first();
  await answer.waitFor({ timeout: 30_000 });
  const servers = (await answer.innerText()).trim();
  t.expect(!/workspace-mcp|workspace-vscode-mcp/.test(servers) && /stdio vscode /.test(servers), `no server of the untrusted workspace reaches the agent, the editor's tools do: ${servers}`);
}
