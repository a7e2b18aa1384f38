import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { maxAgentNotices, noticeSeverity } from '../../../src/thread/model/agentNotices';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ThreadChange } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';
import { entryToView, stateToView } from '../../../src/thread/view/toView';
import { unadvertisedCapability } from '../../../src/thread/model/updateKinds';
import { header } from '../helpers/header';

const text = (t: string) => ({ type: 'text' as const, text: t });
/** An update as it comes off the wire: parsed by the generated schema (null stays null, omitted stays omitted). */
const wire = (u: Record<string, unknown>): SessionUpdate => zSessionUpdate.parse(u);

function thread() {
  const t = new AcpThread('s1', { info: () => undefined });
  const changes: ThreadChange[] = [];
  t.onDidChange((c) => changes.push(c));
  return { t, changes };
}

describe('agent notices (session/update notice)', () => {
  it('are thread state, newest first, not entries: nothing in the transcript, the export or the entry changes', () => {
    const { t, changes } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('hello') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5 s' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'notice', severity: 'info', title: 'Model switched' }));
    assert.deepEqual(t.entries.map((e) => e.kind), ['agent'], 'no entry for a notice');
    assert.deepEqual(t.notices.items.map((n) => n.title), ['Model switched', 'Rate limited']);
    assert.deepEqual(stateToView(t, header('A')).notices, [
      { id: 'n2', severity: 'info', title: 'Model switched' },
      { id: 'n1', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5 s' },
    ]);
    assert.deepEqual(changes.slice(1), [{ type: 'notices' }, { type: 'notices' }], 'a state change, never an entry change the transcript store records');
    assert.equal(toMarkdown(t.entries), '## Agent\n\nhello\n');
  });

  it('show unknown and _-prefixed severities as info, and keep at most a few (the oldest expire)', () => {
    assert.deepEqual(['info', 'warning', 'error', 'critical', '_vendor', ''].map(noticeSeverity), ['info', 'warning', 'error', 'info', 'info', 'info']);
    const { t } = thread();
    for (let i = 1; i <= maxAgentNotices + 2; i++) t.handleSessionUpdate(wire({ sessionUpdate: 'notice', severity: '_x', title: `n${i}` }));
    assert.equal(t.notices.items.length, maxAgentNotices);
    assert.equal(t.notices.items[0]?.title, `n${maxAgentNotices + 2}`);
    assert.ok(t.notices.items.every((n) => n.severity === 'info'));
  });

  it('are dismissed by id (an unknown id changes nothing); an empty title still shows something', () => {
    const { t, changes } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'notice', severity: 'error', title: '  ', description: null }));
    const [n] = t.notices.items;
    assert.equal(n?.title, 'Notice from the agent');
    assert.equal(n?.description, undefined);
    assert.equal(t.notices.dismiss('nope'), false);
    assert.equal(t.notices.dismiss(n?.id ?? ''), true);
    assert.deepEqual(t.notices.items, []);
    assert.equal(stateToView(t, header('A')).notices, undefined);
    assert.equal(changes.length, 2);
  });

  it('are not brought back by restore (a reload shows the stored transcript only)', () => {
    const { t } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'notice', severity: 'info', title: 'live' }));
    const reloaded = new AcpThread('s1');
    reloaded.restore(t.entries, 'T', []);
    assert.deepEqual(reloaded.notices.items, []);
  });
});

