import * as assert from 'node:assert/strict';
import type { EntryView, TerminalView, ThreadStateView } from '../../../src/shared/viewModel';
import { DeltaQueue } from '../../../src/chatHost/deltaQueue';

/** A queue whose source reports what it was asked for, with a version that grows on every read. */
function queue(tailChars = 10) {
  let reads = 0;
  const entry = (index: number): EntryView => ({ kind: 'agent', id: `e${index}`, text: `v${++reads}`, blocks: [] });
  const state = (): ThreadStateView => ({ sessionId: 's', title: `t${++reads}`, agentName: 'A', status: 'idle', following: false, plan: [], commands: [] });
  const terminal = (terminalId: string): TerminalView | null => (terminalId === 'gone' ? null : { terminalId, command: 'ls', output: `out${++reads}`, truncated: false, released: false });
  const nestedEntry = (index: number, path: readonly number[]): EntryView | undefined => (index === 99 ? undefined : { kind: 'agent', id: `e${index}/${path.join('/')}`, text: `v${++reads}`, blocks: [] });
  return new DeltaQueue({ entry, nestedEntry, state, terminal }, tailChars);
}

describe('DeltaQueue (src/chatHost/deltaQueue)', () => {
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
    for (const type of ['title', 'status', 'plan', 'usage', 'commands', 'config', 'modes', 'roots'] as const) q.add({ type });
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
    assert.deepEqual(deltas, [
      { op: 'append', index: 0, text: 'x' },
      { op: 'terminal', terminalId: 't1', terminal: { terminalId: 't1', command: 'ls', output: 'out2', truncated: false, released: false } },
      { op: 'terminal', terminalId: 'gone', terminal: null },
      { op: 'terminalOutput', terminalId: 't2', text: 'b' },
    ], 'terminal output goes after the other deltas; t1\'s output is in its view');
  });

  it('merges the output of one terminal across other deltas; output after a whole view follows it', () => {
    const q = queue();
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'a' });
    q.add({ type: 'append', index: 0, text: 'x' });
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'b' });
    assert.deepEqual(q.take(), [{ op: 'append', index: 0, text: 'x' }, { op: 'terminalOutput', terminalId: 't1', text: 'ab' }]);
    q.add({ type: 'terminal', terminalId: 't1' });
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'c' });
    assert.deepEqual(q.take().map((d) => d.op), ['terminal', 'terminalOutput']);
  });

  it('paces terminal output: once per interval, while other deltas go at once', () => {
    const q = new DeltaQueue({
      entry: (index) => ({ kind: 'agent', id: `e${index}`, text: '', blocks: [] }),
      nestedEntry: () => undefined,
      state: () => ({ sessionId: 's', title: '', agentName: 'A', status: 'idle', following: false, plan: [], commands: [] }),
      terminal: (terminalId) => ({ terminalId, command: 'ls', output: 'tail', truncated: true, droppedChars: 99, released: false }),
    }, 10, 200);
    assert.equal(q.dueIn(0), undefined, 'nothing queued');
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'a' });
    assert.equal(q.dueIn(1000), 0, 'the first output goes at once');
    assert.deepEqual(q.take(1000), [{ op: 'terminalOutput', terminalId: 't1', text: 'a' }]);
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'b' });
    assert.equal(q.dueIn(1050), 150, 'the next output waits for the interval');
    q.add({ type: 'append', index: 0, text: 'x' });
    assert.equal(q.dueIn(1050), 0, 'other deltas are due at once');
    assert.deepEqual(q.take(1050), [{ op: 'append', index: 0, text: 'x' }], 'without the output that is not due');
    assert.equal(q.length, 1);
    for (let i = 0; i < 100; i++) q.add({ type: 'terminalOutput', terminalId: 't1', text: 'cd' });
    assert.deepEqual(q.take(1199), [], 'still not due');
    assert.deepEqual(q.take(1200), [{ op: 'terminal', terminalId: 't1', terminal: { terminalId: 't1', command: 'ls', output: 'tail', truncated: true, droppedChars: 99, released: false } }],
      '201 characters in one interval: one whole view (the tail), read when taken');
    q.add({ type: 'terminalOutput', terminalId: 't1', text: 'e' });
    assert.deepEqual(q.take().map((d) => d.op), ['terminalOutput'], 'take() without a clock takes everything (a page of entries must be current)');
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
