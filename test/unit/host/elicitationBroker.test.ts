import * as assert from 'node:assert/strict';
import { CancellationToken, CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../../../src/acp/schema/types.gen';
import { ElicitationBroker, ElicitationCompletions } from '../../../src/host/permissions/elicitationBroker';
import type { ElicitationAnswer, ElicitationEnvironment, ElicitationPrompt } from '../../../src/host/permissions/elicitationBroker';
import { elicitationUrl } from '../../../src/host/permissions/elicitationUrl';
import type { ElicitationView } from '../../../src/shared/elicitationModel';
import type { AcpThread } from '../../../src/thread/model/thread';
import { fakeSession } from './permissionHelpers';

type Request = CreateElicitationRequest & { sessionId: string; toolCallId?: string | null };
const form = (extra: Partial<Record<string, unknown>> = {}): Request => ({
  sessionId: 's1', mode: 'form', message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] }, ...extra,
} as unknown as Request);
const url = (href = 'https://example.com/login'): Request => ({ sessionId: 's1', mode: 'url', message: 'Sign in', elicitationId: 'e1', url: href } as unknown as Request);

function fakeEnv(): ElicitationEnvironment & { asked: ElicitationPrompt[]; opened: string[]; answer(a: ElicitationAnswer | undefined): void; closed: boolean[] } {
  const pending: ((a: ElicitationAnswer | undefined) => void)[] = [];
  const env = {
    asked: [] as ElicitationPrompt[], opened: [] as string[], closed: [] as boolean[],
    ask(prompt: ElicitationPrompt, token: CancellationToken) {
      env.asked.push(prompt);
      const i = env.closed.push(false) - 1;
      token.onCancellationRequested(() => { env.closed[i] = true; });
      return new Promise<ElicitationAnswer | undefined>((resolve) => pending.push(resolve));
    },
    openExternal(href: string) { env.opened.push(href); return Promise.resolve(true); },
    answer: (a: ElicitationAnswer | undefined) => pending.shift()?.(a),
  };
  return env;
}

function view(thread: AcpThread, requestId: string): ElicitationView {
  const found = thread.elicitations.find(requestId);
  assert.ok(found, `elicitation ${requestId} in the thread`);
  return found.view;
}

