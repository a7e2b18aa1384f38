import * as assert from 'node:assert/strict';
import type { EntryView, TerminalView, ThreadStateView } from '../../../src/shared/viewModel';
import { DeltaQueue } from '../../../src/webviews/chat/deltaQueue';

/** A queue whose source reports what it was asked for, with a version that grows on every read. */
function queue(tailChars = 10) {
  let reads = 0;
  const entry = (index: number): EntryView => ({ kind: 'agent', id: `e${index}`, text: `v${++reads}`, blocks: [] });
  const state = (): ThreadStateView => ({ sessionId: 's', title: `t${++reads}`, agentName: 'A', status: 'idle', following: false, plan: [], commands: [] });
  const terminal = (terminalId: string): TerminalView | null => (terminalId === 'gone' ? null : { terminalId, command: 'ls', output: `out${++reads}`, truncated: false, released: false });
  return new DeltaQueue({ entry, state, terminal }, tailChars);
}

describe('DeltaQueue (src/webviews/chat/deltaQueue)', () => {
  it('merges consecutive appends to one entry, not appends to different entries', () => {
    const q = queue();
    q.add({ type: 'append', index: 0, text: 'a' });
    q.add({ type: 'append', index: 0, text: 'b' });
    q.add({ type: 'append', index: 1, text: 'c' });
    q.add({ type: 'append', index: 0, text: 'd' });
    assert.deepEqual(q.take(), [
      { op: 'append', index: 0, text: 'ab' },
      { op: 'append', index: 1, text: 'c' },
      { op: 'append', index: 0, text: 'd' },
    ]);
    assert.equal(q.length, 0, 'take empties the queue');
  });

  it('a full entry replaces the tail delta of the same entry only', () => {
    const q = queue();
    q.add({ type: 'append', index: 0, text: 'a' });
    q.add({ type: 'entry', index: 0 });
    q.add({ type: 'entry', index: 0 });
    assert.deepEqual(q.take(), [{ op: 'entry', index: 0, entry: { kind: 'agent', id: 'e0', text: 'v2', blocks: [] } }]);
    q.add({ type: 'append', index: 0, text: 'a' });
    q.add({ type: 'append', index: 1, text: 'b' });
    q.add({ type: 'entry', index: 0 });
    assert.deepEqual(q.take().map((d) => d.op), ['append', 'append', 'entry'], 'not the tail: kept');
  });

  it('keeps only the newest state of consecutive state changes, whatever field changed', () => {
    const q = queue();
    for (const type of ['title', 'status', 'plan', 'usage', 'commands', 'config', 'modes', 'following'] as const) q.add({ type });
    assert.deepEqual(q.take(), [{ op: 'state', state: { sessionId: 's', title: 't8', agentName: 'A', status: 'idle', following: false, plan: [], commands: [] } }]);
    q.add({ type: 'usage' });
    q.add({ type: 'append', index: 0, text: 'x' });
    q.add({ type: 'status' });
    assert.deepEqual(q.take().map((d) => d.op), ['state', 'append', 'state']);
  });

  it('merges terminal output up to the tail size, then sends the whole terminal once', () => {
    const q = queue(10);
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'abc' });
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'def' });
    q.add({ type: 'terminalOutput', terminalId: 't2', text: 'x' });
    assert.deepEqual(q.take(), [
      { op: 'terminalOutput', terminalId: 't1', text: 'abcdef' },
      { op: 'terminalOutput', terminalId: 't2', text: 'x' },
    ]);
    q.add({ type: 'terminalOutput', terminalId: 't1', text: '123456' });
    q.add({ type: 'terminalOutput', terminalId: 't1', text: '7890' });
    assert.deepEqual(q.take(), [{ op: 'terminalOutput', terminalId: 't1', text: '1234567890' }], 'exactly the tail: merged');
    q.add({ type: 'terminalOutput', terminalId: 't1', text: '123456' });
    q.add({ type: 'terminalOutput', terminalId: 't1', text: '78901' });
    assert.deepEqual(q.take(), [{ op: 'terminal', terminalId: 't1', terminal: { terminalId: 't1', command: 'ls', output: 'out1', truncated: false, released: false } }]);
  });

  it('a whole terminal view drops the queued output and views of that terminal only', () => {
    const q = queue();
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'a' });
    q.add({ type: 'append', index: 0, text: 'x' });
    q.add({ type: 'terminalOutput', terminalId: 't2', text: 'b' });
    q.add({ type: 'terminal', terminalId: 't1' });
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'c' });
    q.add({ type: 'terminal', terminalId: 't1' });
    q.add({ type: 'terminal', terminalId: 'gone' });
    const deltas = q.take();
    assert.deepEqual(deltas.map((d) => d.op), ['append', 'terminalOutput', 'terminal', 'terminal']);
    assert.deepEqual(deltas.slice(2), [
      { op: 'terminal', terminalId: 't1', terminal: { terminalId: 't1', command: 'ls', output: 'out2', truncated: false, released: false } },
      { op: 'terminal', terminalId: 'gone', terminal: null },
    ]);
  });

  it('clear drops everything queued', () => {
    const q = queue();
    q.add({ type: 'append', index: 0, text: 'a' });
    q.add({ type: 'title' });
    q.clear();
    assert.equal(q.length, 0);
    assert.deepEqual(q.take(), []);
  });
});
