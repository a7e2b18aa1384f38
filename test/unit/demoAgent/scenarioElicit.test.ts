import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';

// The `elicit` and `elicitComplete` steps (elicitation.json), driven by the SDK's client side.

describe('demoAgent / elicit steps', () => {
  const open = useTestClient();

  it('sends a session-scoped form and echoes the accepted content', async () => {
    const c = open('elicitation', { elicitation: async () => ({ action: 'accept', content: { name: 'my-app', seats: 3 } }) });
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'form'), 'end_turn');
    const request = c.requestsOf('elicitation/create')[0] as Record<string, unknown>;
    assert.equal(request.mode, 'form');
    assert.equal(request.sessionId, sessionId);
    assert.equal(request.toolCallId, undefined);
    assert.deepEqual((request.requestedSchema as { required: string[] }).required, ['name', 'email', 'langs']);
    assert.match(c.text(), /\[elicit\] accept: \{"name":"my-app","seats":3\}/);
  });

  it('scopes a form to its tool call, and echoes decline and cancel', async () => {
    const c = open('elicitation', { elicitation: async () => ({ action: 'cancel' }) });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'form in card');
    assert.equal((c.requestsOf('elicitation/create')[0] as { toolCallId?: string }).toolCallId, 'deploy-1');
    assert.match(c.text(), /\[elicit\] cancel: \{"action":"cancel"\}/);
  });

  it('sends a URL elicitation, then elicitation/complete for it', async () => {
    const c = open('elicitation', { elicitation: async () => ({ action: 'accept' }) });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'url');
    const request = c.requestsOf('elicitation/create')[0] as Record<string, unknown>;
    assert.deepEqual([request.mode, request.elicitationId, request.url], ['url', 'login-1', 'https://login.example.com:8443/authorize?client=switchboard']);
    assert.match(c.text(), /\[elicit\] accept:/);
    await c.prompt(sessionId, 'finish url');
    const completions = c.wire.filter((l) => 'json' in l && l.json.method === 'elicitation/complete').map((l) => ('json' in l ? (l.json.params as { elicitationId: string }).elicitationId : ''));
    assert.deepEqual(completions, ['login-1', 'never-sent']);
  });

  it('records a JSON-RPC error as `error`', async () => {
    const c = open('elicitation', { elicitation: async () => { throw new Error('no'); } });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'unknown mode');
    assert.match(c.text(), /\[wizard\] error: /);
    assert.match(c.text(), /\[custom\] error: /);
  });
});
