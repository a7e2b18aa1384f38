import * as assert from 'node:assert/strict';
import type { SwitchboardTestApi } from '../../src/api';
import { api, until, useScriptedAgent } from './helpers';

describe('notices and context compaction against a scripted agent', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => { await sb.stopAll(); });

  it('session/load shows the replayed compaction at its place but not the replayed notice; a later notice is live', async () => {
    const agent = await useScriptedAgent('noticesLoad');
    const id = await sb.openSession(agent, 'compacted');
    await until(() => sb.snapshot(id)?.state.notices?.some((n) => n.title === 'Live after load'), 'the notice sent after the load');
    const snap = sb.snapshot(id);
    assert.deepEqual(snap?.entries.map((e) => e.kind), ['user', 'compaction', 'agent']);
    const compaction = snap?.entries[1];
    assert.ok(compaction?.kind === 'compaction');
    assert.equal(compaction.status, 'completed');
    assert.equal(compaction.summary, 'Earlier work, summarised.');
    assert.deepEqual(snap?.state.notices?.map((n) => n.title), ['Live after load'], 'the replayed notice was dropped');
  });

  it('a turn\'s notice is state, its compaction an entry whose summary was streamed; neither needs more than the advertised capabilities', async () => {
    const agent = await useScriptedAgent('noticesLoad');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'go');
    const snap = sb.snapshot(id);
    // the steps run only when initialize advertised session.notices and session.compaction
    assert.deepEqual(snap?.state.notices, [{ id: snap?.state.notices?.[0]?.id, severity: 'error', title: 'Live in a turn', description: 'details' }]);
    const compaction = snap?.entries.find((e) => e.kind === 'compaction');
    assert.ok(compaction?.kind === 'compaction');
    assert.deepEqual([compaction.compactionId, compaction.status, compaction.summary], ['new', 'completed', 'Part one. Part two.']);
    assert.equal(snap?.entries.filter((e) => e.kind === 'compaction').length, 1, 'upserted, not repeated');
  });
});
