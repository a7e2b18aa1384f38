import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { accountLine, accountsOf, authStateOf, authSummary, authTooltip, protocolLabel } from '../../../src/shared/accountModel';
import { baseUrlError, providerHeaders, providerViews, setProviderParams } from '../../../src/host/auth/providerConfig';
import { AgentSecrets } from '../../../src/host/auth/secrets';
import { Redactor } from '../../../src/host/auth/redactor';
import { DisableProviderCommand, LogInAccountCommand, LogOutAccountCommand, SetProviderCommand } from '../../../src/shared/chatProtocol';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { chatActions } from '../../../webview/actions';

// The pure parts of accounts and model providers (docs/acp-features.md#accounts-and-model-providers).

describe('accounts: the sign-in state as shown', () => {
  it('treats a state this client does not know as unknown (the schema\'s rule)', () => {
    assert.deepEqual(['authenticated', 'unauthenticated', 'not_required', 'unknown', '_vendor_pending', 'expired', ''].map(authStateOf),
      ['authenticated', 'unauthenticated', 'not_required', 'unknown', 'unknown', 'unknown', 'unknown']);
  });

  it('keeps what the agent reported of its accounts, without empty fields', () => {
    assert.deepEqual(accountsOf([{ label: 'Claude Max', name: 'Ada', email: null, organization: '', active: true }, { label: 'Key', active: null }]),
      [{ label: 'Claude Max', name: 'Ada', active: true }, { label: 'Key' }]);
    assert.deepEqual(accountsOf(undefined), []);
  });

  it('says it in a few words for the chip and Switch Session, and lists the accounts in the tooltip', () => {
    const accounts = accountsOf([{ label: 'OpenAI API key' }, { label: 'Claude Max', name: 'Ada Lovelace', email: 'ada@example.com', organization: 'Engines', active: true }]);
    assert.equal(authSummary({ state: 'authenticated', accounts }), 'Signed in: Ada Lovelace +1', 'the active account first');
    assert.equal(authSummary({ state: 'authenticated', accounts: [] }), 'Signed in');
    assert.equal(authSummary({ state: 'authenticated', accounts: [{ label: 'Key only' }] }), 'Signed in: Key only');
    assert.equal(authSummary({ state: 'unauthenticated', accounts }), 'Not signed in');
    assert.equal(authSummary({ state: 'not_required', accounts: [] }), 'No sign-in needed');
    assert.equal(authSummary({ state: 'unknown', accounts: [] }), 'Sign-in state unknown');
    assert.equal(accountLine(accounts[1]!), 'Claude Max (Ada Lovelace <ada@example.com>, Engines)');
    assert.equal(accountLine({ label: 'x', email: 'e@x' }), 'x (e@x)');
    assert.equal(authTooltip({ state: 'authenticated', accounts }, 'Agent'),
      'Agent: signed in.\nAccounts:\n• OpenAI API key\n• Claude Max (Ada Lovelace <ada@example.com>, Engines) (active)');
    assert.equal(authTooltip({ state: 'unauthenticated', accounts: [] }, 'Agent'), 'Agent: not signed in. Log In to start sessions.');
    assert.deepEqual(['anthropic', 'openai', 'azure', 'vertex', 'bedrock', '_local'].map(protocolLabel), ['Anthropic', 'OpenAI', 'Azure OpenAI', 'Google Vertex AI', 'AWS Bedrock', '_local']);
  });
});

describe('model providers: headers, base URLs, params', () => {
  it('puts the key in x-api-key for anthropic and in Authorization: Bearer for every other protocol; no key, no headers', () => {
    assert.deepEqual(providerHeaders('anthropic', 'k'), { 'x-api-key': 'k' });
    for (const p of ['openai', 'azure', 'vertex', 'bedrock', '_custom', 'future']) assert.deepEqual(providerHeaders(p, 'k'), { Authorization: 'Bearer k' }, p);
    assert.equal(providerHeaders('openai', undefined), undefined);
    assert.equal(providerHeaders('openai', ''), undefined);
  });

  it('accepts absolute http(s) URLs only, without credentials', () => {
    for (const ok of ['https://api.example.com/v1', 'http://localhost:8080', ' https://x.example.com ']) assert.equal(baseUrlError(ok), undefined, ok);
    assert.match(baseUrlError('') ?? '', /Enter the base URL/);
    assert.match(baseUrlError('api.example.com') ?? '', /Not a URL/);
    assert.match(baseUrlError('ftp://x.example.com') ?? '', /Only http/);
    assert.match(baseUrlError('javascript:alert(1)') ?? '', /Only http/);
    assert.match(baseUrlError('file:///etc/passwd') ?? '', /Only http/);
    assert.match(baseUrlError('https://user:pw@x.example.com') ?? '', /credentials/);
  });

  it('builds providers/set (trimmed URL, headers only with a key) and the chat\'s view of providers/list', () => {
    assert.deepEqual(setProviderParams('main', 'openai', ' https://x.example.com ', 'k'), { providerId: 'main', apiType: 'openai', baseUrl: 'https://x.example.com', headers: { Authorization: 'Bearer k' } });
    assert.deepEqual(setProviderParams('main', 'openai', 'https://x.example.com', undefined), { providerId: 'main', apiType: 'openai', baseUrl: 'https://x.example.com' });
    assert.deepEqual(providerViews([
      { providerId: 'a', supported: ['anthropic'], required: true, current: { apiType: 'anthropic', baseUrl: 'https://a' } },
      { providerId: 'b', supported: [], required: false, current: null },
    ]), [
      { providerId: 'a', supported: ['anthropic'], required: true, current: { apiType: 'anthropic', baseUrl: 'https://a' } },
      { providerId: 'b', supported: [], required: false },
    ]);
  });
});

