import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';

// `_session/steering` of the scripted agents (steering.json), driven by the SDK's client side.

describe('demoAgent / steering', () => {
  const open = useTestClient();
  const steer = (c: ReturnType<ReturnType<typeof useTestClient>>, sessionId: string, text: string, meta: unknown = { steering: { idleBehavior: 'promptRequired' } }) =>
    c.agent.request<Record<string, unknown>>('_session/steering', { sessionId, prompt: [{ type: 'text', text }], _meta: meta });

  it('advertises steering in the top-level _meta of initialize', async () => {
    const c = open('steering');
    const init = await c.initialize();
    assert.deepEqual(init._meta, { steering: { supported: true } });
  });

  it('a message steered into a running turn is injected, and the turn takes it', async () => {
    const c = open('steering');
    const { sessionId } = await c.start();
    const turn = c.prompt(sessionId, 'Plan the release');
    await c.waitFor(() => c.text().includes('Drafting'), 'the turn started', 5000);
    assert.deepEqual(await steer(c, sessionId, 'bump the changelog'), { outcome: 'injected' });
    assert.equal(await turn, 'end_turn');
    assert.match(c.text(), /Added to the plan: bump the changelog/);
  });

  it('with no turn: promptRequired when asked for, else a turn of its own (startedNewTurn)', async () => {
    const c = open('steering');
    const { sessionId } = await c.start();
    assert.deepEqual(await steer(c, sessionId, 'anything'), { outcome: 'promptRequired', reason: 'noRunningTurn' });
    assert.deepEqual(await steer(c, sessionId, 'anything', null), { outcome: 'startedNewTurn' });
    await c.waitFor(() => c.text().includes('[own turn] anything'), 'its own turn', 5000);
  });

  it('forced answers by text, and bad params are -32602', async () => {
    const c = open('steering');
    const { sessionId } = await c.start();
    assert.deepEqual(await steer(c, sessionId, 'fail please'), { outcome: 'failed', reason: 'the model is busy' });
    assert.deepEqual(await steer(c, sessionId, 'odd one'), { outcome: 'deferred' });
    await assert.rejects(c.agent.request('_session/steering', { sessionId, prompt: [] }), (e: unknown) => e instanceof acp.RequestError && e.code === -32602);
  });
});