function settledState(p: Promise<CreateElicitationResponse>): { value?: CreateElicitationResponse } {
  const s: { value?: CreateElicitationResponse } = {};
  void p.then((v) => { s.value = v; });
  return s;
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ElicitationBroker', () => {
  it('shows a form as its own entry with defaults; refused values stay with their errors; valid ones are accepted once', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new ElicitationBroker(ctx, fakeEnv());
    const answer = settledState(broker.create(form(), CancellationToken.None, new ElicitationCompletions()));
    const [p] = broker.pending;
    assert.equal(thread.entries.at(-1)?.kind, 'elicitation');
    assert.equal(broker.respond(p.requestId, 'accept', { name: 'x' }), false);
    assert.deepEqual(view(thread, p.requestId).errors, { name: 'Enter at least 2 characters.' });
    assert.deepEqual(view(thread, p.requestId).values, { name: 'x' });
    assert.ok(broker.respond(p.requestId, 'accept', { name: 'Ada' }));
    await tick();
    assert.deepEqual(answer.value, { action: 'accept', content: { name: 'Ada' } });
    assert.equal(view(thread, p.requestId).outcome, 'Accepted');
    assert.equal(broker.respond(p.requestId, 'decline'), false, 'a second answer is ignored');
  });

  it('puts a tool-call-scoped request into the card; decline answers decline', async () => {
    const { ctx, thread } = fakeSession();
    thread.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Deploy' });
    const broker = new ElicitationBroker(ctx, fakeEnv());
    const answer = broker.create(form({ toolCallId: 't1' }), CancellationToken.None, new ElicitationCompletions());
    const card = thread.entries[0];
    assert.equal(card.kind === 'toolCall' && card.elicitations?.length, 1);
    assert.equal(thread.entries.length, 1);
    broker.respond(broker.pending[0].requestId, 'decline');
    assert.deepEqual(await answer, { action: 'decline' });
  });

  it('cancelAll (Stop) answers every pending request cancel; the agent withdrawing one closes it', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new ElicitationBroker(ctx, fakeEnv());
    const a = broker.create(form(), CancellationToken.None, new ElicitationCompletions());
    const withdraw = new CancellationTokenSource();
    const b = broker.create(form(), withdraw.token, new ElicitationCompletions());
    const [, second] = broker.pending;
    withdraw.cancel();
    assert.deepEqual(await b, { action: 'cancel' });
    assert.equal(view(thread, second.requestId).outcome, 'Withdrawn by the agent');
    broker.cancelAll();
    assert.deepEqual(await a, { action: 'cancel' });
    assert.equal(broker.pending.length, 0);
  });

  it('refuses an unknown or custom mode with -32602 and a notice in the chat', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new ElicitationBroker(ctx, fakeEnv());
    for (const mode of ['wizard', '_acme']) {
      assert.throws(() => broker.create({ sessionId: 's1', mode, message: 'x' } as unknown as Request, CancellationToken.None, new ElicitationCompletions()),
        (e: { code?: number; message: string }) => e.code === -32602 && e.message.includes(mode));
    }
    assert.equal(thread.entries.filter((e) => e.kind === 'notice' && /does not support/.test(e.text)).length, 2);
    assert.throws(() => broker.create(url('command:workbench.action.quit'), CancellationToken.None, new ElicitationCompletions()), /http or https/);
  });

  it('URL mode: opens only on accept, answers accept, waits for completion with retry; unknown ids are ignored', async () => {
    const { ctx, thread } = fakeSession();
    const env = fakeEnv();
    const completions = new ElicitationCompletions();
    const broker = new ElicitationBroker(ctx, env);
    const answer = broker.create(url(), CancellationToken.None, completions);
    const [p] = broker.pending;
    assert.deepEqual(env.opened, [], 'nothing opened before the user confirms');
    assert.deepEqual(view(thread, p.requestId).url, { href: 'https://example.com/login', origin: 'https://example.com:443' });
    assert.ok(broker.respond(p.requestId, 'accept'));
    assert.deepEqual(await answer, { action: 'accept' });
    assert.equal(view(thread, p.requestId).state, 'waiting');
    assert.ok(broker.urlAction(p.requestId, 'retry'));
    await tick();
    assert.deepEqual(env.opened, ['https://example.com/login', 'https://example.com/login']);
    assert.equal(completions.complete('other'), false);
    assert.equal(completions.complete('e1'), true);
    assert.equal(view(thread, p.requestId).outcome, 'Completed');
    assert.equal(completions.complete('e1'), false, 'already completed');
  });

  it('asks in the quick input when no chat is visible; the first answer wins and the other closes', async () => {
    const { ctx, chat } = fakeSession();
    chat.visible = false;
    const env = fakeEnv();
    const broker = new ElicitationBroker(ctx, env);
    const answer = broker.create(form(), CancellationToken.None, new ElicitationCompletions());
    assert.equal(env.asked.length, 1);
    assert.equal(broker.pending[0].asked, true);
    env.answer({ action: 'accept', content: { name: 'Grace' } });
    assert.deepEqual(await answer, { action: 'accept', content: { name: 'Grace' } });

    const second = broker.create(form(), CancellationToken.None, new ElicitationCompletions());
    broker.respond(broker.pending[0].requestId, 'decline');
    assert.deepEqual(await second, { action: 'decline' });
    assert.equal(env.closed[1], true, 'the quick input was closed');
  });
});

describe('elicitationUrl', () => {
  it('spells out the origin with its port, warns of punycode, refuses other schemes and credentials', () => {
    assert.deepEqual(elicitationUrl('https://login.example.com:8443/a?b=1'), { ok: true, url: { href: 'https://login.example.com:8443/a?b=1', origin: 'https://login.example.com:8443' } });
    const plain = elicitationUrl('http://example.com');
    assert.equal(plain.ok && plain.url.origin, 'http://example.com:80');
    const idn = elicitationUrl('https://exаmple.com/'); // Cyrillic а
    assert.ok(idn.ok && idn.url.origin.startsWith('https://xn--') && idn.url.warning);
    for (const bad of ['file:///etc/passwd', 'vscode://x', 'javascript:alert(1)', 'https://user:pw@example.com', 'nope']) assert.equal(elicitationUrl(bad).ok, false, bad);
  });
});
