import * as acp from '@agentclientprotocol/sdk';
import type * as unstable from '@agentclientprotocol/sdk/unstable';
import * as assert from 'node:assert/strict';
import { useTestClient, type TestClient } from './acpTestClient';

// The unstable session methods of the scripted agents (organize.json and organizeNoCap.json), served in-process.

async function rejectsWith(promise: Promise<unknown>, code: number): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof acp.RequestError, String(error));
    assert.equal(error.code, code);
    return true;
  });
}

function list(c: TestClient, archived?: string): Promise<unstable.ListSessionsResponse> {
  return c.agent.request<unstable.ListSessionsResponse>('session/list', { cwd: '/work/project', ...(archived ? { archived } : {}) });
}

describe('demoAgent / unstable session methods', () => {
  const open = useTestClient();

  it('forks a session: a new id that takes prompts, with the history, turn count and options of the source', async () => {
    const c = open('organize');
    const { sessionId } = await c.start();
    await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'smart' });
    await c.prompt(sessionId, 'first');
    const fork = await c.agent.request<unstable.ForkSessionResponse>('session/fork', { sessionId, cwd: '/work/project', mcpServers: [] });
    assert.notEqual(fork.sessionId, sessionId);
    assert.equal(fork.configOptions?.[0]?.currentValue, 'smart', 'the fork has its own options, copied from the source');
    await c.prompt(fork.sessionId, 'second');
    assert.equal(c.text('agent_message_chunk', fork.sessionId), `Answer 2 from ${fork.sessionId} (smart): second`);
    await c.agent.request(acp.methods.agent.session.load, { sessionId: fork.sessionId, cwd: '/work/project', mcpServers: [] });
    assert.ok(c.text('user_message_chunk', fork.sessionId).includes('first'), 'the fork replays the source\'s history');
    await c.prompt(sessionId, 'source');
    assert.equal(c.text('agent_message_chunk', sessionId), `Answer 1 from ${sessionId} (smart): firstAnswer 2 from ${sessionId} (smart): source`);
    await rejectsWith(c.agent.request('session/fork', { sessionId: 'nope', cwd: '/work/project', mcpServers: [] }), -32002);
  });

  it('stores a title (normalized) and answers with it; an empty one is refused', async () => {
    const c = open('organize');
    const { sessionId } = await c.start();
    const res = await c.agent.request<unstable.SetSessionTitleResponse>('session/set_title', { sessionId, title: '  Release   notes ' });
    assert.equal(res.title, 'Release notes');
    await c.prompt(sessionId, '/title');
    assert.equal(c.text(), "The agent's title: Release notes");
    assert.equal((await list(c)).sessions.find((s) => s.sessionId === sessionId)?.title, 'Release notes');
    await rejectsWith(c.agent.request('session/set_title', { sessionId, title: '   ' }), -32602);
  });

  it('archives and unarchives; session/list honours the archived filter and reports archived', async () => {
    const c = open('organize');
    const { sessionId } = await c.start();
    const ids = async (filter?: string) => (await list(c, filter)).sessions.map((s) => `${s.sessionId}${s.archived ? ' (archived)' : ''}`);
    assert.deepEqual(await ids(), [sessionId, 'org-stored-1']);
    assert.deepEqual(await ids('include'), [sessionId, 'org-stored-1', 'org-archived-1 (archived)']);
    assert.deepEqual(await ids('only'), ['org-archived-1 (archived)']);
    await c.agent.request('session/archive', { sessionId });
    assert.deepEqual(await ids('exclude'), ['org-stored-1']);
    await rejectsWith(c.prompt(sessionId, 'still there?'), -32600);
    await c.agent.request('session/unarchive', { sessionId });
    assert.deepEqual(await ids(), [sessionId, 'org-stored-1']);
    await rejectsWith(list(c, 'sideways'), -32602);
    await rejectsWith(c.agent.request('session/archive', { sessionId: 'nope' }), -32002);
  });

  it('reports a session open, saved or unknown (-32002), without changing it', async () => {
    const c = open('organize');
    const { sessionId } = await c.start();
    const status = (id: string) => c.agent.request<unstable.SessionStatusResponse>('session/status', { sessionId: id });
    assert.equal((await status(sessionId)).status, 'open');
    assert.equal((await status('org-stored-1')).status, 'saved');
    assert.equal((await status('org-stored-1')).status, 'saved', 'asking did not load it');
    await rejectsWith(status('nope'), -32002);
  });

  it('answers every unstable method -32601, and the archived filter -32602, when they are not advertised', async () => {
    const c = open('organizeNoCap');
    const { sessionId } = await c.start();
    await rejectsWith(c.agent.request('session/fork', { sessionId, cwd: '/work/project', mcpServers: [] }), -32601);
    await rejectsWith(c.agent.request('session/set_title', { sessionId, title: 'x' }), -32601);
    await rejectsWith(c.agent.request('session/archive', { sessionId }), -32601);
    await rejectsWith(c.agent.request('session/unarchive', { sessionId }), -32601);
    await rejectsWith(c.agent.request('session/status', { sessionId }), -32601);
    await rejectsWith(list(c, 'include'), -32602);
    const plain = (await list(c)).sessions;
    assert.ok(plain.every((s) => !('archived' in s)), 'no archive state reported');
    assert.equal(c.stderr.filter((l) => l.includes('VIOLATION')).length, 6);
  });
});
