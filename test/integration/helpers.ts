/**
 * Helpers for integration tests in the extension host: the extension's API, polling, and scripted agents
 * (test/fixtures/agents) registered as `switchboard.agents` entries at run time.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';

/** The extension's id. */
export const extensionId = 'switchboard.switchboard';

/**
 * Activates the extension and returns its API, whose `newSession` opens no chat unless a test asks for one
 * (`{ chat: true }`): a chat panel for each of the suite's sessions cost the workbench's renderer about a third of
 * the layer's CPU time (694 s of wall time on 2 cores, 514 s without them), and only the tests of chats, of what
 * follows a chat (Follow Agent, terminals beside it) and of switching between chats look at one.
 */
export async function api(): Promise<SwitchboardTestApi> {
  const ext = vscode.extensions.getExtension<SwitchboardTestApi>(extensionId);
  assert.ok(ext, 'extension not installed');
  const raw = await ext.activate();
  const newSession: SwitchboardTestApi['newSession'] = (agentId, options) => raw.newSession(agentId, { chat: false, ...options });
  // the API is a proxy that loads the core when a member is read (src/extension.ts): wrapped, not copied
  return new Proxy(raw, { get: (target, key) => (key === 'newSession' ? newSession : Reflect.get(target, key)) });
}

/** Polls `get` until it returns something truthy (or fails after `ms`). */
export async function until<T>(get: () => T | undefined | null | false, what: string, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The first workspace folder's path. */
export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the tests need a workspace folder');
  return f.uri.fsPath;
}

/**
 * Registers a scripted agent for `scenario` (a file name in test/fixtures/agents/scenarios, without .json)
 * in the user settings and returns its agent id. `env` is passed to the agent; `extra` joins the entry (a `transport`).
 */
export async function useScriptedAgent(scenario: string, env: Record<string, string> = {}, agentId?: string, extra: Record<string, unknown> = {}): Promise<string> {
  const ext = vscode.extensions.getExtension(extensionId);
  assert.ok(ext);
  const root = ext.extensionPath;
  const id = agentId ?? `scripted-${scenario.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const config = vscode.workspace.getConfiguration('switchboard');
  const agents = (config.get<unknown[]>('agents') ?? []).filter((a) => (a as { id?: string }).id !== id);
  agents.push({
    id,
    name: `Scripted ${scenario}`,
    command: process.execPath,
    args: [path.join(root, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'), path.join(root, 'test', 'fixtures', 'agents', 'scenarios', `${scenario}.json`)],
    env: { ELECTRON_RUN_AS_NODE: '1', SCRIPTED_AGENT_DELAY_SCALE: '0', ...env },
    ...extra,
  });
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  return id;
}

/** Sets a `switchboard.*` setting in the user settings for the rest of the test (undo with `undefined`). */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('switchboard').update(key, value, vscode.ConfigurationTarget.Global);
}

/** The text of every agent message of a session, joined. */
export function agentText(sb: SwitchboardTestApi, sessionId: string): string {
  return (sb.snapshot(sessionId)?.entries ?? []).map((e) => (e.kind === 'agent' ? e.text : '')).join('\n');
}

/**
 * The methods of the requests and notifications the client sent to the scripted agent with this pid, in order,
 * as the traffic tap recorded them (test/fixtures/agents/trafficTap.ts; the runners set SWITCHBOARD_TRAFFIC_DIR).
 */
export function clientCalls(pid: number | undefined): string[] {
  const dir = process.env.SWITCHBOARD_TRAFFIC_DIR;
  assert.ok(dir, 'the runner records the ACP traffic (SWITCHBOARD_TRAFFIC_DIR)');
  assert.ok(pid, 'the agent runs');
  const file = path.join(dir, `${pid}.jsonl`);
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)
    .map((line) => JSON.parse(line) as { method: string; kind: string })
    .filter((r) => r.kind === 'request' || r.kind === 'notification')
    .map((r) => r.method);
}

/** How many processes of this checkout's scripted agent run a scenario now (ps: Linux and macOS). */
export function agentProcesses(scenario: string): number {
  const file = path.join(vscode.extensions.getExtension(extensionId)?.extensionPath ?? '', 'test', 'fixtures', 'agents', 'scenarios', `${scenario}.json`);
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(file)).length;
}

/**
 * A suite against a scripted agent with `switchboard.permissions.uncoveredActions: "ask"` (the product's default; the
 * test runs' user setting is `allow`, test/harness/server.mjs TEST_SETTINGS): registers the agent before the suite,
 * and after it restores the setting, stops every session, closes the editors and removes `files` (workspace-relative).
 */
export function askingSuite(scenario: string, files: readonly string[]): { readonly sb: () => SwitchboardTestApi; readonly agent: () => string } {
  let sb: SwitchboardTestApi | undefined;
  let agent: string | undefined;
  before(async () => {
    sb = await api();
    agent = await useScriptedAgent(scenario);
    await setSetting('permissions.uncoveredActions', 'ask');
  });
  after(async () => {
    await setSetting('permissions.uncoveredActions', 'allow');
    await sb?.stopAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of files) fs.rmSync(path.join(workspaceRoot(), name), { recursive: true, force: true });
  });
  return { sb: () => sb as SwitchboardTestApi, agent: () => agent as string };
}

/** Runs a restore action and accepts its preview (the quick pick's first item restores). */
export async function acceptingPreview<T>(run: () => Promise<T>): Promise<T> {
  let settled = false;
  const p = run().finally(() => { settled = true; });
  for (let i = 0; i < 200 && !settled; i++) {
    await new Promise((r) => setTimeout(r, 150));
    if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return p;
}
