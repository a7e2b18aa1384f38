import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { readTranscript, TranscriptWriter } from '../../../src/host/history/transcriptLog';
import type { TranscriptHeader } from '../../../src/host/history/transcriptLog';
import { AcpThread } from '../../../src/thread/model/thread';
import { stateToView, threadSnapshot } from '../../../src/thread/view/toView';
import { header as headerFacts } from '../helpers/header';

const header: TranscriptHeader = { k: 'meta', v: 1, sessionId: 's1', agentId: 'a1', agentName: 'Agent', cwd: '/w', createdAt: 1 };
const update = (u: Record<string, unknown>) => zSessionUpdate.parse(u);
const text = (t: string) => ({ type: 'text' as const, text: t });

/** Records `t` the way the transcript store does (src/host/history/transcriptStore.ts): entries, cards, plans. */
function record(t: AcpThread, w: TranscriptWriter): void {
  t.onDidChange((c) => {
    if (c.type === 'entry' || c.type === 'subEntry' || c.type === 'subAppend') w.entry(c.index, t.entries[c.index]!);
    else if (c.type === 'append') w.append(c.index, c.text);
    else if (c.type === 'plan') w.state({ k: 'plans', p: t.plans });
  });
}

describe('transcript store: plans by id and subagents', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-subagents-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads back the plans and a subagent\'s card with its own transcript, as the chat showed them', () => {
    const file = path.join(dir, 'a.jsonl');
    const t = new AcpThread('s1');
    const w = new TranscriptWriter(file, header);
    record(t, w);
    t.handleSessionUpdate(update({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'a', entries: [{ content: 'one', priority: 'high', status: 'completed' }] } }));
    t.handleSessionUpdate(update({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'b', content: '## B' } }));
    t.handleSessionUpdate(update({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'gone', content: 'x' } }));
    t.handleSessionUpdate(update({ sessionUpdate: 'plan_removed', planId: 'gone' }));
    t.handleSessionUpdate(update({ sessionUpdate: 'agent_message_chunk', content: text('Delegating.') }));
    t.handleSessionUpdate(update({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore', description: 'Looks', capabilities: { cancel: {} }, state: { state: 'running' } }));
    t.handleSessionUpdate(update({ sessionUpdate: 'agent_message_chunk', content: text('Found ') }), 'c1');
    w.flushSync();
    t.handleSessionUpdate(update({ sessionUpdate: 'agent_message_chunk', content: text('three.') }), 'c1');
    t.handleSessionUpdate(update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'grep', status: 'completed' }), 'c1');
    t.handleSessionUpdate(update({ sessionUpdate: 'subagent_update', sessionId: 'c2', title: 'Tests', state: { state: 'idle', stopReason: 'error', error: { code: 1, message: 'Crashed.' } } }));
    t.handleSessionUpdate(update({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'end_turn' } }));
    w.flushSync();
    const back = readTranscript(file);
    assert.ok(back);
    const restored = new AcpThread('s1');
    restored.restore(back.entries, back.title, back.plan, back.terminals, back.plans);
    assert.deepEqual(threadSnapshot(restored, headerFacts('A'), 0).entries, threadSnapshot(t, headerFacts('A'), 0).entries);
    assert.deepEqual(stateToView(restored, headerFacts('A')).plans, stateToView(t, headerFacts('A')).plans);
    assert.deepEqual(back.plans.map((p) => p.planId), ['a', 'b']);
    // and the agent's updates for the restored subagent still reach its card
    restored.handleSessionUpdate(update({ sessionUpdate: 'agent_message_chunk', content: text('Again.') }), 'c1');
    const card = restored.subagent('c1');
    assert.deepEqual(card?.entries.map((e) => (e.kind === 'agent' ? e.text : e.kind)), ['Found three.', 'toolCall', 'Again.']);
  });

  it('holds back the last word of a subagent\'s streaming message until the turn ends (secrets split across writes)', async () => {
    const file = path.join(dir, 'b.jsonl');
    const t = new AcpThread('s1');
    const w = new TranscriptWriter(file, header, (s) => s.replace(/sk-[a-z0-9]{12,}/g, '***'));
    record(t, w);
    t.handleSessionUpdate(update({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'running' } }));
    t.handleSessionUpdate(update({ sessionUpdate: 'agent_message_chunk', content: text('the key is sk-abc') }), 'c1');
    await w.flush(); // a write while it streams
    const first = fs.readFileSync(file, 'utf8');
    assert.ok(first.includes('the key is ') && !first.includes('sk-abc'), 'the unfinished word is not written yet');
    t.handleSessionUpdate(update({ sessionUpdate: 'agent_message_chunk', content: text('def123456789 ok') }), 'c1');
    w.flushSync(); // the end of a turn or of the session: everything, masked whole
    const written = fs.readFileSync(file, 'utf8');
    assert.ok(!written.includes('sk-abc'), written);
    assert.ok(written.includes('the key is *** ok'));
    const card = readTranscript(file)?.entries[0];
    assert.ok(card?.kind === 'subagent' && card.entries[0]?.kind === 'agent' && card.entries[0].text === 'the key is *** ok');
  });

  it('shows a subagent that was working as cancelled, settles its calls, and drops malformed cards and plans', () => {
    const file = path.join(dir, 'c.jsonl');
    const lines = [
      header,
      { k: 'e', i: 0, e: { kind: 'subagent', id: 'e1', sessionId: 'c1', title: 'Worker', state: { state: 'running' }, entries: [
        { kind: 'toolCall', id: 'e2', toolCallId: 't', title: 'x', toolKind: 'other', status: 'in_progress', content: [], locations: [] },
        { kind: 'hologram', id: 'e3' },
        { kind: 'sessionMessage', id: 'e4', messageId: 'm', content: [{ type: 'text', text: 'hi' }] },
      ] } },
      { k: 'e', i: 1, e: { kind: 'subagent', id: 'e5', title: 'no session id', entries: [] } },
      { k: 'e', i: 2, e: { kind: 'subagent', id: 'e6', sessionId: 'c2', entries: 'nope' } },
      { k: 'plans', p: [{ planId: 'a', type: 'items', entries: [{ content: 'x', priority: 'low', status: 'pending' }] }, { planId: 'b', type: 'file' }, { type: 'markdown', content: 'no id' }, { planId: 'c', type: 'diagram' }] },
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const back = readTranscript(file);
    assert.ok(back);
    assert.deepEqual(back.entries.map((e) => e.id), ['e1']);
    const card = back.entries[0];
    assert.ok(card?.kind === 'subagent');
    assert.deepEqual(card.state, { state: 'idle', stopReason: 'cancelled' });
    assert.deepEqual(card.entries.map((e) => [e.kind, e.kind === 'toolCall' ? e.status : '']), [['toolCall', 'cancelled'], ['sessionMessage', '']]);
    assert.deepEqual(back.plans.map((p) => p.planId), ['a']);
  });
});
