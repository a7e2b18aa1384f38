/**
 * Retry and Edit & Resend of a message send their prompt as the next turn: a running turn is cancelled and
 * its end awaited first (docs/errors-and-cancellation.md#a-turn-always-ends), and the prompt goes before the queued
 * ones. Against test/fixtures/agents/scenarios/messageActions.json, in the real extension host.
 */
import * as assert from 'node:assert/strict';
import type { SwitchboardTestApi } from '../../src/api';
import { api, until, useScriptedAgent } from './helpers';

describe('message actions: a prompt sent again as the next turn', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => { await sb.stopAll(); });

  const said = (id: string) => (sb.snapshot(id)?.entries ?? []).flatMap((e) => {
    if (e.kind === 'user') return [`user: ${e.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`];
    return e.kind === 'agent' ? [`agent: ${e.text}`] : [];
  });

  it('cancels the running turn, waits for its end, then sends before the queued prompt', async () => {
    const agent = await useScriptedAgent('messageActions', { SCRIPTED_AGENT_DELAY_SCALE: '1' });
    const id = await sb.newSession(agent);
    const session = sb.session(id);
    assert.ok(session);
    const slow = sb.prompt(id, 'slow question');
    await until(() => said(id).some((s) => s.startsWith('agent: A slow')), 'the slow answer streams');
    await session.submit('queued one');
    assert.equal(session.queue.size, 1, 'queued while the turn runs');
    const sent = session.sendNext([{ type: 'text', text: 'edited question' }]);
    assert.equal(session.turnEnd.isStopping, true, 'the running turn is being cancelled');
    await slow;
    await sent;
    await until(() => said(id).filter((s) => s.startsWith('agent: Answer')).length === 2 && sb.snapshot(id)?.state.status === 'idle', 'both prompts answered');
    const lines = said(id);
    assert.match(lines[1], /\[cancelled\]$/, lines.join('\n'));
    assert.ok(!lines[1].includes('not reached'), lines.join('\n'));
    assert.deepEqual(lines.filter((s) => s.startsWith('user:')), ['user: slow question', 'user: edited question', 'user: queued one']);
  });

  it('also after a turn that does not go on to the queue (the Retry of an error notice)', async () => {
    const agent = await useScriptedAgent('messageActions', { SCRIPTED_AGENT_DELAY_SCALE: '1' });
    const id = await sb.newSession(agent);
    const session = sb.session(id);
    assert.ok(session);
    const first = sb.prompt(id, 'slow question');
    await until(() => said(id).some((s) => s.startsWith('agent: A slow')), 'the slow answer streams');
    sb.cancel(id);
    await first;
    const retried = session.retryLastPrompt();
    await until(() => said(id).filter((s) => s.startsWith('agent: A slow')).length === 2, 'the retried answer streams');
    const sent = session.sendNext([{ type: 'text', text: 'edited question' }]);
    await retried;
    await sent;
    await until(() => said(id).some((s) => s.startsWith('agent: Answer')) && sb.snapshot(id)?.state.status === 'idle', 'the edited prompt answered');
    assert.deepEqual(said(id).filter((s) => s.startsWith('user:')), ['user: slow question', 'user: slow question', 'user: edited question']);
  });

  it('sends at once when the session is idle', async () => {
    const agent = await useScriptedAgent('messageActions');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'first');
    await sb.session(id)?.sendNext([{ type: 'text', text: 'again' }]);
    assert.deepEqual(said(id), ['user: first', 'agent: Answer 1 with **bold** text and `code`.', 'user: again', 'agent: Answer 2 with **bold** text and `code`.']);
  });
});
