/**
 * The transcript search (src/host/history/transcriptSearch.ts): finds the sessions whose shown text contains the
 * words, case-insensitively, in logs written by the real TranscriptWriter, reading them a chunk at a time.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TranscriptWriter } from '../../../src/host/history/transcriptLog';
import { recordSnippet, SearchCancelled, searchTranscripts, snippetAround, type SearchTarget } from '../../../src/host/history/transcriptSearch';
import type { ThreadEntry } from '../../../src/thread/model/thread';
import { writeCorpus } from '../../fixtures/transcriptCorpus';

describe('transcript search', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-search-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** One session's log with these entries (and appended text), flushed. */
  function session(id: string, entries: ThreadEntry[], append?: [number, string], title?: string): SearchTarget {
    const file = path.join(dir, `${id}.jsonl`);
    const w = new TranscriptWriter(file, { k: 'meta', v: 1, sessionId: id, agentId: 'a', agentName: 'Agent', cwd: '/w', createdAt: 1 });
    entries.forEach((e, i) => w.entry(i, e));
    w.flushSync(); // an append to an entry still pending is written with the entry (the store's entries are live objects)
    if (append) w.append(append[0], append[1]);
    if (title) w.state({ k: 'title', t: title });
    w.flushSync();
    w.close();
    return { agentId: 'a', sessionId: id, file };
  }

  it('finds words in answers, prompts, tool titles, appended text and titles, case-insensitively, with a snippet', async () => {
    const targets = [
      session('s1', [{ kind: 'user', id: 'e1', content: [{ type: 'text', text: 'Please fix the Zeppelin build' }] }]),
      session('s2', [{ kind: 'agent', id: 'e1', text: 'Started. ', blocks: [] }], [0, 'The quasar pipeline is flaky.']),
      session('s3', [{ kind: 'toolCall', id: 'e1', toolCallId: 't', title: 'Run zeppelin tests', toolKind: 'execute', status: 'completed', content: [], locations: [] }]),
      session('s4', [{ kind: 'agent', id: 'e1', text: 'nothing here', blocks: [] }], undefined, 'Zeppelin planning'),
      session('s5', [{ kind: 'agent', id: 'e1', text: 'unrelated', blocks: [] }]),
    ];
    const found = await searchTranscripts(targets, 'zeppelin');
    assert.deepEqual(found.map((m) => m.sessionId), ['s1', 's3', 's4']);
    assert.equal(found[0]?.snippet, 'Please fix the Zeppelin build');
    assert.deepEqual((await searchTranscripts(targets, 'QUASAR pipeline')).map((m) => m.sessionId), ['s2'], 'appended text, several words');
    assert.deepEqual(await searchTranscripts(targets, 'z'), [], 'too short: nothing');
  });

  it('matches only text the chat shows, not keys, ids or kinds, and spells quotes and line breaks as JSON does', async () => {
    const targets = [
      session('s1', [{ kind: 'agent', id: 'e1', text: 'He said "ship it"\nthen left', blocks: [] }]),
      session('s2', [{ kind: 'toolCall', id: 'e1', toolCallId: 'toolCallId-agent', title: 'x', toolKind: 'edit', status: 'completed', content: [], locations: [], rawInput: { secret: 'ship it' } }]),
    ];
    assert.deepEqual((await searchTranscripts(targets, 'toolCallId')).map((m) => m.sessionId), [], 'a key or an id is no match');
    assert.deepEqual((await searchTranscripts(targets, 'agent')).map((m) => m.sessionId), [], 'nor an entry kind');
    assert.deepEqual((await searchTranscripts(targets, '"ship it"')).map((m) => m.sessionId), ['s1'], 'quotes, and not raw input');
    assert.equal(recordSnippet(JSON.stringify({ k: 'e', i: 0, e: { kind: 'agent', text: 'a\nb  c' } }), 'b c'), undefined, 'whitespace is not folded for matching');
  });

  it('reads logs in chunks smaller than a line, and skips a torn last line and a missing file', async () => {
    const long = `${'word '.repeat(5000)}needle at the end`;
    const t1 = session('s1', [{ kind: 'agent', id: 'e1', text: long, blocks: [] }]);
    fs.appendFileSync(t1.file, '{"k":"a","i":0,"t":"torn needle'); // a crash mid-write: no line break
    const gone = { agentId: 'a', sessionId: 'gone', file: path.join(dir, 'gone.jsonl') };
    const found = await searchTranscripts([gone, t1], 'needle', { chunkBytes: 1024 });
    assert.deepEqual(found.map((m) => m.sessionId), ['s1']);
    assert.equal(found[0]?.snippet.endsWith('needle at the end'), true);
  });

  it('keeps the order of the targets, stops at the cap, and stops when cancelled', async () => {
    const targets = writeCorpus(dir, 12, 40, new Map([[2, 'marker'], [5, 'marker'], [9, 'marker']]));
    assert.deepEqual((await searchTranscripts(targets, 'marker')).map((m) => m.sessionId), ['bench-0009', 'bench-0005', 'bench-0002']);
    assert.equal((await searchTranscripts(targets, 'marker', { maxResults: 2 })).length, 2);
    let calls = 0;
    await assert.rejects(searchTranscripts(targets, 'marker', { isCancelled: () => ++calls > 3 }), SearchCancelled);
  });

  it('finds a word among other scripts, and a query that is not ASCII, case-insensitively', async () => {
    const targets = [
      session('s1', [{ kind: 'agent', id: 'e1', text: 'Übergröße: naïve ZEPPELIN 日本語', blocks: [] }]),
      session('s2', [{ kind: 'agent', id: 'e1', text: 'DIE GRÖSSE und größe', blocks: [] }]),
    ];
    assert.deepEqual((await searchTranscripts(targets, 'zeppelin')).map((m) => m.sessionId), ['s1'], 'ASCII query, matched on the bytes');
    assert.equal((await searchTranscripts(targets, 'naïve zeppelin'))[0]?.sessionId, 's1', 'a query that is not ASCII');
    assert.deepEqual((await searchTranscripts(targets, 'ÜBERGRÖSSE')).map((m) => m.sessionId), [], 'no Unicode case folding beyond toLowerCase');
    assert.deepEqual((await searchTranscripts(targets, 'GRÖSSE')).map((m) => m.sessionId), ['s2']);
    assert.deepEqual((await searchTranscripts(targets, '日本')).map((m) => m.sessionId), ['s1']);
  });

  it('cuts a snippet around the match with ellipses', () => {
    const text = `${'a'.repeat(100)} needle ${'b'.repeat(100)}`;
    const s = snippetAround(text, 101, 6);
    assert.ok(s.startsWith('…') && s.endsWith('…') && s.includes('needle'));
    assert.equal(snippetAround('short needle', 6, 6), 'short needle');
  });
});
