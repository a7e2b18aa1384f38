import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { owningSession } from '../../../src/thread/model/subagents';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ThreadChange } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';
import { entryView, nestedEntryView, sessionNames, stateToView, threadSnapshot } from '../../../src/thread/view/toView';
import { unadvertisedCapability } from '../../../src/thread/model/updateKinds';
import { header } from '../helpers/header';

const text = (t: string) => ({ type: 'text' as const, text: t });
/** An update as it comes off the wire: parsed by the generated schema (null stays null, omitted stays omitted). */
const wire = (u: Record<string, unknown>): SessionUpdate => zSessionUpdate.parse(u);
const step = (content: string, status: string) => ({ content, priority: 'high', status });

function thread() {
  const logged: string[] = [];
  const t = new AcpThread('s1', { info: (m) => logged.push(m) });
  const changes: ThreadChange[] = [];
  t.onDidChange((c) => changes.push(c));
  return { t, changes, logged };
}

describe('plans by id (plan_update, plan_removed)', () => {
  it('replace the plan of their id in place, add new ids after the others, and remove by id', () => {
    const { t, changes } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [step('one', 'in_progress')] } }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'b', content: '## Notes' } }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'c', uri: 'file:///w/PLAN.md' } }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [step('one', 'completed'), step('two', 'pending')] } }));
    assert.deepEqual(stateToView(t, header('A')).plans, [
      { planId: 'a', type: 'items', entries: [{ content: 'one', priority: 'high', status: 'completed' }, { content: 'two', priority: 'high', status: 'pending' }] },
      { planId: 'b', type: 'markdown', content: '## Notes' },
      { planId: 'c', type: 'file', uri: 'file:///w/PLAN.md' },
    ]);
    // a plan may change its format: it keeps its place
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'a', content: 'now prose' } }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_removed', planId: 'b' }));
    assert.deepEqual(stateToView(t, header('A')).plans?.map((p) => [p.planId, p.type]), [['a', 'markdown'], ['c', 'file']]);
    assert.ok(changes.every((c) => c.type === 'plan'), 'state changes only, never entries');
    assert.deepEqual(t.entries, []);
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_removed', planId: 'a' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_removed', planId: 'c' }));
    assert.equal(stateToView(t, header('A')).plans, undefined, 'no plans: absent from the view');
  });

  it('tolerate an unknown plan type and an unknown id (logged, nothing changes), and leave the legacy plan alone', () => {
    const { t, changes, logged } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan', entries: [step('legacy', 'pending')] }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'a', content: 'kept' } }));
    const before = changes.length;
    t.handleSessionUpdate({ sessionUpdate: 'plan_update', plan: { type: 'diagram', planId: 'a', svg: '<svg/>' } } as unknown as SessionUpdate);
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_removed', planId: 'nope' }));
    assert.equal(changes.length, before);
    assert.deepEqual(stateToView(t, header('A')).plans, [{ planId: 'a', type: 'markdown', content: 'kept' }]);
    assert.deepEqual(stateToView(t, header('A')).plan.map((p) => p.content), ['legacy']);
    assert.ok(logged.some((m) => /unknown type 'diagram'/.test(m)), logged.join('\n'));
    assert.ok(logged.some((m) => /plan_removed for the unknown plan 'nope'/.test(m)));
  });

  it('show the unfinished steps of item plans as cancelled after Stop, until the plan is updated again', () => {
    const { t } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [step('done', 'completed'), step('next', 'in_progress')] } }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'b', entries: [step('all done', 'completed')] } }));
    t.cancelUnfinishedToolCalls();
    const [a, b] = stateToView(t, header('A')).plans ?? [];
    assert.ok(a?.type === 'items' && b?.type === 'items');
    assert.deepEqual(a.entries.map((e) => e.status), ['completed', 'cancelled']);
    assert.deepEqual(b.entries.map((e) => e.status), ['completed']);
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [step('next', 'in_progress')] } }));
    const again = stateToView(t, header('A')).plans?.[0];
    assert.ok(again?.type === 'items' && again.entries[0]?.status === 'in_progress');
  });
});

describe('updates that need a capability (src/thread/model/updateKinds.ts)', () => {
  it('name the missing plan or subagents capability, and nothing once it is advertised', () => {
    for (const kind of ['plan_update', 'plan_removed'] as const) {
      assert.equal(unadvertisedCapability({ sessionUpdate: kind }, {}), 'plan');
      assert.equal(unadvertisedCapability({ sessionUpdate: kind }, { plan: null }), 'plan');
      assert.equal(unadvertisedCapability({ sessionUpdate: kind }, { plan: {} }), undefined);
    }
    for (const kind of ['subagent_update', 'session_message', 'session_message_chunk'] as const) {
      assert.equal(unadvertisedCapability({ sessionUpdate: kind }, { plan: {} }), 'subagents');
      assert.equal(unadvertisedCapability({ sessionUpdate: kind }, { subagents: {} }), undefined);
    }
    assert.equal(unadvertisedCapability({ sessionUpdate: 'notice' }, { plan: {}, subagents: {} }), 'session.notices');
    assert.equal(unadvertisedCapability({ sessionUpdate: 'plan' }, {}), undefined, 'the legacy plan needs none');
  });
});

