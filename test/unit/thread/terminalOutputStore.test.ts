import * as assert from 'node:assert/strict';
import { AcpThread, type ThreadChange } from '../../../src/thread/model/thread';
import { maxChatTerminals, TerminalOutputStore, type TerminalStoreChange } from '../../../src/thread/model/terminalOutputStore';
import { threadSnapshot } from '../../../src/thread/view/toView';
import { header } from '../helpers/header';

describe('TerminalOutputStore (the chat\'s copy of terminal output)', () => {
  it('reports a new terminal, each append, the exit and the release; the output stays after release', () => {
    const changes: TerminalStoreChange[] = [];
    const store = new TerminalOutputStore((c) => changes.push(c));
    store.create('term-1', 'npm test');
    store.append('term-1', 'hello ');
    store.append('term-1', 'world\n');
    store.exit('term-1', { exitCode: 1, signal: null });
    store.release('term-1');
    store.release('term-1'); // once
    assert.deepEqual(changes, [
      { type: 'terminal', terminalId: 'term-1' },
      { type: 'terminalOutput', terminalId: 'term-1', text: 'hello ' },
      { type: 'terminalOutput', terminalId: 'term-1', text: 'world\n' },
      { type: 'terminal', terminalId: 'term-1' },
      { type: 'terminal', terminalId: 'term-1' },
    ]);
    assert.deepEqual(store.view('term-1'), {
      terminalId: 'term-1', command: 'npm test', output: 'hello world\n', truncated: false, released: true, exitStatus: { exitCode: 1, signal: null },
    });
  });

  it('keeps a bounded tail per terminal, never starting inside a surrogate pair', () => {
    const store = new TerminalOutputStore(() => undefined, 10);
    store.create('t', 'x');
    for (let i = 0; i < 100; i++) store.append('t', '🎉ab');
    const v = store.view('t');
    assert.ok(v);
    assert.equal(v.truncated, true);
    assert.ok(v.output.length <= 10);
    assert.ok('🎉ab'.repeat(5).endsWith(v.output));
    assert.ok(!/^[\uDC00-\uDFFF]/.test(v.output), 'no lone low surrogate at the start');
  });

  it('keeps whole lines and counts what it dropped, for the card\'s "truncated" line', () => {
    const store = new TerminalOutputStore(() => undefined, 100);
    store.create('t', 'x');
    let total = '';
    for (let i = 1; i <= 50; i++) {
      const line = `line ${String(i).padStart(3, '0')}\n`;
      total += line;
      store.append('t', line);
    }
    const v = store.view('t');
    assert.ok(v);
    assert.equal(v.truncated, true);
    assert.ok(v.output.startsWith('line '), `starts with a whole line: ${JSON.stringify(v.output.slice(0, 12))}`);
    assert.ok(v.output.endsWith('line 050\n'));
    assert.equal((v.droppedChars ?? 0) + v.output.length, total.length, 'dropped + kept = everything');
  });

  it('ignores output for unknown terminals and forgets the oldest beyond the maximum', () => {
    const changes: TerminalStoreChange[] = [];
    const store = new TerminalOutputStore((c) => changes.push(c));
    store.append('nope', 'x');
    assert.deepEqual(changes, []);
    for (let i = 0; i <= maxChatTerminals; i++) store.create(`t${i}`, 'cmd');
    assert.equal(store.has('t0'), false);
    assert.equal(store.view('t0'), undefined);
    assert.equal(store.views().length, maxChatTerminals);
    assert.deepEqual(changes[changes.length - 1], { type: 'terminal', terminalId: 't0' }, 'the forgotten terminal is reported');
  });

  it('is part of the thread: changes reach its listeners, and the snapshot carries the terminals', () => {
    const t = new AcpThread('s1');
    const changes: ThreadChange[] = [];
    t.onDidChange((c) => changes.push(c));
    t.terminals.create('term-7', 'ls');
    t.terminals.append('term-7', 'a\n');
    assert.deepEqual(changes, [{ type: 'terminal', terminalId: 'term-7' }, { type: 'terminalOutput', terminalId: 'term-7', text: 'a\n' }]);
    const snap = threadSnapshot(t, header('Agent'), 3);
    assert.equal(snap.seq, 3);
    assert.deepEqual(snap.terminals, [{ terminalId: 'term-7', command: 'ls', output: 'a\n', truncated: false, released: false }]);
  });
});
