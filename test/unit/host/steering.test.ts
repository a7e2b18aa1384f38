/** Steering ("Send now", docs/chat.md): the advertisement, the answer's schema, and what each answer does to the thread and the queue. */
import * as assert from 'node:assert/strict';
import type { ContentBlock } from '../../../src/acp/schema/types.gen';
import { advertisesSteering, steeringAnswerSchema, steeringParams } from '../../../src/acp/steering';
import type { SteeringAnswer } from '../../../src/acp/steering';
import { PromptQueue } from '../../../src/host/prompts/promptQueue';
import { Steering } from '../../../src/host/prompts/steering';
import type { SteeringDeps } from '../../../src/host/prompts/steering';
import { entryKinds } from '../../../src/thread/model/entryKinds';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryView } from '../../../src/thread/view/toView';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';

const text = (t: string): ContentBlock => ({ type: 'text', text: t });

function harness(answer: (prompt: readonly ContentBlock[]) => Promise<SteeringAnswer>) {
  const thread = new AcpThread('s1', { info: () => undefined });
  const sent: { first: string[]; queued: string[]; steered: string[] } = { first: [], queued: [], steered: [] };
  const deps: SteeringDeps = {
    agentName: 'Agent',
    thread,
    blocks: async (t) => (t === 'unreadable' ? Promise.reject(new Error('no such file')) : t ? [text(t)] : []),
    send: (prompt) => {
      sent.steered.push(prompt.map((b) => (b.type === 'text' ? b.text : b.type)).join(''));
      return answer(prompt);
    },
    sendFirst: (t) => void sent.first.push(t),
    queue: (t) => void sent.queued.push(t),
  };
  return { thread, sent, steering: new Steering(deps) };
}

const parse = (raw: unknown) => steeringAnswerSchema.parse(raw);

