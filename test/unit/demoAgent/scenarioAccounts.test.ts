import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { useTestClient } from './acpTestClient';

// The scripted agents' account and model providers (accounts.json, accountsNoCaps.json): auth/status, the
// `authStatus` step and auth/status_update, providers/list|set|disable with their record file.

type Status = { state: string; accounts?: { label: string }[] };
type Providers = { providers: { providerId: string; required: boolean; current?: { apiType: string; baseUrl: string } | null }[] };

describe('demoAgent / accounts and providers', () => {
  const open = useTestClient();
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-accounts-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const statusUpdates = (c: ReturnType<typeof open>) => c.wire.flatMap((l) => ('json' in l && l.json.method === 'auth/status_update' ? [(l.json.params as Status).state] : []));

  it('advertises auth.status and providers, answers auth/status, and follows the authStatus step, logout and login', async () => {
    const c = open('accounts');
    const init = await c.initialize();
    const caps = init.agentCapabilities as { auth?: { status?: unknown; logout?: unknown }; providers?: unknown };
    assert.deepEqual([caps.auth?.status, caps.auth?.logout, caps.providers], [{}, {}, {}], 'the UNSTABLE capabilities reach the wire');
    const first = await c.agent.request<Status>('auth/status', {});
    assert.equal(first.state, 'authenticated');
    assert.deepEqual(first.accounts?.map((a) => a.label), ['Claude Max', 'OpenAI API key']);
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: '/work/project', mcpServers: [] });
    await c.prompt(sessionId, 'sign out');
    assert.deepEqual(statusUpdates(c), ['unauthenticated'], 'the step sends auth/status_update');
    assert.equal((await c.agent.request<Status>('auth/status', {})).state, 'unauthenticated');
    await c.prompt(sessionId, 'mystery');
    assert.equal((await c.agent.request<Status>('auth/status', {})).state, '_vendor_pending');
    await c.agent.request(acp.methods.agent.logout, {});
    await c.agent.request(acp.methods.agent.authenticate, { methodId: 'scripted-login' });
    assert.deepEqual(statusUpdates(c), ['unauthenticated', '_vendor_pending', 'unauthenticated', 'authenticated']);
    assert.deepEqual((await c.agent.request<Status>('auth/status', {})).accounts?.map((a) => a.label), ['Claude Max']);
  });

  it('lists, sets and disables providers, records each request, and refuses what the provider does not allow', async () => {
    const file = path.join(dir, 'providers.jsonl');
    const c = open('accounts', { env: { SCRIPTED_AGENT_PROVIDERS_FILE: file } });
    await c.initialize();
    const list = async () => (await c.agent.request<Providers>('providers/list', {})).providers;
    assert.deepEqual((await list()).map((p) => [p.providerId, p.required, p.current?.apiType ?? null]), [['main', true, 'anthropic'], ['backup', false, null]]);
    await c.agent.request('providers/set', { providerId: 'backup', apiType: 'openai', baseUrl: 'https://llm.example.com/v1', headers: { Authorization: 'Bearer k-123456' } });
    assert.deepEqual((await list())[1]?.current, { apiType: 'openai', baseUrl: 'https://llm.example.com/v1' });
    await assert.rejects(c.agent.request('providers/set', { providerId: 'backup', apiType: 'anthropic', baseUrl: 'https://x.example.com' }), /does not support anthropic/);
    await assert.rejects(c.agent.request('providers/set', { providerId: 'nope', apiType: 'openai', baseUrl: 'https://x.example.com' }), /unknown provider/);
    await assert.rejects(c.agent.request('providers/disable', { providerId: 'main' }), /is required/);
    await c.agent.request('providers/disable', { providerId: 'backup' });
    assert.equal((await list())[1]?.current ?? null, null);
    const recorded = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method: string; params: { providerId: string; headers?: Record<string, string> } });
    assert.deepEqual(recorded.map((r) => `${r.method} ${r.params.providerId}`), ['providers/set backup', 'providers/set backup', 'providers/set nope', 'providers/disable main', 'providers/disable backup']);
    assert.deepEqual(recorded[0]?.params.headers, { Authorization: 'Bearer k-123456' }, 'the headers are recorded as received');
  });

  it('without the capabilities: nothing advertised, every call answered -32601 with a VIOLATION line, no status update sent by the engine', async () => {
    const c = open('accountsNoCaps');
    const init = await c.initialize();
    const caps = init.agentCapabilities as { auth?: { status?: unknown }; providers?: unknown };
    assert.equal(caps.auth?.status, undefined);
    assert.equal(caps.providers, undefined);
    for (const method of ['auth/status', 'providers/list', 'providers/disable']) {
      await assert.rejects(c.agent.request(method, method === 'providers/disable' ? { providerId: 'main' } : {}), (e: unknown) => e instanceof acp.RequestError && e.code === -32601, method);
    }
    assert.equal(c.stderr.join('').match(/VIOLATION/g)?.length, 3);
  });
});
