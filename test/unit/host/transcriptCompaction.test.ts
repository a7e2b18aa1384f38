import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { readTranscript, TranscriptWriter } from '../../../src/host/history/transcriptLog';
import type { TranscriptHeader } from '../../../src/host/history/transcriptLog';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView } from '../../../src/thread/view/toView';
import { textOf } from '../helpers/entries';

const header: TranscriptHeader = { k: 'meta', v: 1, sessionId: 's1', agentId: 'a1', agentName: 'Agent', cwd: '/w', createdAt: 1 };

/** Records every entry change of `t` the way the transcript store does (src/host/history/transcriptStore.ts). */
function record(t: AcpThread, w: TranscriptWriter): void {
  t.onDidChange((c) => {
    if (c.type === 'entry') w.entry(c.index, t.entries[c.index]!);
    else if (c.type === 'append') w.append(c.index, c.text);
  });
}

describe('transcript store: compactions and notices', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-compaction-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps a compaction with its streamed summary (read back as the chat showed it), never a notice', () => {
    const file = path.join(dir, 'c.jsonl');
    const t = new AcpThread('s1');
    const w = new TranscriptWriter(file, header);
    record(t, w);
    t.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'long answer' } }));
    t.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'notice', severity: 'warning', title: 'Context almost full' }));
    t.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'Summary ' } }));
    w.flushSync();
    t.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'so far.' } }));
    t.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }));
    w.flushSync();
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes('Context almost full'), 'the notice is not written');
    const back = readTranscript(file);
    assert.ok(back);
    assert.deepEqual(back.entries.map((e) => e.kind), ['agent', 'compaction']);
    assert.deepEqual(entryToView(back.entries[1]!), { kind: 'compaction', id: 'e2', compactionId: 'c1', status: 'completed', summary: 'Summary so far.', blocks: [] });
  });

  it('shows a compaction that was still running as cancelled, and drops malformed or unknown entries', () => {
    const file = path.join(dir, 'd.jsonl');
    const lines = [
      header,
      { k: 'e', i: 0, e: { kind: 'user', id: 'e1', content: [{ type: 'text', text: 'hi' }] } },
      { k: 'e', i: 1, e: { kind: 'compaction', id: 'e2', compactionId: 'c1', status: 'in_progress', summary: [{ type: 'text', text: 'half' }] } },
      { k: 'e', i: 2, e: { kind: 'compaction', id: 'e3', compactionId: 'c2', status: 'completed', summary: 'not an array' } },
      { k: 'e', i: 3, e: { kind: 'hologram', id: 'e4' } },
      { k: 'e', i: 4, e: null },
      { k: 'e', i: 5, e: { kind: 'agent', id: 'e6', text: 'still here', blocks: [] } },
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const back = readTranscript(file);
    assert.ok(back);
    assert.deepEqual(back.entries.map((e) => e.id), ['e1', 'e2', 'e6']);
    assert.equal(back.entries[1]?.kind === 'compaction' && back.entries[1].status, 'cancelled');
  });

  it('loads a transcript written before compactions existed, unchanged', () => {
    const file = path.join(dir, 'old.jsonl');
    // as the previous version wrote it: user, agent (with an append), a tool call, a notice, title and plan
    const old = [
      '{"k":"meta","v":1,"sessionId":"s0","agentId":"a1","agentName":"Agent","cwd":"/w","createdAt":1}',
      '{"k":"e","i":0,"e":{"kind":"user","id":"e1","content":[{"type":"text","text":"fix it"}]}}',
      '{"k":"e","i":1,"e":{"kind":"agent","id":"e2","text":"Done","blocks":[]}}',
      '{"k":"a","i":1,"t":" now."}',
      '{"k":"e","i":2,"e":{"kind":"toolCall","id":"e3","toolCallId":"t1","title":"Edit a.ts","toolKind":"edit","status":"completed","content":[],"locations":[]}}',
      '{"k":"e","i":3,"e":{"kind":"notice","id":"e4","level":"info","text":"Turn cancelled."}}',
      '{"k":"title","t":"Old chat"}',
      '{"k":"plan","p":[{"content":"step","priority":"high","status":"completed"}]}',
    ];
    fs.writeFileSync(file, old.join('\n') + '\n');
    const back = readTranscript(file);
    assert.ok(back);
    assert.deepEqual(back.entries.map((e) => e.kind), ['user', 'agent', 'toolCall', 'notice']);
    assert.equal(textOf(back.entries[1]), 'Done now.');
    assert.equal(back.title, 'Old chat');
    const t = new AcpThread('s0');
    t.restore(back.entries, back.title, back.plan);
    assert.equal(t.entries.length, 4);
  });
});