describe('steering', () => {
  it('is advertised only by `_meta.steering.supported === true` at the top of the initialize answer', () => {
    assert.equal(advertisesSteering({ protocolVersion: 1, _meta: { steering: { supported: true } } }), true);
    assert.equal(advertisesSteering({ protocolVersion: 1, _meta: { steering: { supported: 'yes' } } }), false);
    assert.equal(advertisesSteering({ protocolVersion: 1, agentCapabilities: { _meta: { steering: { supported: true } } } }), false, 'not inside agentCapabilities');
    assert.equal(advertisesSteering({ protocolVersion: 1, _meta: null }), false);
    assert.equal(advertisesSteering(undefined), false);
  });

  it('sends the message with the idle behaviour promptRequired', () => {
    assert.deepEqual(steeringParams('s1', [text('hi')]), { sessionId: 's1', prompt: [text('hi')], _meta: { steering: { idleBehavior: 'promptRequired' } } });
  });

  it('reads the answer: known outcomes, an unknown one kept as said, a bad one refused', () => {
    assert.deepEqual(parse({ outcome: 'injected' }), { outcome: 'injected', said: 'injected' });
    assert.deepEqual(parse({ outcome: 'promptRequired', reason: 'noRunningTurn', extra: 1 }), { outcome: 'promptRequired', said: 'promptRequired', reason: 'noRunningTurn' });
    assert.deepEqual(parse({ outcome: 'queued' }), { outcome: 'unknown', said: 'queued' });
    assert.deepEqual(parse({ outcome: 'failed', reason: 42 }), { outcome: 'failed', said: 'failed' }, 'a bad reason is dropped, not the answer');
    assert.equal(steeringAnswerSchema.safeParse({}).success, false);
    assert.equal(steeringAnswerSchema.safeParse({ outcome: 'x'.repeat(201) }).success, false);
  });

  it('injected: the message shows where the agent took it, marked, and is not queued', async () => {
    const { thread, sent, steering } = harness(async () => ({ outcome: 'injected', said: 'injected' }));
    thread.addUserMessage([text('first')]);
    await steering.steer('also check the tests', []);
    const last = thread.entries[thread.entries.length - 1];
    assert.equal(last.kind === 'user' && last.steered, 'injected');
    const view = entryView(last, {});
    assert.equal(view.kind === 'user' && view.steered, 'injected');
    assert.deepEqual(sent, { first: [], queued: [], steered: ['also check the tests'] });
    assert.match(toMarkdown(thread.entries), /_Sent while the agent worked._\n\nalso check the tests/);
  });

  it('promptRequired: nothing was taken, so it goes first as the next prompt, and the thread shows nothing yet', async () => {
    const { thread, sent, steering } = harness(async () => ({ outcome: 'promptRequired', said: 'promptRequired', reason: 'noRunningTurn' }));
    await steering.steer('late', []);
    assert.deepEqual(sent.first, ['late']);
    assert.equal(thread.entries.length, 0);
  });

  it('startedNewTurn: shown, with a notice that its end is not known', async () => {
    const { thread, steering } = harness(async () => ({ outcome: 'startedNewTurn', said: 'startedNewTurn' }));
    await steering.steer('go on', []);
    const [message, notice] = thread.entries;
    assert.equal(message.kind === 'user' && message.steered, 'startedNewTurn');
    assert.ok(notice.kind === 'notice' && /turn of its own/.test(notice.text));
  });

  it('failed, an error, an unreadable attachment or an unknown outcome: a notice with Queue It; only the newest offers it', async () => {
    const answers: (() => Promise<SteeringAnswer>)[] = [
      async () => ({ outcome: 'failed', said: 'failed', reason: 'the model is busy' }),
      () => Promise.reject(new Error('Method not found')),
      async () => ({ outcome: 'unknown', said: 'queued' }),
    ];
    const { thread, sent, steering } = harness(() => (answers.shift() as () => Promise<SteeringAnswer>)());
    await steering.steer('one', []);
    const notices = () => thread.entries.filter((e) => e.kind === 'notice');
    assert.match(notices()[0].kind === 'notice' ? notices()[0].text : '', /"one" was not sent into the running turn \(the model is busy\)/);
    await steering.steer('two', []);
    await steering.steer('three', []);
    await steering.steer('unreadable', []);
    const texts = notices().map((n) => (n.kind === 'notice' ? `${n.text} [${n.action ?? ''}]` : ''));
    assert.match(texts[1], /Method not found/);
    assert.match(texts[2], /answered "queued", which Switchboard does not know/);
    assert.match(texts[3], /could not be read: no such file\)\. .*\[queue\]$/);
    assert.deepEqual(texts.map((t) => t.endsWith('[queue]')), [false, false, false, true], 'only the newest offers Queue It');
    assert.equal(steering.queueUntaken(), true);
    assert.deepEqual(sent.queued, ['unreadable']);
    assert.equal(notices().some((n) => n.kind === 'notice' && n.action === 'queue'), false, 'queued: the button is gone');
    assert.equal(steering.queueUntaken(), false, 'nothing twice');
    assert.equal(sent.steered.length, 3, 'the unreadable one was never sent');
  });

  it('one steer at a time: the second waits for the first answer', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => { release = r; });
    const { steering } = harness(async (prompt) => {
      const t = prompt[0].type === 'text' ? prompt[0].text : '';
      order.push(`send ${t}`);
      if (t === 'a') await gate;
      order.push(`answer ${t}`);
      return { outcome: 'injected', said: 'injected' };
    });
    const a = steering.steer('a', []);
    const b = steering.steer('b', []);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(order, ['send a']);
    release();
    await Promise.all([a, b]);
    assert.deepEqual(order, ['send a', 'answer a', 'send b', 'answer b']);
  });

  it('a restored notice no longer offers Queue It (the message was only in memory)', () => {
    const settled = entryKinds.notice.settle({ kind: 'notice', id: 'n1', level: 'warning', text: 'not sent', action: 'queue' }, (e) => e);
    assert.equal(settled.action, undefined);
    const kept = entryKinds.notice.settle({ kind: 'notice', id: 'n2', level: 'info', text: 'exited', action: 'resend' }, (e) => e);
    assert.equal(kept.action, 'resend');
  });

  it('the queue takes a message first', () => {
    const q = new PromptQueue();
    q.add('b');
    q.add('a', [], true);
    assert.deepEqual(q.items.map((i) => i.text), ['a', 'b']);
  });
});
