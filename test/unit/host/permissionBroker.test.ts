import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancellationToken, CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { RequestPermissionResponse } from '../../../src/acp/schema/types.gen';
import { PermissionBroker } from '../../../src/host/permissions/permissionBroker';
import type { ToolCallEntry } from '../../../src/thread/model/toolCall';
import type { ThreadEntry } from '../../../src/thread/model/thread';
import { fakeEnvironment, fakeSession, options, permissionRequest, tick } from './permissionHelpers';
import { findEntry } from '../helpers/entries';

const selected = (optionId: string): RequestPermissionResponse => ({ outcome: { outcome: 'selected', optionId } });
const cancelled: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/** Tracks whether a promise settled, and how often a response was delivered. */
function watch(p: Promise<RequestPermissionResponse>) {
  const state: { value?: RequestPermissionResponse } = {};
  void p.then((v) => { state.value = v; });
  return state;
}

function card(thread: { entries: readonly ThreadEntry[] }, toolCallId: string): ToolCallEntry {
  return findEntry(thread.entries, 'toolCall', (e) => e.toolCallId === toolCallId);
}

async function parked(broker: PermissionBroker, n = 1): Promise<string[]> {
  for (const end = Date.now() + 2000; broker.pending.length < n && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
  assert.equal(broker.pending.length, n, `${n} pending request(s)`);
  return broker.pending.map((p) => p.requestId);
}

describe('PermissionBroker', () => {
  it('parks the request on its tool call and answers the user\'s choice once; a second answer is ignored', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const answer = broker.request(permissionRequest('t1', { kind: 'edit' }), CancellationToken.None);
    const [id] = await parked(broker);
    assert.equal(card(thread, 't1').status, 'waitingForConfirmation');
    assert.deepEqual(card(thread, 't1').permission?.options.map((o) => o.optionId), ['allow', 'always', 'reject']);
    assert.equal(thread.status, 'awaitingPermission');
    assert.equal(broker.respond(id, 'reject'), true);
    assert.equal(broker.respond(id, 'allow'), false, 'a double answer is ignored');
    assert.deepEqual(await answer, selected('reject'));
    assert.equal(card(thread, 't1').permissionOutcome, 'Rejected');
    assert.equal(card(thread, 't1').permission, undefined);
    assert.equal(broker.hasPending, false);
  });

  it('ignores an option the request does not have, and keeps waiting', async () => {
    const { ctx } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const answer = watch(broker.request(permissionRequest('t1'), CancellationToken.None));
    const [id] = await parked(broker);
    assert.equal(broker.respond(id, 'no-such-option'), false);
    await tick();
    assert.equal(answer.value, undefined);
    assert.equal(broker.hasPending, true);
  });

  it('cancelAll answers every pending request cancelled; answers after it are ignored', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const answers = ['a', 'b', 'c'].map((t) => broker.request(permissionRequest(t), CancellationToken.None));
    const ids = await parked(broker, 3);
    broker.cancelAll();
    assert.deepEqual(await Promise.all(answers), [cancelled, cancelled, cancelled]);
    for (const id of ids) assert.equal(broker.respond(id, 'allow'), false, 'an answer after cancel is ignored');
    assert.deepEqual(['a', 'b', 'c'].map((t) => card(thread, t).permissionOutcome), ['Cancelled', 'Cancelled', 'Cancelled']);
    assert.equal(thread.hasPendingPermission(), false);
    assert.equal(broker.hasPending, false);
  });

  it('a request withdrawn by the agent ($/cancel_request) closes its dialog; a later answer is ignored', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const source = new CancellationTokenSource();
    const answer = broker.request(permissionRequest('t1'), source.token);
    const [id] = await parked(broker);
    source.cancel();
    assert.deepEqual(await answer, cancelled);
    assert.equal(broker.respond(id, 'allow'), false);
    assert.equal(card(thread, 't1').permissionOutcome, 'Withdrawn by the agent');
    assert.equal(card(thread, 't1').permission, undefined);
  });

  it('ignores an answer with another session\'s request id', async () => {
    const a = fakeSession('a');
    const b = fakeSession('b');
    const brokerA = new PermissionBroker(a.ctx, fakeEnvironment());
    const brokerB = new PermissionBroker(b.ctx, fakeEnvironment());
    const answerA = watch(brokerA.request(permissionRequest('t1'), CancellationToken.None));
    const answerB = watch(brokerB.request(permissionRequest('t1'), CancellationToken.None));
    const [idA] = await parked(brokerA);
    const [idB] = await parked(brokerB);
    assert.notEqual(idA, idB, 'request ids are unique across sessions');
    assert.equal(brokerB.respond(idA, 'allow'), false);
    await tick();
    assert.equal(answerA.value, undefined);
    assert.equal(answerB.value, undefined);
    assert.equal(brokerA.respond(idA, 'allow'), true);
    await tick();
    assert.deepEqual(answerA.value, selected('allow'));
  });

  it('asks in a notification too when no chat of the session is visible; its answer wins', async () => {
    const { ctx, thread, chat } = fakeSession();
    chat.visible = false;
    const env = fakeEnvironment();
    const broker = new PermissionBroker(ctx, env);
    const answer = broker.request(permissionRequest('t1', { title: 'Edit main.ts', kind: 'edit' }), CancellationToken.None);
    await parked(broker);
    assert.equal(broker.pending[0].notified, true);
    assert.deepEqual(env.prompts.map((p) => [p.agentName, p.title, p.options.map((o) => o.name)]), [['Test agent', 'Edit main.ts', ['Allow', 'Always allow', 'Reject']]]);
    env.answer('always');
    assert.deepEqual(await answer, selected('always'));
    assert.equal(card(thread, 't1').permission, undefined, 'the chat dialog closed');
    assert.equal(card(thread, 't1').permissionOutcome, 'Always allowed');
  });

  it('a notification clicked after the chat answered does nothing', async () => {
    const { ctx, chat, logged } = fakeSession();
    chat.visible = false;
    const env = fakeEnvironment();
    const broker = new PermissionBroker(ctx, env);
    const answer = broker.request(permissionRequest('t1'), CancellationToken.None);
    const [id] = await parked(broker);
    assert.equal(broker.respond(id, 'reject'), true);
    env.answer('allow');
    await tick();
    assert.deepEqual(await answer, selected('reject'));
    assert.ok(logged.some((l) => /late answer/.test(l)), 'the late click is logged');
  });

  it('a dismissed notification leaves the request waiting in the chat; a visible chat gets no notification', async () => {
    const hidden = fakeSession();
    hidden.chat.visible = false;
    const env = fakeEnvironment();
    const broker = new PermissionBroker(hidden.ctx, env);
    const answer = watch(broker.request(permissionRequest('t1'), CancellationToken.None));
    await parked(broker);
    env.answer(undefined);
    await tick();
    assert.equal(answer.value, undefined);
    assert.equal(broker.hasPending, true);

    const visible = fakeSession();
    const env2 = fakeEnvironment();
    const broker2 = new PermissionBroker(visible.ctx, env2);
    void broker2.request(permissionRequest('t2'), CancellationToken.None);
    await parked(broker2);
    assert.equal(env2.prompts.length, 0);
    assert.equal(broker2.pending[0].notified, false);
  });

  describe('with autoApprove "reads"', () => {
    let root: string;
    before(() => { root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-perm-'))); });
    after(() => fs.rmSync(root, { recursive: true, force: true }));

    it('answers a read inside the roots with allow_once, visibly, without asking', async () => {
      const { ctx, thread } = fakeSession('s1', root);
      const env = fakeEnvironment('reads');
      const broker = new PermissionBroker(ctx, env);
      const answer = await broker.request(permissionRequest('r1', { kind: 'read', locations: [{ path: path.join(root, 'a.ts') }] }), CancellationToken.None);
      assert.deepEqual(answer, selected('allow'));
      assert.equal(card(thread, 'r1').permissionOutcome, 'Auto-approved (reads): Allow');
      assert.equal(card(thread, 'r1').permission, undefined);
      assert.equal(broker.hasPending, false);
    });

    it('uses the kind and locations of the announced tool call when the request only names it', async () => {
      const { ctx, thread } = fakeSession('s1', root);
      thread.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'r2', title: 'Read', kind: 'read', locations: [{ path: path.join(root, 'b.ts') }] });
      const broker = new PermissionBroker(ctx, fakeEnvironment('reads'));
      assert.deepEqual(await broker.request({ sessionId: 's1', toolCall: { toolCallId: 'r2' }, options }, CancellationToken.None), selected('allow'));
    });

    it('still asks for an edit, and for a read outside the roots', async () => {
      const { ctx } = fakeSession('s1', root);
      const broker = new PermissionBroker(ctx, fakeEnvironment('reads'));
      void broker.request(permissionRequest('e1', { kind: 'edit', locations: [{ path: path.join(root, 'a.ts') }] }), CancellationToken.None);
      void broker.request(permissionRequest('r3', { kind: 'read', locations: [{ path: path.join(os.tmpdir(), 'elsewhere.txt') }] }), CancellationToken.None);
      await parked(broker, 2);
      assert.deepEqual(broker.pending.map((p) => p.toolCallId).sort(), ['e1', 'r3']);
      broker.cancelAll();
    });

    it('a cancel while the policy is being checked answers cancelled and never parks the request', async () => {
      const { ctx, thread } = fakeSession('s1', root);
      const broker = new PermissionBroker(ctx, fakeEnvironment('reads'));
      const answer = broker.request(permissionRequest('r4', { kind: 'read', locations: [{ path: path.join(root, 'x') }] }), CancellationToken.None);
      broker.cancelAll();
      assert.deepEqual(await answer, cancelled);
      assert.equal(broker.hasPending, false);
      assert.equal(thread.hasPendingPermission(), false);
      assert.equal(card(thread, 'r4').permissionOutcome, 'Cancelled');
    });
  });

  it('after dispose, requests are answered cancelled at once', async () => {
    const { ctx } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const pending = broker.request(permissionRequest('t1'), CancellationToken.None);
    await parked(broker);
    broker.dispose();
    assert.deepEqual(await pending, cancelled);
    assert.deepEqual(await broker.request(permissionRequest('t2'), CancellationToken.None), cancelled);
  });
});
