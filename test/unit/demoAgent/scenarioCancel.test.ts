import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';

// Cancellation in the middle of a turn (cancelMidTurn.json) and $/cancel_request (clientRequests.json).

describe('demoAgent / cancellation', () => {
  const open = useTestClient();

  it('stops a slow stream at the next chunk and runs onCancel', async () => {
    const c = open('cancelMidTurn');
    const { sessionId } = await c.start();
    const turn = c.prompt(sessionId, 'stream');
    await c.waitFor(() => c.updatesOf('agent_message_chunk').length >= 3, 'a few chunks');
    await c.cancel(sessionId);
    assert.equal(await turn, 'cancelled');
    assert.ok(c.updatesOf('agent_message_chunk').length < 20);
    assert.match(c.text(), / \[cancelled\]$/);
    assert.doesNotMatch(c.text(), /not reached/);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'working' && u.status === 'failed'));
  });

  it('cancels while a permission request is pending (the client answers it "cancelled")', async () => {
    let sessionId = '';
    const c = open('cancelMidTurn', {
      permission: async () => {
        await c.cancel(sessionId);
        return { outcome: { outcome: 'cancelled' } };
      },
    });
    ({ sessionId } = await c.start());
    assert.equal(await c.prompt(sessionId, 'permission'), 'cancelled');
    assert.match(c.text(), /\[permission\] cancelled/);
    assert.doesNotMatch(c.text(), /not reached/);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'needs-ok' && u.status === 'failed'));
  });

  it('sends $/cancel_request for a pending wait_for_exit, then kills and releases the terminal', async () => {
    const c = open('cancelMidTurn', { terminal: { exitAfterMs: null } });
    const { sessionId } = await c.start();
    const turn = c.prompt(sessionId, 'terminal');
    await c.waitFor(() => c.requestsOf('terminal/wait_for_exit').length === 1, 'wait_for_exit');
    await c.cancel(sessionId);
    assert.equal(await turn, 'cancelled');
    const waitRequest = c.wire.find((w) => 'json' in w && w.json.method === 'terminal/wait_for_exit');
    assert.ok(waitRequest && 'json' in waitRequest);
    const cancel = c.wire.find((w) => 'json' in w && w.json.method === '$/cancel_request');
    assert.ok(cancel && 'json' in cancel);
    assert.deepEqual(cancel.json.params, { requestId: waitRequest.json.id });
    assert.deepEqual(c.requests.map((r) => r.method), ['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release']);
    assert.match(c.text(), /build cancelled$/);
  });

  it('treats $/cancel_request for session/prompt like session/cancel', async () => {
    const c = open('cancelMidTurn');
    const { sessionId } = await c.start();
    const abort = new AbortController();
    const turn = c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'stream' }] }, { cancellationSignal: abort.signal });
    await c.waitFor(() => c.updatesOf('agent_message_chunk').length >= 2, 'chunks');
    abort.abort();
    assert.equal((await turn).stopReason, 'cancelled');
  });

  it('a new prompt works after a cancelled one', async () => {
    const c = open('cancelMidTurn');
    const { sessionId } = await c.start();
    const turn = c.prompt(sessionId, 'stream');
    await c.waitFor(() => c.updatesOf('agent_message_chunk').length >= 1, 'a chunk');
    await c.cancel(sessionId);
    assert.equal(await turn, 'cancelled');
    const second = c.prompt(sessionId, 'stream');
    await c.waitFor(() => c.updatesOf('agent_message_chunk').length >= 8, 'more chunks');
    await c.cancel(sessionId);
    assert.equal(await second, 'cancelled');
  });

  it('sends $/cancel_request for a pending permission request (clientRequests.json)', async () => {
    const c = open('clientRequests', {
      permission: (_params, signal) => new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(acp.RequestError.requestCancelled()), { once: true });
      }),
    });
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'cancel'), 'end_turn');
    assert.match(c.text(), /\[perm\] error: -32800 Request cancelled/);
    const permission = c.wire.find((w) => 'json' in w && w.json.method === 'session/request_permission');
    const cancel = c.wire.find((w) => 'json' in w && w.json.method === '$/cancel_request');
    assert.ok(permission && 'json' in permission && cancel && 'json' in cancel);
    assert.deepEqual(cancel.json.params, { requestId: permission.json.id });
  });
});
