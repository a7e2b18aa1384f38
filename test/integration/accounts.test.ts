/**
 * The agent's sign-in state (`auth/status`, `auth/status_update`) and model providers (`providers/*`), both
 * UNSTABLE: asked only of an agent that advertises them (the recorded ACP traffic of a scripted agent without
 * the capabilities holds no such call), the key of a provider kept in SecretStorage and set again before the
 * sessions of a restarted agent, never in a log or a settings file (docs/acp-features.md#accounts-and-model-providers).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { AgentHost } from '../../src/host/agentHost';
import type { ProviderAnswer } from '../../src/host/auth/modelProviders';
import { api, until, useScriptedAgent } from './helpers';

// built at run time, so that no file of the repository holds the whole value
const key = ['sbx', 'provider', 'key', '9d41c7e02b'].join('-');

/** The methods the client sent the agent process `pid`, in order (the traffic tap's records). */
function traffic(pid: number | undefined): string[] {
  const dir = process.env.SWITCHBOARD_TRAFFIC_DIR;
  assert.ok(dir && pid, 'the runner records the traffic of the scripted agents');
  const file = path.join(dir, `${pid}.jsonl`);
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { method: string; kind: string })
    .filter((r) => r.kind === 'request').map((r) => r.method);
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('accounts and model providers (auth.status, providers)', function () {
  this.timeout(90000);
  let sb: SwitchboardTestApi;
  let dir: string;
  let record: string;
  before(async () => { sb = await api(); });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-providers-'));
    record = path.join(dir, 'providers.jsonl');
  });
  afterEach(async () => {
    sb.setAuthPrompter(undefined);
    sb.accounts.setProviderPrompter(undefined);
    for (const id of sb.sessionIds()) sb.closeSession(id);
    await sb.stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const hostOf = (id: string): AgentHost => {
    const host = sb.session(id)?.host;
    assert.ok(host);
    return host;
  };
  const recorded = () => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { method: string; params: { providerId: string; apiType?: string; baseUrl?: string; headers?: Record<string, string> } }) : []);

  it('asks auth/status after initialize, follows auth/status_update (an unknown state is unknown), Log In and Log Out', async () => {
    const id = await sb.newSession(await useScriptedAgent('accounts', {}, 'accounts-auth'));
    const host = hostOf(id);
    await until(() => host.authStatus?.state === 'authenticated', 'the answer of auth/status');
    assert.deepEqual(host.authStatus?.accounts.map((a) => [a.label, a.active]), [['Claude Max', true], ['OpenAI API key', false]]);
    assert.deepEqual(sb.accounts.view(host).auth && { ...sb.accounts.view(host).auth, accounts: [] }, { state: 'authenticated', accounts: [], canLogIn: true, canLogOut: true });
    await sb.prompt(id, 'sign out');
    await until(() => host.authStatus?.state === 'unauthenticated', 'the auth/status_update to unauthenticated');
    await sb.prompt(id, 'mystery');
    await until(() => host.authStatus?.state === 'unknown', 'a state the client does not know, shown as unknown');
    // Log In: the agent's login methods, then auth/status again
    sb.setAuthPrompter({ pickMethod: (_n, methods) => Promise.resolve(methods[0]), askValue: () => Promise.resolve(undefined) });
    const asked = traffic(host.pid).filter((m) => m === 'auth/status').length;
    await sb.accounts.logIn(host);
    assert.equal(host.authStatus?.state, 'authenticated');
    assert.deepEqual(traffic(host.pid).slice(-2), ['authenticate', 'auth/status'], 'the status is asked again after the login');
    // Log Out (the chat's button runs the command with its session's key), then auth/status again
    assert.equal(await vscode.commands.executeCommand('switchboard.logOut', sb.keyOf('accounts-auth', id)), true);
    assert.equal(host.authStatus?.state, 'unauthenticated');
    assert.deepEqual(traffic(host.pid).slice(-2), ['logout', 'auth/status']);
    assert.equal(traffic(host.pid).filter((m) => m === 'auth/status').length, asked + 2);
  });

  it('lists providers, sets one with a key (header per protocol, key in SecretStorage only), sets it again after a restart before the sessions, and disables it', async () => {
    const agent = await useScriptedAgent('accounts', { SCRIPTED_AGENT_PROVIDERS_FILE: record }, 'accounts-providers');
    const id = await sb.newSession(agent);
    let host = hostOf(id);
    await until(() => sb.accounts.view(host).providers?.busy === undefined, 'the answer of providers/list');
    assert.deepEqual(sb.accounts.view(host).providers?.providers.map((p) => [p.providerId, p.required, p.supported.join(','), p.current?.apiType ?? null]),
      [['main', true, 'anthropic,openai', 'anthropic'], ['backup', false, 'openai,azure,_local', null]]);
    const answers: ProviderAnswer[] = [{ apiType: 'openai', baseUrl: 'https://llm.example.com/v1 ', apiKey: key }];
    const offered: string[] = [];
    sb.accounts.setProviderPrompter({ ask: (_n, p, saved) => { offered.push(`${p.providerId}:${saved ? `${saved.baseUrl}:${saved.hasKey}` : 'new'}`); return Promise.resolve(answers.shift()); } });
    assert.equal(await sb.accounts.providers.set(host, 'backup'), true);
    assert.deepEqual(recorded().at(-1), { method: 'providers/set', params: { providerId: 'backup', apiType: 'openai', baseUrl: 'https://llm.example.com/v1', headers: { Authorization: `Bearer ${key}` } } });
    assert.deepEqual(sb.accounts.view(host).providers?.providers[1]?.current, { apiType: 'openai', baseUrl: 'https://llm.example.com/v1' });
    assert.deepEqual(await sb.storedProviders(agent), { backup: { apiType: 'openai', baseUrl: 'https://llm.example.com/v1', apiKey: key } }, 'kept in SecretStorage');
    // anthropic takes the key as x-api-key
    answers.push({ apiType: 'anthropic', baseUrl: 'https://proxy.example.com', apiKey: key });
    assert.equal(await sb.accounts.providers.set(host, 'main'), true);
    assert.deepEqual(recorded().at(-1)?.params.headers, { 'x-api-key': key });
    // a restart: the saved providers are set again before the session is reopened
    await sb.restartAgent(id);
    const before = host.pid;
    host = hostOf(id);
    assert.notEqual(host.pid, before);
    const calls = traffic(host.pid);
    assert.deepEqual(calls.slice(0, 3), ['initialize', 'providers/set', 'providers/set'], `after a restart: ${calls.join(', ')}`);
    assert.ok(calls.indexOf('session/resume') > 2, 'before the session is resumed');
    assert.deepEqual(recorded().slice(-2).map((r) => [r.params.providerId, r.params.headers]), [['backup', { Authorization: `Bearer ${key}` }], ['main', { 'x-api-key': key }]]);
    // Set again: the saved values are offered, and "keep the saved key" sends it
    answers.push({ apiType: 'openai', baseUrl: 'https://llm2.example.com/v1', keepSavedKey: true });
    await until(() => sb.accounts.view(host).providers?.providers.length === 2, 'the providers of the new process');
    assert.equal(await sb.accounts.providers.set(host, 'backup'), true);
    assert.equal(offered.at(-1), 'backup:https://llm.example.com/v1:true');
    assert.deepEqual(recorded().at(-1)?.params.headers, { Authorization: `Bearer ${key}` });
    // Disable: forgotten in SecretStorage; a required provider is never disabled
    assert.equal(await sb.accounts.providers.disable(host, 'backup'), true);
    assert.equal(sb.accounts.view(host).providers?.providers[1]?.current, undefined);
    assert.equal(await sb.accounts.providers.disable(host, 'main'), false);
    assert.deepEqual(recorded().filter((r) => r.method === 'providers/disable').map((r) => r.params.providerId), ['backup'], 'providers/disable was not sent for the required one');
    assert.deepEqual(Object.keys(await sb.storedProviders(agent)), ['main']);
    // a failure is shown in the picker, with the agent's explanation
    answers.push({ apiType: '_unsupported', baseUrl: 'https://x.example.com' });
    assert.equal(await sb.accounts.providers.set(host, 'backup'), false);
    assert.match(sb.accounts.view(host).providers?.error ?? '', /Could not set the model provider 'backup'.*does not support _unsupported/);
    // a new start (no session to reopen): the saved provider is set before session/new
    await sb.stopAll();
    const fresh = hostOf(await sb.newSession(agent));
    const freshCalls = traffic(fresh.pid);
    assert.ok(freshCalls.indexOf('providers/set') > 0 && freshCalls.indexOf('providers/set') < freshCalls.indexOf('session/new'), `before session/new: ${freshCalls.join(', ')}`);
    assert.deepEqual(recorded().at(-1), { method: 'providers/set', params: { providerId: 'main', apiType: 'anthropic', baseUrl: 'https://proxy.example.com', headers: { 'x-api-key': key } } });
    // the key is in no log file and no settings file (also what a log line holding the request would write)
    host.log.info(`echo ${JSON.stringify(recorded().find((r) => r.params.headers?.['x-api-key'])?.params)}`);
    await new Promise((r) => setTimeout(r, 1500)); // the log files are flushed asynchronously
    const logs = walk(path.dirname(sb.logDir())).filter((f) => f.endsWith('.log'));
    assert.ok(logs.some((f) => fs.readFileSync(f, 'utf8').includes('x-api-key') && fs.readFileSync(f, 'utf8').includes('***')), 'the echoed request is masked');
    for (const f of logs) assert.ok(!fs.readFileSync(f, 'utf8').includes(key), `${f} holds the key`);
    const settings = path.join(sb.globalStorageDir(), '..', '..', 'settings.json');
    assert.ok(!fs.readFileSync(settings, 'utf8').includes(key), 'the user settings hold the key');
  });

  it('never asks auth/status or providers/* of an agent without the capabilities, and ignores its auth/status_update', async () => {
    const id = await sb.newSession(await useScriptedAgent('accountsNoCaps', { SCRIPTED_AGENT_PROVIDERS_FILE: record }, 'accounts-nocaps'));
    const host = hostOf(id);
    await sb.prompt(id, 'sign out'); // the agent sends auth/status_update anyway
    await sb.prompt(id, 'hello');
    await sb.accounts.refreshAuthStatus(host);
    sb.accounts.setProviderPrompter({ ask: () => Promise.resolve({ apiType: 'anthropic', baseUrl: 'https://x.example.com', apiKey: key }) });
    assert.equal(await sb.accounts.providers.set(host, 'main'), false);
    assert.equal(await sb.accounts.providers.disable(host, 'main'), false);
    // a login and a logout do not ask it either
    sb.setAuthPrompter({ pickMethod: (_n, methods) => Promise.resolve(methods[0]), askValue: () => Promise.resolve(undefined) });
    await sb.accounts.logIn(host);
    assert.equal(await vscode.commands.executeCommand('switchboard.logOut', sb.keyOf('accounts-nocaps', id)), true);
    const calls = traffic(host.pid);
    assert.ok(calls.includes('session/prompt') && calls.includes('authenticate') && calls.includes('logout'), `the traffic was recorded: ${calls.join(', ')}`);
    assert.deepEqual(calls.filter((m) => m === 'auth/status' || m.startsWith('providers/')), [], 'no UNSTABLE call without its capability');
    assert.equal(host.authStatus, undefined, 'the update was ignored');
    assert.deepEqual(sb.accounts.view(host), {}, 'nothing new is shown');
    assert.equal(fs.existsSync(record), false, 'the agent received no providers/* request');
  });
});