describe('subagents (subagent_update and the child\'s own updates)', () => {
  it('puts a child\'s messages, thoughts and tool calls in its card, at the place of its announcement', () => {
    const { t, changes } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('Delegating.') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Parent call' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore', description: 'Finds things', capabilities: { cancel: {} }, state: { state: 'running' } }));
    changes.length = 0;
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_thought_chunk', content: text('Hmm.') }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('Looking ') }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('around.') }), 'c1');
    // the child's ids are its own: t1 here is not the parent's t1
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Child call', status: 'in_progress' }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('Back to me.') }));
    assert.deepEqual(t.entries.map((e) => e.kind), ['agent', 'toolCall', 'subagent', 'agent'], 'the parent goes on after the card');
    const card = t.entries[2];
    assert.ok(card?.kind === 'subagent');
    assert.deepEqual(card.entries.map((e) => e.kind), ['thought', 'agent', 'toolCall']);
    assert.equal(t.toolCall('t1')?.title, 'Parent call');
    assert.equal(t.toolCall('t1', 'c1')?.status, 'completed');
    assert.deepEqual(changes.slice(0, 5), [
      { type: 'subEntry', index: 2, path: [0] },
      { type: 'subEntry', index: 2, path: [1] },
      { type: 'subAppend', index: 2, path: [1], text: 'around.' },
      { type: 'subEntry', index: 2, path: [2] },
      { type: 'subEntry', index: 2, path: [2] },
    ], 'changes inside the card name its place: appends stay O(chunk)');
    const view = entryView(card, sessionNames(t));
    assert.ok(view.kind === 'subagent');
    assert.deepEqual([view.title, view.description, view.status, view.canCancel], ['Explore', 'Finds things', 'running', true]);
    assert.deepEqual(view.entries.map((e) => (e.kind === 'agent' ? e.text : e.kind)), ['thought', 'Looking around.', 'toolCall']);
    assert.deepEqual(nestedEntryView(t, 2, [1]), view.entries[1]);
    assert.equal(nestedEntryView(t, 0, [0]), undefined, 'not a card');
  });

  it('patches a card: omitted unchanged, null cleared, a state replaced whole; shows done, failed, cancelled', () => {
    const { t } = thread();
    const status = () => { const v = entryView(t.entries[0]!, {}); return v.kind === 'subagent' ? [v.status, v.detail, v.canCancel, v.title] : []; };
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Worker', capabilities: { cancel: {} } }));
    assert.deepEqual(status(), ['unknown', undefined, true, 'Worker'], 'never reported: unknown');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'requires_action' } }));
    assert.deepEqual(status(), ['waiting', undefined, true, 'Worker']);
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'error', error: { code: -32603, message: 'Crashed.' } } }));
    assert.deepEqual(status(), ['failed', 'Crashed.', false, 'Worker'], 'finished: nothing to cancel');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: null, capabilities: null, state: { state: 'running' } }));
    assert.deepEqual(status(), ['running', undefined, false, undefined], 'null clears the title and the capabilities');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'cancelled' } }));
    assert.equal(status()[0], 'cancelled');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'end_turn' } }));
    assert.equal(status()[0], 'done');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: '_vendor_paused' } }));
    assert.equal(status()[0], 'unknown', 'a state of a newer protocol');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: null }));
    assert.equal(status()[0], 'unknown');
    assert.equal(t.entries.length, 1, 'upserted, never repeated');
  });

  it('nests a subagent\'s own subagents, keeps a child where it was announced, and ignores unknown and looping ids', () => {
    const { t, logged, changes } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Child' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'g1', title: 'Grandchild' }), 'c1');
    changes.length = 0;
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('deep') }), 'g1');
    assert.deepEqual(changes, [{ type: 'subEntry', index: 0, path: [0, 0] }]);
    // a later update on another session patches the card where it is
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'g1', title: 'Renamed' }));
    assert.equal(t.entries.length, 1);
    assert.equal(t.subagent('g1')?.title, 'Renamed');
    const view = nestedEntryView(t, 0, [0]);
    assert.ok(view?.kind === 'subagent' && view.title === 'Renamed' && view.entries[0]?.kind === 'agent');
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('lost?') }), 'stranger');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 's1', title: 'myself' }), 'c1');
    assert.equal(t.subagent('s1'), undefined);
    assert.ok(logged.some((m) => /unknown session 'stranger'/.test(m)));
    assert.ok(logged.some((m) => /names the session 's1' as a subagent of itself/.test(m)));
    t.handleSessionUpdate(wire({ sessionUpdate: 'usage_update', used: 1, size: 2 }), 'c1');
    assert.ok(logged.some((m) => /ignored session\/update 'usage_update' of the subagent 'c1'/.test(m)));
    assert.equal(t.usage, undefined, 'a child\'s usage is not the session\'s');
  });

  it('keeps a subagent\'s plans in its card, and messages between sessions with who sent them', () => {
    const { t } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan', entries: [step('look', 'in_progress')] }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'm', content: 'notes' } }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'session_message', messageId: 'm1', senderSessionId: 's1', recipientSessionId: 'c1', content: [text('Find ')] }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'session_message_chunk', messageId: 'm1', content: text('retry().') }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'session_message', messageId: 'm2', senderSessionId: 's1', recipientSessionId: 'c1', content: [text('Sent.')] }));
    assert.deepEqual(stateToView(t, header('A')).plan, [], 'not the session\'s plan');
    const view = threadSnapshot(t, header('A'), 0).entries;
    const card = view[0];
    assert.ok(card?.kind === 'subagent');
    assert.deepEqual(card.plans, [
      { planId: '', type: 'items', entries: [{ content: 'look', priority: 'high', status: 'in_progress' }] },
      { planId: 'm', type: 'markdown', content: 'notes' },
    ]);
    assert.deepEqual(card.entries, [{ kind: 'sessionMessage', id: 'e2', direction: 'in', peer: 'the main agent', text: 'Find retry().', blocks: [] }]);
    assert.deepEqual(view[1], { kind: 'sessionMessage', id: 'e3', direction: 'out', peer: 'Explore', text: 'Sent.', blocks: [] });
    t.handleSessionUpdate(wire({ sessionUpdate: 'session_message', messageId: 'm1', content: null }), 'c1');
    const cleared = entryView(t.entries[0]!, sessionNames(t));
    assert.ok(cleared.kind === 'subagent' && cleared.entries[0]?.kind === 'sessionMessage' && cleared.entries[0].text === '');
    assert.match(toMarkdown(t.entries), /<details><summary>Subagent: Explore \(unknown\)<\/summary>/);
  });

  it('parks a subagent\'s permission request in its card; Stop leaves its work alone, the agent\'s exit settles it', () => {
    const { t } = thread();
    t.setStatus('working');
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'Parent write', status: 'in_progress' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'running' } }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'Child write', status: 'pending' }), 'c1');
    t.setPermission({ toolCallId: 'w' }, 'p1', [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }], 'c1');
    assert.equal(t.status, 'awaitingPermission');
    assert.equal(t.toolCall('w', 'c1')?.status, 'waitingForConfirmation');
    assert.equal(t.toolCall('w')?.permission, undefined, 'not on the parent\'s call of the same id');
    assert.ok(t.hasPendingPermission());
    t.clearPermission('p1', 'Allowed once');
    assert.deepEqual([t.toolCall('w', 'c1')?.status, t.toolCall('w', 'c1')?.permissionOutcome, t.status], ['pending', 'Allowed once', 'working']);
    t.cancelUnfinishedToolCalls();
    assert.equal(t.toolCall('w')?.status, 'cancelled');
    assert.equal(t.toolCall('w', 'c1')?.status, 'pending', 'a subagent may go on after its parent\'s turn');
    assert.equal(t.subagent('c1')?.state?.state, 'running');
    t.cancelUnfinishedToolCalls('all');
    assert.equal(t.toolCall('w', 'c1')?.status, 'cancelled');
    assert.deepEqual(t.subagent('c1')?.state, { state: 'idle', stopReason: 'cancelled' });
  });

  it('routes again after a restore, and new entry ids go on after the nested ones', () => {
    const { t } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('inside') }), 'c1');
    const stored = JSON.parse(JSON.stringify(t.entries)) as typeof t.entries;
    const back = new AcpThread('s1');
    back.restore(stored, 'T', [], [], [{ planId: 'p', type: 'markdown', content: 'x' }]);
    back.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text(' more') }), 'c1');
    back.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('after') }));
    const card = back.subagent('c1');
    assert.ok(card?.entries[0]?.kind === 'agent' && card.entries[0].text === 'inside more');
    assert.deepEqual(back.entries.map((e) => e.id), ['e1', 'e3'], 'e2 is the card\'s message');
    assert.deepEqual(stateToView(back, header('A')).plans, [{ planId: 'p', type: 'markdown', content: 'x' }]);
  });

  it('finds the session that owns a subagent\'s id (the agent host\'s routing)', () => {
    const a = { sessionId: 'a', thread: new AcpThread('a') };
    const b = { sessionId: 'b', thread: new AcpThread('b') };
    b.thread.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1' }));
    b.thread.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'g1' }), 'c1');
    assert.equal(owningSession([a, b], 'a'), a);
    assert.equal(owningSession([a, b], 'c1'), b);
    assert.equal(owningSession([a, b], 'g1'), b, 'a nested one too');
    assert.equal(owningSession([a, b], 'unknown'), undefined, 'never announced: not routed');
  });
});
