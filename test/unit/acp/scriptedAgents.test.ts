/**
 * Our AcpConnection against real scripted agent processes built on the official SDK
 * (test/fixtures/agents), through real pipes: crashes, version mismatch, malformed traffic, big messages.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AcpConnection } from '../../../src/acp/connection';
import { AcpError } from '../../../src/acp/errors';
import type { SessionNotification } from '../../../src/acp/schema/types.gen';
import { AgentExitedError } from '../../../src/agents/agentErrors';
import { AgentProcess } from '../../../src/agents/agentProcess';
import { RecordingLogger, until } from '../helpers/rawPeer';

const repo = path.resolve(__dirname, '../../../..');
const agentJs = path.join(repo, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js');
const scenario = (name: string) => path.join(repo, 'test', 'fixtures', 'agents', 'scenarios', `${name}.json`);

interface Running {
  proc: AgentProcess;
  conn: AcpConnection;
  logger: RecordingLogger;
  updates: SessionNotification[];
  text(): string;
}

async function start(name: string, maxMessageBytes?: number): Promise<Running> {
  const proc = await AgentProcess.spawn({ id: 'scripted', name: 'Scripted', command: process.execPath, args: [agentJs, scenario(name)], env: {} }, { cwd: repo, baseEnv: process.env, graceMs: 500 });
  const logger = new RecordingLogger();
  const conn = AcpConnection.overStreams(proc.stdout, proc.stdin, { logger, streamEndGraceMs: 500, ...(maxMessageBytes ? { maxMessageBytes } : {}) });
  const updates: SessionNotification[] = [];
  conn.onNotification('session/update', (p) => updates.push(p));
  conn.onRequest('session/request_permission', () => new Promise(() => undefined)); // never answered
  proc.onDidExit((exit) => conn.closeWhenDrained(exit.error));
  conn.listen();
  const text = () => updates.map((u) => (u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' ? u.update.content.text : '')).join('');
  return { proc, conn, logger, updates, text };
}

const init = (r: Running) => r.conn.initialize({ clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'test', version: '0' } });

async function newSessionAndPrompt(r: Running, text = 'go') {
  await init(r);
  const { sessionId } = await r.conn.request('session/new', { cwd: repo, mcpServers: [] });
  return { sessionId, turn: r.conn.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }) };
}

describe('AcpConnection with scripted agent processes', function () {
  this.timeout(20000);
  const running: Running[] = [];
  const track = async (name: string, cap?: number) => { const r = await start(name, cap); running.push(r); return r; };
  afterEach(async () => { await Promise.all(running.splice(0).map((r) => r.proc.kill())); });

  it('a crash in the middle of a request rejects every pending request with a typed error within 1 s', async () => {
    const r = await track('crashMidTurn');
    const { sessionId, turn } = await newSessionAndPrompt(r);
    const second = await r.conn.request('session/new', { cwd: repo, mcpServers: [] });
    const other = r.conn.request('session/prompt', { sessionId: second.sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await until(() => r.updates.some((u) => u.update.sessionUpdate === 'tool_call'), 5000, 'the tool call before the crash');
    const exit = await r.proc.exited;
    const t0 = Date.now();
    const [a, b] = await Promise.allSettled([turn, other]);
    assert.ok(Date.now() - t0 < 1000, 'rejected within 1 s of the exit');
    for (const s of [a, b]) {
      assert.equal(s.status, 'rejected');
      const e = (s as PromiseRejectedResult).reason as unknown;
      assert.ok(AgentExitedError.is(e), `typed error, got ${String(e)}`);
      assert.equal(e.code, 1);
      assert.ok(e.stderrTail.some((l) => /panic: something went terribly wrong/.test(l)), e.stderrTail.join('\n'));
    }
    assert.equal(exit.code, 1);
    assert.equal(sessionId.length > 0, true);
    assert.match(r.text(), /Working on it/, 'updates written before the crash were handled');
  });

  it('a crash during initialize rejects it with the exit code and the stderr', async () => {
    const r = await track('crashInitialize');
    const err = await init(r).catch((e: unknown) => e);
    assert.ok(AgentExitedError.is(err), String(err));
    assert.equal(err.code, 3);
    assert.match(err.message, /exited with code 3: Error: cannot find module 'missing-dependency'/);
  });

  it('refuses an agent that answers another protocol version, and says so', async () => {
    const r = await track('wrongProtocolVersion');
    await assert.rejects(init(r), (e: unknown) => AcpError.is(e, 'unsupportedVersion') && /version 2/.test(e.message));
    assert.ok(r.conn.isClosed);
  });

  it('skips non-JSON lines and reassembles a message split across writes', async () => {
    const r = await track('nonJsonLine');
    const { turn } = await newSessionAndPrompt(r);
    await turn;
    assert.equal(r.text(), 'before split after');
    assert.ok(r.logger.has(/Skipped a line from the agent that is not JSON: "Debugger listening/), r.logger.lines.join('\n'));
  });

  it('passes a 10 MB update through a real pipe', async () => {
    const r = await track('hugeMessage');
    const { turn } = await newSessionAndPrompt(r);
    await turn;
    assert.ok(r.text().length >= 10_000_000, `got ${r.text().length} characters`);
    assert.match(r.text(), /after the huge message$/);
  });

  it('drops a 70 MB update over the cap and the session goes on', async () => {
    const r = await track('overCapMessage', 64 * 1024 * 1024);
    const { turn } = await newSessionAndPrompt(r);
    assert.equal((await turn).stopReason, 'end_turn');
    assert.equal(r.text(), 'after the over-cap message');
    assert.ok(r.logger.has(/Dropped a 'session\/update' of 6\d\.\d MiB: over the 64\.0 MiB cap/), r.logger.lines.join('\n'));
  });
});
