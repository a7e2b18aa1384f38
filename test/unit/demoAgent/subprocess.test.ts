import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoAgentJs, scenarioDir, scriptedAgentJs, TestClient, type TestClientOptions } from './acpTestClient';

// The bundled agents as real processes: exit codes, signals, stderr, stdin EOF, big messages on a pipe.

type Exit = { code: number | null; signal: string | null };

describe('demoAgent / agents as processes', function () {
  this.timeout(20000);
  let client: TestClient | undefined;
  const spawnScenario = (name: string, options: TestClientOptions = {}): TestClient => {
    client = TestClient.subprocess(scriptedAgentJs, [path.join(scenarioDir, `${name}.json`)], options);
    return client;
  };
  before(function () {
    if (!fs.existsSync(scriptedAgentJs)) {
      this.skip();
    }
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('exits with code 3 while handling initialize (crashInitialize.json)', async () => {
    const c = spawnScenario('crashInitialize');
    await assert.rejects(c.initialize());
    assert.deepEqual(await c.agentDone, { code: 3, signal: null });
    assert.match(c.stderr.join(''), /cannot find module 'missing-dependency'\n {4}at Module\._resolveFilename/);
  });

  it('dies from SIGKILL while handling session/new (crashSessionNew.json)', async () => {
    const c = spawnScenario('crashSessionNew');
    await c.initialize();
    await assert.rejects(c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] }));
    assert.deepEqual(await c.agentDone, { code: null, signal: 'SIGKILL' });
    assert.match(c.stderr.join(''), /fatal: out of memory/);
    assert.ok(c.wire.some((w) => 'json' in w && w.json.method === 'session/update'), 'the update before the crash got out');
  });

  it('exits with code 1 mid-turn while a permission request is pending (crashMidTurn.json)', async () => {
    const c = spawnScenario('crashMidTurn', { permission: () => new Promise(() => undefined) });
    const { sessionId } = await c.start();
    await assert.rejects(c.prompt(sessionId, 'go'));
    assert.equal(c.requestsOf('session/request_permission').length, 1);
    assert.deepEqual(await c.agentDone, { code: 1, signal: null });
    assert.match(c.stderr.join(''), /panic: something went terribly wrong\ngoroutine 1/);
  });

  it('keeps stderr apart from stdout and exits 0 when stdin closes (stderrCapture.json)', async () => {
    const c = spawnScenario('stderrCapture');
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'go');
    await c.close();
    assert.deepEqual(await c.agentDone, { code: 0, signal: null });
    const stderr = c.stderr.join('');
    assert.ok(stderr.startsWith('stderr line 1: agent starting\n'));
    assert.match(stderr, /stderr during the turn/);
    assert.match(stderr, /\[stderr-capture\] connection closed/);
    assert.ok(c.wire.length > 0 && c.wire.every((w) => 'json' in w));
  });

  it('takes the scenario from env SCENARIO', async () => {
    client = TestClient.subprocess(scriptedAgentJs, [], { env: { SCENARIO: path.join(scenarioDir, 'plan.json') } });
    const { sessionId } = await client.start();
    await client.prompt(sessionId, 'plan');
    assert.equal(client.updatesOf('plan').length, 3);
  });

  it('pushes a 10 MB message through the pipe (hugeMessage.json)', async () => {
    const c = spawnScenario('hugeMessage');
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'big'), 'end_turn');
    const texts = c.updatesOf('agent_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text.length : 0));
    assert.deepEqual(texts, [10_000_000, 'after the huge message'.length]);
  });

  it('runs the bundled Demo agent as node with ELECTRON_RUN_AS_NODE=1', async function () {
    if (!fs.existsSync(demoAgentJs)) {
      this.skip();
    }
    client = TestClient.subprocess(demoAgentJs, [], { env: { ELECTRON_RUN_AS_NODE: '1' } });
    const init = await client.initialize();
    assert.equal(init.agentInfo?.title, 'Switchboard Demo Agent');
    const { sessionId } = await client.agent.request(acp.methods.agent.session.new, { cwd: '/tmp', mcpServers: [] });
    assert.equal(await client.prompt(sessionId, 'hello'), 'end_turn');
    assert.match(client.text(), /^Hi! I'm the \*\*Switchboard demo agent\*\*/);
    await client.close();
    assert.deepEqual(await client.agentDone as Exit, { code: 0, signal: null });
    assert.match(client.stderr.join(''), /\[switchboard-demo\] ← #2 session\/prompt/);
  });

  // issue 26: the tour's terminal card shows `node -e …` as a user would type it, not a path inside the editor
  for (const [label, PATH, expected] of [['on PATH', path.dirname(process.execPath), 'node'], ['not on PATH', '', process.execPath]] as const) {
    it(`the Demo agent's tour runs its terminal command as ${label === 'on PATH' ? '`node`' : 'its own executable'} when node is ${label}`, async function () {
      if (!fs.existsSync(demoAgentJs) || path.basename(process.execPath, '.exe') !== 'node') this.skip();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-node-'));
      client = TestClient.subprocess(demoAgentJs, [], { env: { ELECTRON_RUN_AS_NODE: '1', PATH, SWITCHBOARD_DEMO_SESSIONS_DIR: dir } });
      await client.initialize();
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, { cwd: dir, mcpServers: [] });
      assert.equal(await client.prompt(sessionId, '/tour'), 'end_turn');
      const create = client.requestsOf('terminal/create')[0] as acp.CreateTerminalRequest;
      assert.equal(create.command, expected);
      assert.equal(create.args?.[0], '-e');
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }
});
