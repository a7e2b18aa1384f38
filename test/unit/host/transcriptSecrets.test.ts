import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Redactor } from '../../../src/host/auth/redactor';
import { TranscriptDirectory } from '../../../src/host/history/transcriptDirectory';
import { readTranscript } from '../../../src/host/history/transcriptLog';
import type { TranscriptHeader } from '../../../src/host/history/transcriptLog';
import type { TextEntry } from '../../../src/thread/model/thread';
import { textOf } from '../helpers/entries';

const secret = 'tok-0123456789-distinct';
const header: TranscriptHeader = { k: 'meta', v: 1, sessionId: 's1', agentId: 'a1', agentName: 'Agent', cwd: '/work/project', createdAt: 1 };

describe('transcript store: secrets are masked as they are written', () => {
  let dir: string;
  let redactor: Redactor;
  let transcripts: TranscriptDirectory;
  const onDisk = () => fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-secrets-'));
    redactor = new Redactor();
    redactor.addNamed('a1', { MY_API_TOKEN: secret });
    transcripts = new TranscriptDirectory(dir, () => 1e9, (text) => redactor.redact(text));
    transcripts.load();
  });
  afterEach(() => {
    transcripts.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a crash notice, a title and a tool call carrying an env value are stored masked; the header and the queue are kept', () => {
    const w = transcripts.writer(header);
    w.entry(0, { kind: 'notice', id: 'e1', level: 'error', text: `Agent exited (code 1):\nconfig: MY_API_TOKEN=${secret}`, action: 'restart' });
    w.entry(1, { kind: 'toolCall', id: 'e2', toolCallId: 't1', title: `curl -H "Authorization: Bearer ${secret}"`, toolKind: 'execute', status: 'completed', content: [], locations: [] });
    w.state({ k: 'queue', q: ['my own queued prompt'] });
    w.flushSync();
    transcripts.touched('a1', 's1', `Debugging ${secret}`);
    transcripts.flushSync();
    assert.ok(!onDisk().includes(secret), 'the value is nowhere on disk');
    const t = readTranscript(path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? ''));
    assert.equal(t?.entries[0]?.kind === 'notice' && t.entries[0].text, 'Agent exited (code 1):\nconfig: MY_API_TOKEN=***');
    assert.equal(t?.entries[1]?.kind === 'toolCall' && t.entries[1].title, 'curl -H "Authorization: Bearer ***"');
    assert.equal(t?.header.cwd, '/work/project');
    assert.deepEqual(t?.queue, ['my own queued prompt']);
    assert.equal(transcripts.info('a1', 's1')?.title, 'Debugging ***');
  });

  it('an agent message that streams a secret across two writes is stored masked; the held-back end is written when the turn ends', async () => {
    const w = transcripts.writer(header);
    const msg: TextEntry = { kind: 'agent', id: 'e1', text: 'Your token is tok-0123', blocks: [] };
    w.entry(0, msg);
    await w.flush(); // a timed write while the answer streams: the last words wait
    for (const chunk of ['456789-dis', 'tinct, keep it safe.', ' Use it as Bearer abc123', 'DEF456ghi789 here']) {
      msg.text += chunk;
      w.append(0, chunk);
      await w.flush();
    }
    assert.ok(!onDisk().includes('tok-0123'), 'no piece of the value was written while it streamed');
    await w.flush(true); // the turn ended
    const file = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
    const t = readTranscript(file);
    assert.equal(textOf(t?.entries[0]), 'Your token is ***, keep it safe. Use it as Bearer *** here');
    assert.ok(!onDisk().includes(secret) && !onDisk().includes('abc123'), onDisk());
  });

  it('without a turn end, closing the session writes the held-back end too', () => {
    const w = transcripts.writer(header);
    const msg: TextEntry = { kind: 'agent', id: 'e1', text: 'almost done now', blocks: [] };
    w.entry(0, msg);
    void w.flush();
    transcripts.release('a1', 's1');
    const t = readTranscript(path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? ''));
    assert.equal(textOf(t?.entries[0]), 'almost done now');
  });
});
