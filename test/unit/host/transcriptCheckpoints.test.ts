import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readTranscript, TranscriptWriter } from '../../../src/host/history/transcriptLog';
import type { TranscriptHeader } from '../../../src/host/history/transcriptLog';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView } from '../../../src/thread/view/toView';

const header: TranscriptHeader = { k: 'meta', v: 1, sessionId: 's1', agentId: 'a1', agentName: 'Agent', cwd: '/w', createdAt: 1 };

describe('transcript store: checkpoints', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cp-transcript-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps a message\'s checkpoint, the changes entries and the marks after a restore across a reload', () => {
    const file = path.join(dir, 't.jsonl');
    const t = new AcpThread('s1');
    const w = new TranscriptWriter(file, header);
    t.onDidChange((c) => { if (c.type === 'entry') w.entry(c.index, t.entries[c.index]!); });
    t.addUserMessage([{ type: 'text', text: 'change it' }]);
    t.setCheckpoint('e1', 'c1');
    t.addEntry((id) => ({ kind: 'changes', id, role: 'turn', files: [{ path: '/w/a.ts', rel: 'a.ts', change: 'modified', added: 1, removed: 1 }], from: 'c1', to: 'c2' }));
    t.addEntry((id) => ({ kind: 'changes', id, role: 'restore', files: [{ path: '/w/a.ts', rel: 'a.ts', change: 'modified', added: 1, removed: 1 }], from: 'c3', to: 'c1', label: 'the checkpoint before "change it"', marked: { first: 'e1', last: 'e2' } }));
    t.refreshRestoreMarks();
    w.flushSync();
    const back = readTranscript(file);
    assert.ok(back);
    assert.deepEqual(back.entries.map((e) => [e.id, e.kind, !!e.afterRestore]), [['e1', 'user', true], ['e2', 'changes', true], ['e3', 'changes', false]]);
    assert.equal((entryToView(back.entries[0]!) as { checkpoint?: boolean }).checkpoint, true);
    const restored = new AcpThread('s1');
    restored.restore(back.entries, '', []);
    restored.markUndone(restored.entries[2].id);
    restored.refreshRestoreMarks();
    assert.deepEqual(restored.entries.filter((e) => e.afterRestore).map((e) => e.id), [], 'its Undo Restore after a reload unmarks them');
  });

  it('drops a malformed changes entry', () => {
    const file = path.join(dir, 'bad.jsonl');
    const lines = [header, { k: 'e', i: 0, e: { kind: 'changes', id: 'e1', role: 'turn', files: [{ path: 1 }], from: 'c1', to: 'c2' } }, { k: 'e', i: 1, e: { kind: 'agent', id: 'e2', text: 'ok', blocks: [] } }];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    assert.deepEqual(readTranscript(file)?.entries.map((e) => e.id), ['e2']);
  });
});
