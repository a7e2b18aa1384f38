/**
 * The agent terminal's pseudoterminal paces what it writes to VS Code (src/host/terminals/agentPseudoterminal.ts,
 * docs/chat.md#terminal-output-in-the-chat): the first write goes at once, a burst is written once per
 * interval, and of a burst only the lines the terminal keeps are written, after a line that says how many
 * were skipped.
 */
import * as assert from 'node:assert/strict';
import { AgentPseudoterminal } from '../../src/host/terminals/agentPseudoterminal';

function collect(pty: AgentPseudoterminal): { writes: string[]; next(): Promise<string> } {
  const writes: string[] = [];
  let waiting: ((text: string) => void) | undefined;
  pty.onDidWrite((text) => {
    writes.push(text);
    waiting?.(text);
    waiting = undefined;
  });
  return { writes, next: () => new Promise((resolve) => { waiting = resolve; }) };
}

describe('AgentPseudoterminal pacing', () => {
  it('writes the first output at once, then a burst once, with only the lines the terminal keeps', async () => {
    const pty = new AgentPseudoterminal({ interrupt: () => undefined, closed: () => undefined }, { keepLines: 10 });
    const out = collect(pty);
    pty.open();
    pty.write('first\n');
    assert.deepEqual(out.writes, ['first\r\n'], 'the first write after a pause goes at once');
    const burst = out.next();
    for (let i = 1; i <= 50; i++) pty.write(`line ${i}\n`);
    assert.equal(out.writes.length, 1, 'a burst waits for the interval');
    const text = await burst;
    assert.equal(out.writes.length, 2, 'the burst is one write');
    assert.match(text, /\[40 lines skipped: more than this terminal keeps in its scrollback\]/, 'the skipped lines are announced');
    assert.ok(text.endsWith('line 41\r\nline 42\r\nline 43\r\nline 44\r\nline 45\r\nline 46\r\nline 47\r\nline 48\r\nline 49\r\nline 50\r\n'), 'the last lines are written');
    assert.ok(!text.includes('line 40\r\n'), 'the skipped lines are not');
    assert.match(pty.screenTail(), /line 1\r\n[\s\S]*line 50\r\n/, 'screenTail has everything that was written to the terminal');
    pty.dispose();
  });

  it('writes a small burst whole, and the exit at once', async () => {
    const pty = new AgentPseudoterminal({ interrupt: () => undefined, closed: () => undefined }, { keepLines: 10 });
    const out = collect(pty);
    pty.open();
    pty.write('a\n');
    pty.write('b\n');
    pty.write('c\n');
    pty.exited({ exitCode: 0, signal: null });
    assert.equal(out.writes.length, 2, 'the exit flushes what was waiting');
    assert.match(out.writes[1], /^b\r\nc\r\n\r\n.*exited with code 0/);
    pty.dispose();
  });
});
