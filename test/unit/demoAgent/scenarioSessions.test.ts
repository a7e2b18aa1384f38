import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';

// Session setup, state and lifecycle of the scripted scenarios, served in-process.

async function rejectsWith(promise: Promise<unknown>, code: number): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof acp.RequestError, String(error));
    assert.equal(error.code, code);
    return true;
  });
}

describe('demoAgent / scripted sessions', () => {
  const open = useTestClient();

  it('supports legacy modes: response, set_mode, current_mode_update (modes.json)', async () => {
    const c = open('modes');
    const { sessionId, modes } = await c.start();
    assert.equal(modes?.currentModeId, 'ask');
    assert.equal(modes?.availableModes.length, 3);
    await c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'architect' });
    await c.prompt(sessionId, 'which');
    assert.equal(c.text(), 'Current mode: architect');
    await rejectsWith(c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'nope' }), -32602);
    await c.prompt(sessionId, 'switch');
    assert.deepEqual(c.updatesOf('current_mode_update').map((u) => u.currentModeId), ['code']);
  });

  it('hides boolean config options unless the client supports them (configOptions.json)', async () => {
    const plain = open('configOptions');
    assert.deepEqual((await plain.start()).configOptions?.map((o) => o.id), ['model', 'mode', 'effort']);
    await plain.close();
    const c = open('configOptions', {
      capabilities: { fs: { readTextFile: true }, session: { configOptions: { boolean: {} } } },
    });
    const { configOptions } = await c.start();
    assert.deepEqual(configOptions?.map((o) => o.id), ['model', 'mode', 'effort', 'web']);
    const model = configOptions?.[0];
    assert.ok(model?.type === 'select');
    assert.equal((model.options as acp.SessionConfigSelectGroup[])[0].group, 'fast');
  });

  it('sets config options and sends config_option_update (configOptions.json)', async () => {
    const c = open('configOptions', { capabilities: { session: { configOptions: { boolean: {} } } } });
    const { sessionId } = await c.start();
    const set = await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'fast-2' });
    assert.equal(set.configOptions.find((o) => o.id === 'model')?.currentValue, 'fast-2');
    assert.equal(set.configOptions.length, 4);
    await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'web', type: 'boolean', value: true });
    await rejectsWith(c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'gpt-99' }), -32602);
    await rejectsWith(c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'nope', value: 'x' }), -32602);
    await c.prompt(sessionId, 'show');
    assert.equal(c.text(), 'model=fast-2 mode=ask effort=medium web=true');
    await c.prompt(sessionId, 'fallback');
    const update = c.updatesOf('config_option_update')[0];
    assert.equal(update.configOptions[0].currentValue, 'smart-1');
    assert.match(c.text(), /fell back to Smart 1\.$/);
  });

  it('sends usage after setup and session info during turns (usageAndSessionInfo.json)', async () => {
    const c = open('usageAndSessionInfo');
    const { sessionId } = await c.start();
    await c.waitFor(() => c.updatesOf('usage_update').length === 1, 'usage after setup');
    assert.deepEqual(c.updatesOf('usage_update')[0], { sessionUpdate: 'usage_update', used: 1000, size: 200000 });
    await c.prompt(sessionId, 'go');
    const usage = c.updatesOf('usage_update');
    assert.deepEqual(usage.slice(1).map((u) => u.cost?.currency), ['USD', 'USD', 'EUR']);
    const info = c.updatesOf('session_info_update');
    assert.equal(info[0].title, 'Fix the login bug');
    assert.equal(info[0].updatedAt, '2026-01-02T03:04:05Z');
    assert.ok((info[1].title ?? '').length > 150);
    await c.prompt(sessionId, 'clear');
    assert.deepEqual(c.updatesOf('session_info_update')[2], { sessionUpdate: 'session_info_update', title: null, updatedAt: null });
  });

  it('lists stored and new sessions with paging and a cwd filter (sessions.json)', async () => {
    const c = open('sessions');
    const { sessionId } = await c.start('/work/project');
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await c.agent.request(acp.methods.agent.session.list, cursor ? { cursor } : {});
      assert.ok(page.sessions.length <= 2);
      seen.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [sessionId, 'stored-1', 'stored-2', 'stored-3', 'stored-4', 'stored-5']);
    const other = await c.agent.request(acp.methods.agent.session.list, { cwd: '/work/other' });
    assert.deepEqual(other.sessions.map((s) => [s.sessionId, s.cwd]), [['stored-3', '/work/other'], ['stored-4', '/work/other']]);
    await rejectsWith(c.agent.request(acp.methods.agent.session.list, { cursor: 'bogus' }), -32602);
  });

  it('replays a stored session before answering session/load (sessions.json)', async () => {
    const c = open('sessions');
    await c.initialize();
    const response = await c.agent.request(acp.methods.agent.session.load, { sessionId: 'stored-1', cwd: '/work/project', mcpServers: [] });
    assert.deepEqual(response, {});
    const responseAt = c.wire.findIndex((w) => 'json' in w && w.json.id === 1 && 'result' in w.json);
    const replayed = c.wire.filter((w, i) => i < responseAt && 'json' in w && w.json.method === 'session/update');
    assert.equal(replayed.length, 5);
    assert.equal(c.text('user_message_chunk', 'stored-1'), 'Please refactor the parser.');
    assert.equal(c.text('agent_message_chunk', 'stored-1'), 'Done: the parser is split in two.');
    assert.equal(c.updatesOf('tool_call', 'stored-1')[0].toolCallId, 'old-read');
    await c.waitFor(() => c.updatesOf('available_commands_update').length === 1, 'commands after load');
    await c.prompt('stored-1', 'go on');
    assert.match(c.text('agent_message_chunk', 'stored-1'), /Continuing in stored-1 at \/work\/project\.$/);
    await rejectsWith(c.agent.request(acp.methods.agent.session.load, { sessionId: 'nope', cwd: '/w', mcpServers: [] }), -32002);
  });

  it('reloads a session created in this run with its recorded history (sessions.json)', async () => {
    const c = open('sessions');
    const { sessionId } = await c.start('/work/project');
    await c.prompt(sessionId, 'first prompt');
    c.updates.length = 0;
    await c.agent.request(acp.methods.agent.session.load, { sessionId, cwd: '/work/project', mcpServers: [] });
    assert.equal(c.text('user_message_chunk'), 'first prompt');
    assert.match(c.text(), /^Continuing in new-1/);
  });

  it('resumes without replay, closes and deletes (sessions.json)', async () => {
    const c = open('sessions');
    const { sessionId } = await c.start('/work/project');
    await c.agent.request(acp.methods.agent.session.resume, { sessionId: 'stored-2', cwd: '/work/project' });
    assert.equal(c.updatesOf('user_message_chunk', 'stored-2').length, 0);
    assert.equal(await c.prompt('stored-2', 'hi'), 'end_turn');
    await c.agent.request(acp.methods.agent.session.close, { sessionId });
    await rejectsWith(c.prompt(sessionId, 'after close'), -32600);
    await c.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: '/work/project' });
    assert.equal(await c.prompt(sessionId, 'after resume'), 'end_turn');
    await c.agent.request(acp.methods.agent.session.delete, { sessionId: 'stored-5' });
    await c.agent.request(acp.methods.agent.session.delete, { sessionId: 'never-existed' });
    const all = await c.agent.request(acp.methods.agent.session.list, {});
    assert.ok(!all.sessions.some((s) => s.sessionId === 'stored-5'));
    await rejectsWith(c.agent.request(acp.methods.agent.session.load, { sessionId: 'stored-5', cwd: '/w', mcpServers: [] }), -32002);
  });

  it('replays after the load response, as gemini-cli does (loadReplayAfter.json)', async () => {
    const c = open('loadReplayAfter');
    await c.initialize();
    await c.agent.request(acp.methods.agent.session.load, { sessionId: 'gemini-style', cwd: '/work/project', mcpServers: [] });
    await c.waitFor(() => c.updatesOf('session_info_update').length === 1, 'late replay');
    const responseAt = c.wire.findIndex((w) => 'json' in w && w.json.id === 1 && 'result' in w.json);
    const firstUpdateAt = c.wire.findIndex((w) => 'json' in w && w.json.method === 'session/update');
    assert.ok(responseAt >= 0 && responseAt < firstUpdateAt, 'the response comes before the replay');
    assert.equal(c.text('user_message_chunk'), 'What does this repo do?');
    assert.equal(c.updatesOf('session_info_update')[0].title, 'Late replay (loaded)');
  });

  it('answers auth_required until authenticate (authRequired.json)', async () => {
    const c = open('authRequired');
    const init = await c.initialize();
    assert.deepEqual(init.authMethods?.map((m) => ('type' in m ? m.type : 'none')), ['none', 'agent', 'env_var', 'terminal']);
    assert.deepEqual(init.agentCapabilities?.auth?.logout, {});
    await rejectsWith(c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] }), -32000);
    await rejectsWith(c.agent.request(acp.methods.agent.authenticate, { methodId: 'wrong' }), -32602);
    await c.agent.request(acp.methods.agent.authenticate, { methodId: 'oauth' });
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] });
    assert.equal(await c.prompt(sessionId, 'hi'), 'end_turn');
    await c.agent.request(acp.methods.agent.logout, {});
    await rejectsWith(c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] }), -32000);
  });

  it('counts an env var as authentication (authRequired.json)', async () => {
    const c = open('authRequired', { env: { SCRIPTED_AGENT_API_KEY: 'sk-test' } });
    assert.ok((await c.start()).sessionId);
  });

  it('answers initialize with a wrong protocol version (wrongProtocolVersion.json)', async () => {
    const c = open('wrongProtocolVersion');
    const init = await c.initialize();
    assert.equal(init.protocolVersion, 2);
    assert.equal(init.agentInfo?.name, 'future-agent');
  });

  it('advertises nothing and rejects ungated calls with -32601 (minimalCapabilities.json)', async () => {
    const c = open('minimalCapabilities');
    const init = await c.initialize();
    assert.deepEqual(init.agentCapabilities, {});
    assert.equal(init.agentInfo, null);
    await rejectsWith(c.agent.request(acp.methods.agent.session.list, {}), -32601);
    await rejectsWith(c.agent.request(acp.methods.agent.session.load, { sessionId: 'x', cwd: '/w', mcpServers: [] }), -32601);
    await rejectsWith(c.agent.request(acp.methods.agent.logout, {}), -32601);
    assert.match(c.stderr.join(''), /VIOLATION: session\/list called but sessionCapabilities\.list was not advertised/);
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] });
    assert.equal(await c.prompt(sessionId, 'x'), 'end_turn');
  });

  it('rejects requests before initialize (SDK gate) and unknown methods', async () => {
    const c = open('minimalCapabilities');
    await rejectsWith(c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] }), -32600);
    await c.initialize();
    await rejectsWith(c.agent.request('_switchboard/unknown', {}), -32601);
    await rejectsWith(c.prompt('no-such-session', 'x'), -32002);
  });
});
