import * as assert from 'node:assert/strict';
import { PendingChanges } from '../../../webview/transcript/pendingChanges';

/** Text nodes that exist (their index) and what was appended to them. */
function textNodes(indices: number[]) {
  const appended: string[] = [];
  const append = (index: number, text: string): boolean => {
    if (!indices.includes(index)) return false;
    appended.push(`${index}:${text}`);
    return true;
  };
  return { appended, append };
}

describe('PendingChanges: store changes coalesced until the next frame', () => {
  it('appends go straight into a rendered message; without one the entry is rendered again', () => {
    const p = new PendingChanges();
    const { appended, append } = textNodes([2]);
    p.add({ type: 'append', index: 2, text: 'a' }, append);
    p.add({ type: 'append', index: 2, text: 'b' }, append);
    p.add({ type: 'append', index: 3, text: 'c' }, append);
    assert.deepEqual(appended, ['2:a', '2:b']);
    assert.deepEqual([...p.entries], [3]);
  });

  it('an entry to render again takes its later appends along (they are in the store)', () => {
    const p = new PendingChanges();
    const { appended, append } = textNodes([1]);
    p.add({ type: 'entry', index: 1 }, append);
    p.add({ type: 'append', index: 1, text: 'x' }, append);
    assert.deepEqual(appended, []);
    assert.deepEqual([...p.entries], [1]);
  });

  it('a snapshot makes appends and older entries moot', () => {
    const p = new PendingChanges();
    const { appended, append } = textNodes([0]);
    p.add({ type: 'older', from: 5, to: 10 }, append);
    p.add({ type: 'reset' }, append);
    assert.equal(p.older, undefined);
    p.add({ type: 'append', index: 0, text: 'x' }, append);
    p.add({ type: 'older', from: 0, to: 5 }, append);
    assert.deepEqual(appended, []);
    assert.equal(p.older, undefined);
    assert.equal(p.reset, true);
  });

  it('pages of older entries not rendered yet merge into one range', () => {
    const p = new PendingChanges();
    const { append } = textNodes([]);
    p.add({ type: 'older', from: 50, to: 100 }, append);
    p.add({ type: 'older', from: 0, to: 50 }, append);
    assert.deepEqual(p.older, { from: 0, to: 100 });
  });

  it('terminal output is collected per terminal, with the carry before its first piece; a whole view replaces it', () => {
    const p = new PendingChanges();
    const { append } = textNodes([]);
    p.add({ type: 'terminalOutput', terminalId: 't1', text: 'a', carry: '\x1b[' }, append);
    p.add({ type: 'terminalOutput', terminalId: 't1', text: 'b', carry: '' }, append);
    assert.deepEqual(p.terminalOutput.get('t1'), { carry: '\x1b[', text: ['a', 'b'] });
    p.add({ type: 'terminal', terminalId: 't1' }, append);
    p.add({ type: 'terminalOutput', terminalId: 't1', text: 'c', carry: '' }, append);
    assert.equal(p.terminalOutput.has('t1'), false, 'rebuilt from the store view, which has the output');
    assert.deepEqual([...p.terminals], ['t1']);
  });

  it('records state changes, and forgets rendered entries and terminals on clearRendered', () => {
    const p = new PendingChanges();
    const { append } = textNodes([]);
    p.add({ type: 'state' }, append);
    p.add({ type: 'entry', index: 4 }, append);
    p.add({ type: 'terminal', terminalId: 't' }, append);
    p.add({ type: 'terminalOutput', terminalId: 'u', text: 'x', carry: '' }, append);
    p.clearRendered();
    assert.equal(p.state, true);
    assert.deepEqual([p.entries.size, p.terminals.size, p.terminalOutput.size], [0, 0, 0]);
  });
});
