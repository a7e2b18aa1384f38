import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TextEntry } from '../../../src/thread/model/thread';
import { TranscriptDirectory } from '../../../src/host/history/transcriptDirectory';
import { parseTranscript, readTranscript, TranscriptWriter } from '../../../src/host/history/transcriptLog';
import type { TranscriptHeader } from '../../../src/host/history/transcriptLog';
import { textOf } from '../helpers/entries';

const header = (sessionId = 's1', agentId = 'a1'): TranscriptHeader => ({ k: 'meta', v: 1, sessionId, agentId, agentName: 'Agent', cwd: '/w', createdAt: 1 });
const agent = (i: number, text: string): TextEntry => ({ kind: 'agent', id: `e${i + 1}`, text, blocks: [] });

describe('transcript log (the client transcript store)', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-transcript-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a flushSync right after a flush writes the batch the flush took first: a reader right after sees every record, once', async () => {
    const file = path.join(dir, 'race.jsonl');
    const w = new TranscriptWriter(file, header());
    w.entry(0, { kind: 'user', id: 'e1', content: [{ type: 'text', text: 'remember this' }] });
    w.entry(1, agent(1, 'only the client remembers'));
    const pending = w.flush(); // a turn ended: an async write is on its way
    w.state({ k: 'title', t: 'Remembered chat' });
    w.flushSync(); // the session is closed at once
    const now = readTranscript(file);
    assert.equal(now?.entries.length, 2, 'both entries are on disk before the async write ran');
    assert.equal(now?.title, 'Remembered chat');
    await pending;
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    // the answer's last word waits for the next write (a secret split across writes is masked whole: transcriptLog.ts)
    assert.equal(lines.length, 1 + 2 + 1 + 1, 'header, two entries, the title, the held-back last word: nothing written twice');
    assert.equal(textOf(readTranscript(file)?.entries[1]), 'only the client remembers');
  });

  it('a flushSync while an earlier flush is being written still leaves every record on disk: no batch is half-way', async () => {
    const file = path.join(dir, 'race2.jsonl');
    const w = new TranscriptWriter(file, header());
    w.entry(0, { kind: 'user', id: 'e1', content: [{ type: 'text', text: 'remember this' }] });
    const pending = w.flush();
    // let the chain start that batch (it runs on a microtask), then close the session at once
    for (let i = 0; i < 5; i++) await Promise.resolve();
    w.entry(1, agent(1, 'only the client remembers'));
    w.flushSync();
    assert.equal(readTranscript(file)?.entries.length, 2, 'the started batch is on disk when flushSync returns');
    await pending;
    assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 3, 'header and two entries, once each');
  });

  it('merges the appends of two messages streamed in turns, each into its own record, in order', () => {
    const file = path.join(dir, 'two.jsonl');
    const w = new TranscriptWriter(file, header());
    w.entry(0, agent(0, ''));
    w.entry(1, agent(1, ''));
    w.flushSync();
    for (const [i, t] of [[0, 'a '], [0, 'b '], [1, 'x '], [0, 'c '], [1, 'y '], [1, 'z ']] as const) w.append(i, t);
    w.flushSync();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1 + 2 + 2, 'header, two entries, one append per message');
    const t = readTranscript(file);
    assert.equal(textOf(t?.entries[0]), 'a b c ');
    assert.equal(textOf(t?.entries[1]), 'x y z ');
  });

  it('replays entries, merged appends, title and plan; a pending permission and unfinished tool calls do not survive', () => {
    const file = path.join(dir, 'a.jsonl');
    const w = new TranscriptWriter(file, header());
    const msg = agent(0, 'Hel');
    w.entry(0, msg);
    msg.text += 'lo';
    w.append(0, 'lo'); // the pending entry is serialized at flush time: the append is not doubled
    w.flushSync();
    w.append(0, ', ');
    w.append(0, 'world');
    w.entry(1, { kind: 'toolCall', id: 'e2', toolCallId: 't1', title: 'Edit', toolKind: 'edit', status: 'waitingForConfirmation', content: [], locations: [], permission: { requestId: 'r', options: [], previousStatus: 'pending' } });
    w.state({ k: 'title', t: 'First' });
    w.state({ k: 'title', t: 'Second' });
    w.state({ k: 'plan', p: [{ content: 'step', priority: 'high', status: 'pending' }] });
    w.flushSync();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1 + 1 + 4, 'header, entry, then one append, one entry, one title, one plan');
    const t = readTranscript(file);
    assert.ok(t);
    assert.equal(t.entries.length, 2);
    assert.equal(textOf(t.entries[0]), 'Hello, world');
    const call = t.entries[1];
    assert.ok(call?.kind === 'toolCall');
    assert.equal(call.status, 'cancelled');
    assert.equal(call.permission, undefined);
    assert.equal(t.title, 'Second');
    assert.equal(t.plan.length, 1);
  });

  it('keeps a plan\'s cancelled mark (a Stop, a turn the window\'s closing cut off), also through a rewrite; a new plan clears it', async () => {
    const file = path.join(dir, 'plan.jsonl');
    const w = new TranscriptWriter(file, header());
    const plan = [{ content: 'done', priority: 'high' as const, status: 'completed' as const }, { content: 'next', priority: 'high' as const, status: 'pending' as const }];
    w.state({ k: 'plan', p: plan, c: true });
    w.flushSync();
    assert.equal(readTranscript(file)?.planCancelled, true);
    w.state({ k: 'plan', p: plan });
    w.flushSync();
    assert.equal(readTranscript(file)?.planCancelled, false, 'the agent sent its plan again');
    await w.rewrite(header(), [], '', plan, [], [], true);
    assert.equal(readTranscript(file)?.planCancelled, true);
  });

  it('keeps agent terminals (the latest view of each, also through a rewrite); a malformed one is skipped', async () => {
    const file = path.join(dir, 't.jsonl');
    const w = new TranscriptWriter(file, header());
    const view = (id: string, output: string) => ({ terminalId: id, command: 'npm test', output, truncated: false, released: false });
    w.terminal(view('t1', 'one'));
    w.terminal(view('t1', 'one two')); // replaces the pending one
    w.flushSync();
    w.terminal({ ...view('t1', 'one two three'), released: true, exitStatus: { exitCode: 0, signal: null } });
    w.terminal(view('t2', '\x1b[31mred\x1b[0m'));
    w.flushSync();
    assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 1 + 3);
    fs.appendFileSync(file, `${JSON.stringify({ k: 'term', v: { terminalId: 7 } })}\n`);
    const t = readTranscript(file);
    assert.deepEqual(t?.terminals.map((x) => [x.terminalId, x.output, x.released]), [['t1', 'one two three', true], ['t2', '\x1b[31mred\x1b[0m', false]]);
    await w.rewrite(header(), [], '', [], t?.terminals ?? []);
    assert.deepEqual(readTranscript(file)?.terminals, t?.terminals);
  });

  it('ignores a torn last line, and the next writer cuts it off before appending', () => {
    const file = path.join(dir, 'b.jsonl');
    const w = new TranscriptWriter(file, header());
    w.entry(0, agent(0, 'complete'));
    w.flushSync();
    fs.appendFileSync(file, '{"k":"e","i":1,"e":{"kind":"agent","id":"e2","te'); // a crash mid-write
    const parsed = parseTranscript(fs.readFileSync(file));
    assert.equal(parsed.torn, true);
    assert.equal(parsed.records.length, 2);
    assert.deepEqual(readTranscript(file)?.entries.map(textOf), ['complete']);
    const again = new TranscriptWriter(file, header());
    again.entry(1, agent(1, 'after the crash'));
    again.flushSync();
    assert.equal(parseTranscript(fs.readFileSync(file)).torn, false);
    assert.deepEqual(readTranscript(file)?.entries.map(textOf), ['complete', 'after the crash']);
  });

  it('rewrite replaces the log atomically (after session/load)', async () => {
    const file = path.join(dir, 'c.jsonl');
    const w = new TranscriptWriter(file, header());
    for (let i = 0; i < 5; i++) w.entry(i, agent(i, `old ${i}`));
    w.flushSync();
    await w.rewrite(header(), [agent(0, 'replayed')], 'Loaded', []);
    const t = readTranscript(file);
    assert.deepEqual(t?.entries.map(textOf), ['replayed']);
    assert.equal(t?.title, 'Loaded');
    assert.deepEqual(fs.readdirSync(dir), ['c.jsonl'], 'no temporary file is left');
  });

  it('the directory rebuilds a missing or corrupt index from the logs, and evicts the oldest sessions over the cap', async () => {
    let cap = 10 * 1024 * 1024;
    const d = new TranscriptDirectory(dir, () => cap);
    d.load();
    for (const id of ['old', 'mid', 'new']) {
      const w = d.writer(header(id));
      w.entry(0, agent(0, `${id} ${'y'.repeat(2000)}`));
      w.state({ k: 'title', t: `Title ${id}` });
      await w.flush();
      d.touched('a1', id, `Title ${id}`);
      d.release('a1', id);
      await new Promise((r) => setTimeout(r, 5));
    }
    d.flushSync();
    fs.writeFileSync(path.join(dir, 'index.json'), '{ not json');
    const again = new TranscriptDirectory(dir, () => cap);
    again.load();
    assert.deepEqual(again.list().map((i) => i.title).sort(), ['Title mid', 'Title new', 'Title old']);
    assert.equal(again.read('a1', 'mid')?.entries.length, 1);
    cap = 5000; // room for two logs of ~2.2 KB
    const evicted = d.evict();
    assert.deepEqual(evicted.map((i) => i.sessionId), ['old']);
    assert.deepEqual(d.list().map((i) => i.sessionId), ['new', 'mid']);
    assert.equal(d.remove('a1', 'mid'), true);
    assert.deepEqual(d.list().map((i) => i.sessionId), ['new']);
  });

  it('survives a process killed (SIGKILL) while appending: the last complete entry is kept and the store loads', async function () {
    this.timeout(20000);
    const file = path.join(dir, 'killed.jsonl');
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../fixtures/processes/transcriptAppender.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    await new Promise<void>((resolve, reject) => {
      const t = setInterval(() => {
        if (out.split('\n').length > 40) { clearInterval(t); resolve(); }
      }, 5);
      child.on('exit', () => { clearInterval(t); reject(new Error('the appender ended early')); });
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const reported = out.split('\n').filter(Boolean).map(Number);
    const lastReported = reported[reported.length - 1] ?? -1;
    const t = readTranscript(file);
    assert.ok(t, 'the log still loads');
    assert.ok(t.entries.length >= lastReported + 1, `every entry reported as written is there (${t.entries.length} ≥ ${lastReported + 1})`);
    t.entries.forEach((e, i) => assert.ok(new RegExp(`^entry ${i} x* end ${i}$`).test(textOf(e)), `entry ${i} is whole`));
    const d = new TranscriptDirectory(dir, () => 1e9);
    d.load();
    assert.equal(d.list().length, 1, 'the store loads the killed log');
    const w = new TranscriptWriter(file, header());
    w.entry(t.entries.length, agent(t.entries.length, 'after the kill'));
    w.flushSync();
    const after = readTranscript(file);
    assert.equal(after?.entries.length, t.entries.length + 1, 'appending after the kill works (a torn tail was cut off)');
    assert.ok(textOf(after?.entries.at(-1)) === 'after the kill');
  });
});
