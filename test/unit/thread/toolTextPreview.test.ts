/**
 * A long text of a tool call in its card (src/thread/view/toolTextPreview.ts): the view carries its head and tail, the
 * thread keeps it whole, and Open full output reads the whole of any capped part back from the thread.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import type { ToolCallView, ToolContentView } from '../../../src/shared/viewModel';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView } from '../../../src/thread/view/toView';
import { previewToolText, toolOutputText, toolTextPreviewChars, toolTextPreviewMinChars } from '../../../src/thread/view/toolTextPreview';
import { entryOf } from '../helpers/entries';

/** About `chars` of numbered log lines, ending with a marker line. */
function logText(chars: number): string {
  const lines: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const line = `${String(i).padStart(6, '0')} INFO worker processed item ${i}: ok\n`;
    lines.push(line);
    n += line.length;
  }
  return `${lines.join('')}END-OF-OUTPUT\n`;
}

function threadWith(update: SessionUpdate): AcpThread {
  const t = new AcpThread('s1');
  t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run the build', kind: 'execute', status: 'in_progress' });
  t.handleSessionUpdate(update);
  return t;
}

describe('long tool text (src/thread/view/toolTextPreview)', () => {
  it('keeps a text up to the limit whole', () => {
    assert.equal(previewToolText('short'), undefined);
    assert.equal(previewToolText('x'.repeat(toolTextPreviewMinChars)), undefined);
  });

  it('previews a 5 MB text as its head and tail, cut at line ends, with what was left out in between', () => {
    const text = logText(5 * 1024 * 1024);
    const p = previewToolText(text);
    assert.ok(p);
    assert.ok(p.head.length <= toolTextPreviewChars && p.head.length > toolTextPreviewChars - 4096);
    assert.ok(p.cut.tail.length <= toolTextPreviewChars);
    assert.ok(p.head.endsWith('\n'), 'the head ends with a whole line');
    assert.match(p.cut.tail, /^\d{6} INFO/, 'the tail starts with a whole line');
    assert.ok(p.cut.tail.endsWith('END-OF-OUTPUT\n'));
    assert.equal(p.cut.totalChars, text.length);
    assert.equal(p.head.length + p.cut.omittedChars + p.cut.tail.length, text.length);
    assert.equal(p.head + text.slice(p.head.length, p.head.length + p.cut.omittedChars) + p.cut.tail, text);
  });

  it('never splits a surrogate pair when there is no line end to cut at', () => {
    const text = '😀'.repeat(toolTextPreviewMinChars); // no newline; every cut is at an even offset or moved
    const p = previewToolText(text);
    assert.ok(p);
    assert.equal(p.head.length % 2, 0);
    assert.equal(p.cut.tail.length % 2, 0);
    assert.ok(!/[\uD800-\uDBFF]$/.test(p.head));
  });

  it('the card gets the preview of a 5 MB content text; the thread keeps it whole; Open full output reads it back', () => {
    const text = logText(5 * 1024 * 1024);
    const t = threadWith({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text } }] });
    const call = entryOf(t.entries[0], 'toolCall');
    const view = entryToView(call) as ToolCallView;
    const item = view.content[0] as Extract<ToolContentView, { type: 'content' }>;
    assert.ok(item.cut);
    assert.ok(JSON.stringify(view).length < 3 * toolTextPreviewChars, 'the view is small');
    assert.equal(item.cut.totalChars, text.length);
    assert.ok(item.cut.tail.endsWith('END-OF-OUTPUT\n'));
    const stored = call.content[0];
    assert.ok(stored.type === 'content' && stored.content.type === 'text' && stored.content.text === text, 'the thread keeps all of it');
    assert.equal(toolOutputText(call, { part: 'content', index: 0 }), text);
    assert.equal(toolOutputText(call, { part: 'content', index: 1 }), undefined);
    assert.equal(toolOutputText(call, { part: 'rawJson' }), undefined);
  });

  it('a short content text is shown whole, as before', () => {
    const t = threadWith({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '**done**' } }] });
    const view = entryToView(t.entries[0]) as ToolCallView;
    assert.deepEqual(view.content, [{ type: 'content', content: { type: 'text', text: '**done**' } }]);
  });

  it('a 5 MB output only in rawOutput: the card keeps its tail, Open full output reads each stream and the JSON whole', () => {
    const text = logText(5 * 1024 * 1024);
    const t = threadWith({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: { stdout: text, stderr: 'warn\n', exit_code: 0, extra: { n: 1 } }, rawInput: { command: ['npm', 'run', 'build'] } });
    const call = entryOf(t.entries[0], 'toolCall');
    const view = entryToView(call) as ToolCallView;
    assert.ok(view.rawOutput);
    assert.equal(view.rawOutput.texts[0].label, 'stdout');
    assert.ok((view.rawOutput.texts[0].droppedChars ?? 0) > 0, 'the card says what it left out');
    assert.ok(JSON.stringify(view).length < 64 * 1024, 'the view is small');
    assert.equal(toolOutputText(call, { part: 'rawText', label: 'stdout' }), text);
    assert.equal(toolOutputText(call, { part: 'rawText', label: 'stderr' }), 'warn\n');
    assert.equal(toolOutputText(call, { part: 'rawText', label: 'output' }), undefined);
    assert.equal(toolOutputText(call, { part: 'rawText' }), undefined);
    assert.deepEqual(JSON.parse(toolOutputText(call, { part: 'rawJson' }) ?? 'null'), { extra: { n: 1 } }, 'the JSON block is what the card shows as JSON');
    assert.deepEqual(JSON.parse(toolOutputText(call, { part: 'rawInput' }) ?? 'null'), { command: ['npm', 'run', 'build'] });
  });

  it('with content of its own, all of rawOutput is the JSON block; a plain string rawOutput is the output text', () => {
    const t = threadWith({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }], rawOutput: { stdout: 'x' } });
    const call = entryOf(t.entries[0], 'toolCall');
    assert.deepEqual(JSON.parse(toolOutputText(call, { part: 'rawJson' }) ?? 'null'), { stdout: 'x' });
    assert.equal(toolOutputText(call, { part: 'rawText', label: 'stdout' }), undefined);
    const s = threadWith({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: 'plain output' });
    assert.equal(toolOutputText(entryOf(s.entries[0], 'toolCall'), { part: 'rawText', label: 'output' }), 'plain output');
    assert.equal(toolOutputText(entryOf(s.entries[0], 'toolCall'), { part: 'rawInput' }), undefined);
  });
});
