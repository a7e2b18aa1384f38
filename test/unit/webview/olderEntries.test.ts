import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView, threadSnapshot } from '../../../src/thread/view/toView';
import type { EntryView } from '../../../src/shared/viewModel';
import { ChatStore, type StoreChange } from '../../../webview/store';
import { header } from '../helpers/header';
import { textOf } from '../helpers/entries';

/** A thread of `n` agent messages with distinct messageIds: "m0", "m1", … */
function thread(n: number): AcpThread {
  const t = new AcpThread('s1', { info: () => undefined });
  for (let i = 0; i < n; i++) {
    t.handleSessionUpdate({ sessionUpdate: 'agent_message_chunk', messageId: `id${i}`, content: { type: 'text', text: `m${i}` } } as SessionUpdate);
  }
  return t;
}
const texts = (entries: readonly (EntryView | undefined)[]) => entries.map((e) => (e && 'text' in e ? e.text : e));

function storeWithLog() {
  const gaps: string[] = [];
  const store = new ChatStore((r) => gaps.push(r));
  const changes: StoreChange[] = [];
  store.subscribe((c) => changes.push(c));
  return { store, gaps, changes };
}

describe('a long transcript arrives newest entries first', () => {
  it('threadSnapshot with a tail carries the newest entries and the index of the first', () => {
    const t = thread(10);
    const snap = threadSnapshot(t, header('A'), 4, 3);
    assert.equal(snap.firstIndex, 7);
    assert.deepEqual(texts(snap.entries), ['m7', 'm8', 'm9']);
    const all = threadSnapshot(t, header('A'), 4);
    assert.equal(all.firstIndex, undefined);
    assert.equal(all.entries.length, 10);
    assert.equal(threadSnapshot(thread(2), header('A'), 0, 3).firstIndex, undefined, 'a short thread is sent whole');
  });

  it('the store puts pages of older entries before the newest, by thread index, and reports each page', () => {
    const t = thread(10);
    const { store, gaps, changes } = storeWithLog();
    store.applySnapshot(threadSnapshot(t, header('A'), 0, 3));
    assert.equal(store.firstIndex, 7);
    assert.equal(store.entries.length, 10);
    assert.equal(store.entries[6], undefined);
    assert.equal(store.applyOlder({ seq: 0, from: 3, entries: t.entries.slice(3, 7).map(entryToView) }), true);
    assert.equal(store.applyOlder({ seq: 0, from: 0, entries: t.entries.slice(0, 3).map(entryToView) }), true);
    assert.equal(store.firstIndex, 0);
    assert.deepEqual(texts(store.entries), t.entries.map(textOf));
    assert.deepEqual(changes, [{ type: 'reset' }, { type: 'older', from: 3, to: 7 }, { type: 'older', from: 0, to: 3 }]);
    assert.deepEqual(gaps, []);
  });

  it('ignores a page that does not end where the store begins, or is older than its seq', () => {
    const t = thread(10);
    const { store, gaps } = storeWithLog();
    store.applySnapshot(threadSnapshot(t, header('A'), 2, 3));
    assert.equal(store.applyOlder({ seq: 2, from: 2, entries: t.entries.slice(2, 6).map(entryToView) }), false, 'a hole would stay');
    assert.equal(store.applyOlder({ seq: 1, from: 3, entries: t.entries.slice(3, 7).map(entryToView) }), false, 'stale');
    assert.equal(store.applyOlder({ seq: 2, from: 7, entries: [] }), false);
    assert.equal(store.firstIndex, 7);
    assert.deepEqual(gaps, []);
    // entries current at a seq the store has not reached: deltas were lost, so it asks for a snapshot
    assert.equal(store.applyOlder({ seq: 5, from: 3, entries: t.entries.slice(3, 7).map(entryToView) }), false);
    assert.equal(gaps.length, 1);
  });

  it('deltas to entries the store does not have yet are skipped (the page brings them current), later ones apply', () => {
    const t = thread(10);
    const { store, gaps } = storeWithLog();
    store.applySnapshot(threadSnapshot(t, header('A'), 0, 3));
    store.applyChange({ firstSeq: 1, deltas: [
      { op: 'append', index: 2, text: '+old' },
      { op: 'entry', index: 4, entry: { kind: 'agent', id: 'x', text: 'replaced', blocks: [] } },
      { op: 'append', index: 9, text: '+new' },
    ] });
    assert.deepEqual(gaps, []);
    assert.equal(store.seq, 3);
    assert.equal(store.entries[2], undefined);
    assert.deepEqual(texts(store.entries.slice(7)), ['m7', 'm8', 'm9+new']);
    // the page the host sends after those deltas carries them
    const page = t.entries.slice(0, 7).map(entryToView).map((e, i) => (i === 2 && 'text' in e ? { ...e, text: `${e.text}+old` } : e));
    assert.equal(store.applyOlder({ seq: 3, from: 0, entries: page }), true);
    assert.equal(texts(store.entries)[2], 'm2+old');
    store.applyChange({ firstSeq: 4, deltas: [{ op: 'append', index: 2, text: '!' }] });
    assert.equal(texts(store.entries)[2], 'm2+old!');
  });
});