describe('context compaction (compaction_update, compaction_summary_chunk)', () => {
  it('is one entry per compactionId, at the place of its first notification, upserted by later ones', () => {
    const { t, changes } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('before') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'agent_message_chunk', content: text('after') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('The user ') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('wants **tests**.') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }));
    assert.deepEqual(t.entries.map((e) => e.kind), ['agent', 'compaction', 'agent']);
    assert.deepEqual(entryToView(t.entries[1]!), {
      kind: 'compaction', id: 'e2', compactionId: 'c1', status: 'completed', summary: 'The user wants **tests**.', blocks: [],
    });
    assert.deepEqual(changes.filter((c) => c.type === 'entry' && c.index === 1).length, 4, 'created once, then patched in place three times');
  });

  it('patches summary, error and _meta: omitted is unchanged, null clears, summary [] clears', () => {
    const { t } = thread();
    const entry = () => t.entries[0] as unknown as { status: string; summary: unknown[]; error?: string; meta?: unknown };
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress', summary: [text('draft')], error: 'slow', _meta: { a: 1 } }));
    assert.deepEqual([entry().summary, entry().error, entry().meta], [[text('draft')], 'slow', { a: 1 }]);
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress' }));
    assert.deepEqual([entry().summary, entry().error, entry().meta], [[text('draft')], 'slow', { a: 1 }], 'omitted: unchanged');
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: null, _meta: null, summary: null }));
    assert.deepEqual([entry().summary, entry().error, entry().meta], [[], undefined, undefined], 'null clears');
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', summary: [text('x')], error: 'Out of tokens' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', summary: [] }));
    assert.deepEqual([entry().summary, entry().error], [[], 'Out of tokens'], 'summary [] clears; the error stays');
    assert.deepEqual(entryToView(t.entries[0]!), { kind: 'compaction', id: 'e1', compactionId: 'c', status: 'failed', summary: '', blocks: [], error: 'Out of tokens' });
  });

  it('a chunk for an id never seen creates an in-progress compaction; an unknown status shows as other', () => {
    const { t } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'new', content: text('Summary') }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'new', content: { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' } }));
    assert.deepEqual(entryToView(t.entries[0]!), {
      kind: 'compaction', id: 'e1', compactionId: 'new', status: 'in_progress', summary: 'Summary', blocks: [{ type: 'resource', uri: 'file:///a.ts', name: 'a.ts' }],
    });
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'new', status: '_paused' }));
    assert.equal(entryToView(t.entries[0]!).kind === 'compaction' && (entryToView(t.entries[0]!) as { status: string }).status, 'other');
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'other', status: 'cancelled' }));
    assert.equal(t.entries.length, 2, 'another id is another compaction');
  });

  it('is upserted by id after a restore too, and exported as a collapsed section', () => {
    const { t } = thread();
    t.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress', summary: [text('Kept: the plan.')] }));
    const restored = new AcpThread('s1');
    restored.restore(JSON.parse(JSON.stringify(t.entries)), 'T', []);
    restored.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }));
    assert.equal(restored.entries.length, 1);
    assert.equal(toMarkdown(restored.entries), '## Agent\n\n<details><summary>Context compacted (completed)</summary>\n\nKept: the plan.\n\n</details>\n');
    restored.handleSessionUpdate(wire({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'failed', summary: [], error: 'no room' }));
    assert.equal(toMarkdown(restored.entries), '## Agent\n\n<details><summary>Context compacted (failed)</summary>\n\n**Error:** no room\n\n</details>\n');
  });
});

describe('capability gates of session updates', () => {
  it('names the capability a notice or compaction update needs when it was not advertised', () => {
    const none = {};
    const both = { session: { notices: {}, compaction: {} } };
    assert.equal(unadvertisedCapability({ sessionUpdate: 'notice' }, none), 'session.notices');
    assert.equal(unadvertisedCapability({ sessionUpdate: 'compaction_update' }, { session: { notices: {} } }), 'session.compaction');
    assert.equal(unadvertisedCapability({ sessionUpdate: 'compaction_summary_chunk' }, { session: { compaction: null } }), 'session.compaction');
    assert.equal(unadvertisedCapability({ sessionUpdate: 'notice' }, both), undefined);
    assert.equal(unadvertisedCapability({ sessionUpdate: 'compaction_summary_chunk' }, both), undefined);
    assert.equal(unadvertisedCapability({ sessionUpdate: 'agent_message_chunk' }, none), undefined);
  });
});