describe('model providers: kept in SecretStorage, masked in logs', () => {
  function fakeStorage() {
    const map = new Map<string, string>();
    const storage = {
      get: (k: string) => Promise.resolve(map.get(k)),
      store: (k: string, v: string) => { map.set(k, v); return Promise.resolve(); },
      delete: (k: string) => { map.delete(k); return Promise.resolve(); },
    } as unknown as vscode.SecretStorage;
    return { map, storage };
  }

  it('stores, merges and forgets providers per agent, beside the env of logins; a key is masked from the moment it is stored or read', async () => {
    const { map, storage } = fakeStorage();
    const redactor = new Redactor();
    const secrets = new AgentSecrets(storage, redactor);
    await secrets.store('agent', { API_KEY: 'env-secret-value' });
    await secrets.storeProvider('agent', 'main', { apiType: 'anthropic', baseUrl: 'https://a', apiKey: 'provider-key-123' });
    await secrets.storeProvider('agent', 'backup', { apiType: 'openai', baseUrl: 'https://b' });
    assert.equal(redactor.redact('x-api-key: provider-key-123'), 'x-api-key: ***');
    assert.deepEqual(await secrets.providersFor('agent'), { main: { apiType: 'anthropic', baseUrl: 'https://a', apiKey: 'provider-key-123' }, backup: { apiType: 'openai', baseUrl: 'https://b' } });
    assert.deepEqual(await secrets.envFor('agent'), { API_KEY: 'env-secret-value' }, 'the env of logins is untouched');
    assert.deepEqual(await secrets.providersFor('other'), {});
    // a fresh masker (a new window) learns the key when it is read
    const fresh = new Redactor();
    await new AgentSecrets(storage, fresh).providersFor('agent');
    assert.equal(fresh.redact('provider-key-123'), '***');
    await secrets.storeProvider('agent', 'main', undefined);
    await secrets.storeProvider('agent', 'backup', undefined);
    assert.deepEqual([...map.keys()], ['switchboard.agentEnv.agent'], 'the entry is gone with its last provider');
    map.set('switchboard.providers.bad', '{"main": {"apiType": 1}}');
    assert.deepEqual(await secrets.providersFor('bad'), {}, 'a malformed entry is ignored');
  });
});

describe('the chat\'s account and provider commands', () => {
  it('are posted by the webview and validated by the host (a bad provider id is dropped)', () => {
    const posted: { method: string; params: unknown }[] = [];
    const actions = chatActions({ post: (type, params) => posted.push({ method: type.method, params }), getState: () => undefined, setState: () => undefined });
    const ran: string[] = [];
    const warnings: string[] = [];
    const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
    ipc.on(LogInAccountCommand, () => { ran.push('logIn'); });
    ipc.on(LogOutAccountCommand, () => { ran.push('logOut'); });
    ipc.on(SetProviderCommand, ({ providerId }) => { ran.push(`set ${providerId}`); });
    ipc.on(DisableProviderCommand, ({ providerId }) => { ran.push(`disable ${providerId}`); });
    actions.logIn();
    actions.logOut();
    actions.setProvider('main');
    actions.disableProvider('backup');
    for (const m of posted) ipc.dispatch(m);
    assert.deepEqual(ran, ['logIn', 'logOut', 'set main', 'disable backup']);
    for (const params of [{}, { providerId: 7 }, { providerId: 'x'.repeat(300) }, { providerId: 'a', extra: 1 }]) ipc.dispatch({ method: SetProviderCommand.method, params });
    assert.equal(warnings.length, 4);
    assert.equal(ran.length, 4);
  });
});
