import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoSessionsDirEnv } from '../../../src/constants';
import { demoScenario } from '../../../src/demoAgent/demoScenario';
import { compactHistory, maxSessionFileBytes, maxSessionFiles, SessionFiles, type PersistedSession } from '../../../src/demoAgent/sessionFiles';
import { demoAgentJs, TestClient } from './acpTestClient';

// The Demo agent keeps its sessions in the folder the extension names (docs/chat.md, restore after a reload): a new run
// (a reloaded window starts a new process) lists, resumes and loads them.

const cwd = '/work/project';
const readme = `${cwd}/README.md`;

describe('demoAgent / sessions kept across runs', function () {
  this.timeout(15000);
  let dir = '';
  const clients: TestClient[] = [];
  const run = (env: Record<string, string> = { [demoSessionsDirEnv]: dir }): TestClient => {
    const c = TestClient.inProcess(demoScenario, { files: { [readme]: '# My project\n' }, env: { SCRIPTED_AGENT_DELAY_SCALE: '0', ...env } });
    clients.push(c);
    return c;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-sessions-'));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a new run lists, resumes and continues a session of the last run (turn numbers go on)', async () => {
    const first = run();
    const { sessionId } = await first.start(cwd);
    await first.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'sage' });
    assert.equal(await first.prompt(sessionId, 'hello'), 'end_turn');
    await first.close();

    const second = run();
    await second.initialize();
    const listed = await second.agent.request(acp.methods.agent.session.list, { cwd });
    assert.deepEqual(listed.sessions.map((s) => [s.sessionId, s.title]), [[sessionId, 'Hello']]);
    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd });
    assert.equal(await second.prompt(sessionId, 'again'), 'end_turn');
    assert.ok(second.updatesOf('tool_call').some((t) => t.toolCallId === 'peek-2'), 'the second turn is numbered 2, not 1 again');
    assert.match(second.text(), /Answering as \*\*Sage \(demo\)\*\*/, 'the chosen model is kept');
  });

  it('a new run replays a kept session on session/load', async () => {
    const first = run();
    const { sessionId } = await first.start(cwd);
    await first.prompt(sessionId, 'hello');
    const answered = first.text();
    await first.close();

    const second = run();
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    assert.equal(second.text('user_message_chunk'), 'hello');
    assert.equal(second.text(), answered, 'the whole answer is replayed');
    assert.equal(second.updatesOf('agent_message_chunk').length < first.updatesOf('agent_message_chunk').length, true, 'its chunks are kept joined');
  });

  it('finds a session another run wrote after this one started, and forgets deleted ones', async () => {
    const late = run();
    await late.initialize();
    const writer = run();
    const { sessionId } = await writer.start(cwd);
    await writer.prompt(sessionId, 'hello');
    await late.agent.request(acp.methods.agent.session.resume, { sessionId, cwd });
    assert.equal(await late.prompt(sessionId, 'again'), 'end_turn');
    await late.agent.request(acp.methods.agent.session.delete, { sessionId });
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('without the folder, a new run does not know the session (-32002)', async () => {
    const first = run({});
    const { sessionId } = await first.start(cwd);
    await first.close();
    const second = run({});
    await second.initialize();
    await assert.rejects(second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd }), (e: unknown) => e instanceof acp.RequestError && e.code === -32002);
  });

  it('skips corrupt and foreign files, and still works', async () => {
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"v":1,"sessionId":');
    fs.writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify({ v: 1, sessionId: 'x', cwd: 5 }));
    fs.writeFileSync(path.join(dir, 'elsewhere.json'), JSON.stringify({ v: 1, sessionId: 'demo-9', cwd, updatedAt: null, prompts: 0, history: [] }));
    const c = run();
    await c.initialize();
    assert.deepEqual((await c.agent.request(acp.methods.agent.session.list, {})).sessions, []);
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    assert.equal(await c.prompt(sessionId, 'hello'), 'end_turn');
    assert.match(c.stderr.join(''), /skipped the session file broken\.json/);
    assert.match(c.stderr.join(''), /skipped the session file elsewhere\.json: the file name does not match/);
  });

  it('the bundled Demo agent, restarted as a new process, resumes its session', async () => {
    const env = { [demoSessionsDirEnv]: dir, SCRIPTED_AGENT_DELAY_SCALE: '0' };
    const first = TestClient.subprocess(demoAgentJs, [], { files: { [readme]: '# P\n' }, env });
    clients.push(first);
    const { sessionId } = await first.start(cwd);
    await first.prompt(sessionId, 'hello');
    await first.close();
    const second = TestClient.subprocess(demoAgentJs, [], { files: { [readme]: '# P\n' }, env });
    clients.push(second);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd });
    assert.equal(await second.prompt(sessionId, 'again'), 'end_turn');
    assert.match(second.text(), /Switchboard demo agent/);
  });
});

describe('demoAgent / session files', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-files-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const session = (sessionId: string, history: PersistedSession['history'] = []): PersistedSession =>
    ({ v: 1, sessionId, cwd: '/w', updatedAt: null, prompts: 1, history });

  it('joins the chunks of one message, not of different messages or kinds', () => {
    const chunk = (kind: string, text: string, messageId?: string) => ({ sessionUpdate: kind, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) });
    const joined = compactHistory([
      chunk('agent_message_chunk', 'a', 'm1'), chunk('agent_message_chunk', 'b', 'm1'), chunk('agent_message_chunk', 'c', 'm2'),
      chunk('agent_thought_chunk', 'd'), chunk('agent_thought_chunk', 'e'), { sessionUpdate: 'plan', entries: [] }, chunk('agent_thought_chunk', 'f'),
    ]);
    assert.deepEqual(joined.map((u) => (u.content as { text?: string } | undefined)?.text ?? u.sessionUpdate), ['ab', 'c', 'de', 'plan', 'f']);
  });

  it('keeps a file under the size cap by dropping the oldest updates', () => {
    const files = new SessionFiles(dir, () => undefined);
    const big = Array.from({ length: 200 }, (_, i) => ({ sessionUpdate: 'plan', entries: [], note: `${i}:${'x'.repeat(8000)}` }));
    files.save(session('s1', big));
    const [name] = fs.readdirSync(dir);
    assert.ok(fs.statSync(path.join(dir, name)).size <= maxSessionFileBytes);
    const kept = files.load('s1')?.history ?? [];
    assert.ok(kept.length > 0 && kept.length < 200);
    assert.equal(String(kept.at(-1)?.note).split(':')[0], '199', 'the newest update is kept');
  });

  it(`keeps at most ${maxSessionFiles} sessions, dropping the least recently written, and leaves no temporary files`, () => {
    const files = new SessionFiles(dir, () => undefined);
    for (let i = 0; i < maxSessionFiles + 3; i++) {
      files.save(session(`s${i}`));
      // distinct times, oldest first (saves within one millisecond would tie)
      fs.utimesSync(path.join(dir, `${Buffer.from(`s${i}`).toString('base64url')}.json`), i, i);
    }
    const names = fs.readdirSync(dir);
    assert.equal(names.length, maxSessionFiles);
    assert.ok(names.every((n) => n.endsWith('.json')));
    assert.equal(files.load('s0'), undefined);
    assert.equal(files.load('s2'), undefined);
    assert.equal(files.load('s3')?.sessionId, 's3');
  });

  it('never writes outside its folder, whatever the session id', () => {
    const files = new SessionFiles(dir, () => undefined);
    files.save(session('../../escape'));
    assert.equal(fs.readdirSync(dir).length, 1);
    assert.equal(files.load('../../escape')?.sessionId, '../../escape');
  });
});
