import * as assert from 'node:assert/strict';
import { terminalTailChars } from '../../../src/shared/viewModel';
import { ChatStore, type StoreChange } from '../../../webview/store';
import { incompleteTailStart, stripAnsi, stripAnsiChunk } from '../../../webview/lib/ansi';

describe('terminal output in the chat webview', () => {
  describe('stripAnsi', () => {
    it('removes colours, cursor moves, OSC titles and control characters; keeps text and line breaks', () => {
      assert.equal(stripAnsi('\x1b[1;32mok\x1b[0m done\r\n\x1b]0;title\x07next\x1b[2K\x1b[1G!\x07\tend'), 'ok done\nnext!\tend');
      assert.equal(stripAnsi('50%\r100%'), '50%\n100%');
    });

    it('carries a sequence (or a \\r) cut at a chunk end over to the next chunk', () => {
      assert.equal(incompleteTailStart('abc\x1b[3'), 3);
      assert.equal(incompleteTailStart('abc\x1b]0;ti'), 3);
      assert.equal(incompleteTailStart('abc\x1b[31m'), 8);
      assert.equal(incompleteTailStart('abc\r'), 3);
      assert.equal(incompleteTailStart('plain'), 5);
      const first = stripAnsiChunk('', 'red: \x1b[3');
      assert.deepEqual(first, { text: 'red: ', carry: '\x1b[3' });
      const second = stripAnsiChunk(first.carry, '1mRED\x1b[0m\r');
      assert.deepEqual(second, { text: 'RED', carry: '\r' });
      assert.deepEqual(stripAnsiChunk(second.carry, '\nnext'), { text: '\nnext', carry: '' });
    });
  });

  describe('ChatStore terminals', () => {
    const snapshot = (output = '') => ({
      seq: 0,
      state: { sessionId: 's', title: '', agentName: 'A', status: 'idle' as const, following: false, plan: [], commands: [] },
      entries: [],
      terminals: [{ terminalId: 't1', command: 'ls', output, truncated: false, released: false }],
    });

    it('takes terminals from the snapshot and applies output and whole-view deltas in order', () => {
      const gaps: string[] = [];
      const store = new ChatStore((r) => gaps.push(r));
      const changes: StoreChange[] = [];
      store.subscribe((c) => changes.push(c));
      store.applySnapshot(snapshot('a\x1b[3'));
      store.applyChange({ firstSeq: 1, deltas: [
        { op: 'terminalOutput', terminalId: 't1', text: '2mb' },
        { op: 'terminal', terminalId: 't1', terminal: { terminalId: 't1', command: 'ls', output: 'a\x1b[32mbc', truncated: false, released: true, exitStatus: { exitCode: 0, signal: null } } },
      ] });
      assert.deepEqual(gaps, []);
      assert.deepEqual(changes.slice(1), [
        { type: 'terminalOutput', terminalId: 't1', text: '2mb', carry: '\x1b[3' },
        { type: 'terminal', terminalId: 't1' },
      ]);
      assert.equal(store.terminals.get('t1')?.released, true);
    });

    it('bounds the output it keeps, and asks for a snapshot on output of an unknown terminal', () => {
      const gaps: string[] = [];
      const store = new ChatStore((r) => gaps.push(r));
      store.applySnapshot(snapshot());
      const chunk = 'x'.repeat(64 * 1024);
      const deltas = Array.from({ length: 20 }, () => ({ op: 'terminalOutput' as const, terminalId: 't1', text: chunk }));
      store.applyChange({ firstSeq: 1, deltas });
      const kept = store.terminals.get('t1');
      assert.ok(kept && kept.output.length <= 2 * terminalTailChars && kept.truncated);
      assert.equal((kept.droppedChars ?? 0) + kept.output.length, 20 * chunk.length, 'it counts what it dropped');
      store.applyChange({ firstSeq: 21, deltas: [{ op: 'terminalOutput', terminalId: 'nope', text: 'x' }] });
      assert.equal(gaps.length, 1);
    });
  });
});
