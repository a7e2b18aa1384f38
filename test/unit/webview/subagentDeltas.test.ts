import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { DeltaQueue } from '../../../src/chatHost/deltaQueue';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryView, nestedEntryView, sessionNames, stateToView, threadSnapshot } from '../../../src/thread/view/toView';
import type { EntryView } from '../../../src/shared/viewModel';
import { appendToText, replaceNested } from '../../../webview/lib/nestedEntries';
import { ChatStore } from '../../../webview/store';
import { header } from '../helpers/header';

const wire = (u: Record<string, unknown>): SessionUpdate => zSessionUpdate.parse(u);
const chunk = (t: string) => wire({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });

/** A thread bound to a store the way a chat is (ChatBinding → DeltaQueue → webview store). */
function chat() {
  const t = new AcpThread('s1');
  const q = new DeltaQueue({
    entry: (i) => entryView(t.entries[i]!, sessionNames(t)),
    nestedEntry: (i, path) => nestedEntryView(t, i, path),
    state: () => stateToView(t, header('A')),
    terminal: () => null,
  });
  const gaps: string[] = [];
  const store = new ChatStore((r) => gaps.push(r));
  store.applySnapshot(threadSnapshot(t, header('A'), 0));
  t.onDidChange((c) => q.add(c));
  let seq = 0;
  const post = () => {
    const deltas = q.take();
    if (deltas.length) store.applyChange({ firstSeq: seq + 1, deltas });
    seq += deltas.length;
    return deltas;
  };
  return { t, store, post, gaps };
}

describe('a subagent\'s card in the chat (subAppend, subEntry)', () => {
  it('streams into the card O(chunk): appends to one nested message merge, and the store ends as the snapshot', () => {
    const { t, store, post, gaps } = chat();
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore', state: { state: 'running' } }));
    t.handleSessionUpdate(chunk('one'), 'c1');
    post();
    t.handleSessionUpdate(chunk(' two'), 'c1');
    t.handleSessionUpdate(chunk(' three'), 'c1');
    const deltas = post();
    assert.deepEqual(deltas, [{ op: 'subAppend', index: 0, path: [0], text: ' two three' }], 'only the new text, merged');
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'grep', status: 'in_progress' }), 'c1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }), 'c1');
    assert.deepEqual(post().map((d) => d.op), ['subEntry'], 'the later whole entry replaced the earlier one');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'g1', title: 'Deeper' }), 'c1');
    t.handleSessionUpdate(chunk('deep'), 'g1');
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'end_turn' } }));
    post();
    assert.deepEqual(gaps, []);
    assert.deepEqual(store.entries, threadSnapshot(t, header('A'), 0).entries);
  });

  it('keeps the identity of every nested entry that did not change (the card re-renders only the changed ones)', () => {
    const { t, store, post } = chat();
    t.handleSessionUpdate(wire({ sessionUpdate: 'subagent_update', sessionId: 'c1' }));
    t.handleSessionUpdate(wire({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'grep' }), 'c1');
    t.handleSessionUpdate(chunk('a'), 'c1');
    post();
    const before = store.entries[0];
    t.handleSessionUpdate(chunk('b'), 'c1');
    post();
    const after = store.entries[0];
    assert.ok(before?.kind === 'subagent' && after?.kind === 'subagent');
    assert.notEqual(after, before);
    assert.equal(after.entries[0], before.entries[0], 'the tool call kept its identity');
    assert.notEqual(after.entries[1], before.entries[1]);
  });

  it('reports a gap for a nested change the store cannot place, instead of showing something else', () => {
    const gaps: string[] = [];
    const store = new ChatStore((r) => gaps.push(r));
    store.applySnapshot({ seq: 0, state: stateToView(new AcpThread('s'), header('A')), entries: [{ kind: 'agent', id: 'e1', text: 'x', blocks: [] }] });
    store.applyChange({ firstSeq: 1, deltas: [{ op: 'subAppend', index: 0, path: [0], text: 'y' }] });
    assert.equal(gaps.length, 1);
    const card: EntryView = { kind: 'subagent', id: 'e1', sessionId: 'c', status: 'running', canCancel: false, entries: [{ kind: 'toolCall', id: 'e2', toolCallId: 't', title: 't', toolKind: 'other', status: 'pending', content: [], locations: [] }] };
    assert.equal(replaceNested(card, [0], (e) => appendToText(e, 'y')), undefined, 'text appended to a tool call');
    assert.equal(replaceNested(card, [5], () => card), undefined, 'past the end');
    const added = replaceNested(card, [1], () => ({ kind: 'agent', id: 'e3', text: 'new', blocks: [] }));
    assert.ok(added?.kind === 'subagent' && added.entries.length === 2 && added.entries[0] === card.entries[0]);
  });
});
