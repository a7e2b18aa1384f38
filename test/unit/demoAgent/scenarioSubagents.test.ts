import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';
import type { TestClient } from './acpTestClient';

// The `planUpdate`, `planRemoved` and `subagent` steps (plansSubagents.json), driven by the SDK's client side.

const everything = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, plan: {}, subagents: {} };

/** Every `session/update` the agent wrote, as sent (the SDK's client may not model the unstable kinds). */
function sent(c: TestClient): Array<{ sessionId: string; update: Record<string, unknown> & { sessionUpdate: string } }> {
  return c.wire.flatMap((l) => ('json' in l && l.json.method === 'session/update'
    ? [l.json.params as { sessionId: string; update: Record<string, unknown> & { sessionUpdate: string } }] : []));
}

describe('demoAgent / plan and subagent steps', () => {
  const open = useTestClient();

  it('sends plan_update of each type and plan_removed, only to a client that advertised plan', async () => {
    const c = open('plansSubagents', { capabilities: everything });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'plans');
    const plans = sent(c).filter((n) => n.update.sessionUpdate.startsWith('plan_')).map((n) => n.update);
    assert.deepEqual(plans.map((u) => (u.sessionUpdate === 'plan_removed' ? `-${String(u.planId)}` : `${(u.plan as { planId: string; type: string }).planId}:${(u.plan as { type: string }).type}`)),
      ['p-steps:items', 'p-notes:markdown', 'p-file:file', 'p-old:markdown', 'p-future:diagram', 'p-steps:items', '-p-old']);
    assert.deepEqual(plans[2]?.plan, { type: 'file', planId: 'p-file', uri: 'file:///work/project/PLAN.md' });

    const without = open('plansSubagents');
    const other = await without.start();
    await without.prompt(other.sessionId, 'plans');
    assert.equal(sent(without).filter((n) => n.update.sessionUpdate.startsWith('plan_')).length, 0, 'the steps need the capability');
  });

  it('announces a subagent on the parent, streams its work on its own session id, then reports how it ended', async () => {
    const c = open('plansSubagents', { capabilities: everything });
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'subagents'), 'end_turn');
    const explore = `${sessionId}-explore`;
    const all = sent(c);
    const first = all.findIndex((n) => n.sessionId === explore);
    const announce = all.findIndex((n) => n.update.sessionUpdate === 'subagent_update' && n.update.sessionId === explore);
    assert.ok(announce !== -1 && announce < first, 'announced before any update of its own');
    assert.equal(all[announce]?.sessionId, sessionId, 'on the parent session');
    assert.deepEqual(all[announce]?.update, {
      sessionUpdate: 'subagent_update', sessionId: explore, title: 'Explore <b>the</b> code',
      description: 'Finds the call sites [not a link](command:workbench.action.reloadWindow)', capabilities: { cancel: {} }, state: { state: 'running' },
    });
    assert.deepEqual([...new Set(all.filter((n) => n.sessionId === explore).map((n) => n.update.sessionUpdate))],
      ['session_message', 'agent_thought_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update']);
    const ends = all.filter((n) => n.update.sessionUpdate === 'subagent_update' && (n.update.state as { state: string }).state === 'idle').map((n) => n.update);
    assert.deepEqual(ends.map((u) => [u.sessionId, (u.state as { stopReason: string }).stopReason]), [[explore, 'end_turn'], [`${sessionId}-tests`, 'error']]);
    assert.deepEqual((ends[1]?.state as { error: unknown }).error, { code: -32603, message: 'The test runner crashed.' });

    const without = open('plansSubagents');
    const other = await without.start();
    await without.prompt(other.sessionId, 'subagents');
    assert.ok(sent(without).every((n) => n.sessionId === other.sessionId && n.update.sessionUpdate !== 'subagent_update'), 'nothing of subagents without the capability');
  });

  it('asks for permission with the subagent\'s session id', async () => {
    const c = open('plansSubagents', { capabilities: everything });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'permission');
    const request = c.requestsOf('session/request_permission')[0] as { sessionId: string };
    assert.equal(request.sessionId, `${sessionId}-writer`);
    assert.match(sent(c).filter((n) => n.sessionId === `${sessionId}-writer`).map((n) => (n.update.content as { text?: string } | undefined)?.text ?? '').join(''), /\[permission\] allow: /);
  });

  it('stops a subagent\'s work on session/cancel of its session id, and reports it cancelled', async () => {
    const c = open('plansSubagents', { capabilities: everything, env: { SCRIPTED_AGENT_DELAY_SCALE: '1' } });
    const { sessionId } = await c.start();
    const slow = `${sessionId}-slow`;
    const turn = c.prompt(sessionId, 'slow');
    await c.waitFor(() => sent(c).some((n) => n.sessionId === slow), 'the slow subagent\'s first update');
    await c.cancel(slow);
    assert.equal(await turn, 'end_turn', 'the parent\'s turn goes on');
    const text = sent(c).filter((n) => n.sessionId === slow).map((n) => (n.update.content as { text?: string }).text).join('');
    assert.equal(text, 'Working slowly.');
    const last = sent(c).filter((n) => n.update.sessionUpdate === 'subagent_update').at(-1)?.update;
    assert.deepEqual(last?.state, { state: 'idle', stopReason: 'cancelled' });
  });
});
