/**
 * ACP v2 behind the offer (src/acp/v2/v2Dialect.ts): our AcpConnection against the scripted v2 agent on the SDK's
 * `experimental/v2` entry point (test/fixtures/agents/v2Agent.ts) and against a v1 scripted agent, through real pipes.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { AcpConnection } from '../../../src/acp/connection';
import type { SessionNotification } from '../../../src/acp/schema/types.gen';
import { advertisesSteering, steeringAnswerSchema, steeringMethod, steeringParams } from '../../../src/acp/steering';
import { offerV2 } from '../../../src/acp/v2/v2Dialect';
import type { V2Event } from '../../../src/acp/v2/v2Updates';
import { AgentProcess } from '../../../src/agents/agentProcess';
import { RecordingLogger, until } from '../helpers/rawPeer';

const repo = path.resolve(__dirname, '../../../..');
const v2Js = path.join(repo, 'out', 'test', 'fixtures', 'agents', 'v2Agent.js');
const v1Js = path.join(repo, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js');

interface Running {
  proc: AgentProcess;
  conn: AcpConnection;
  updates: SessionNotification[];
  events: V2Event[];
  logger: RecordingLogger;
  permissions: unknown[];
}

describe('ACP v2 dialect against real agent processes', function () {
  this.timeout(20000);
  const running: Running[] = [];
  let dir = '';
  beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'v2dialect-')); });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.proc.kill()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(args: string[], answer: string = 'allow'): Promise<Running> {
    const proc = await AgentProcess.spawn({ id: 'v2', name: 'v2', command: process.execPath, args, env: { V2_AGENT_STORE: path.join(dir, 'store') } }, { cwd: dir, baseEnv: process.env, graceMs: 500 });
    const logger = new RecordingLogger();
    const conn = AcpConnection.overStreams(proc.stdout, proc.stdin, { logger, streamEndGraceMs: 500 });
    const r: Running = { proc, conn, updates: [], events: [], logger, permissions: [] };
    conn.onNotification('session/update', (p) => r.updates.push(p));
    conn.onRequest('session/request_permission', (p) => {
      r.permissions.push(p);
      return { outcome: { outcome: 'selected', optionId: answer } };
    });
    proc.onDidExit((exit) => conn.closeWhenDrained(exit.error));
    conn.listen();
    running.push(r);
    return r;
  }
  const init = (r: Running) => r.conn.initialize(
    { clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: 'test', version: '0' } },
    undefined, offerV2({ onEvent: (e) => r.events.push(e), log: (m) => r.logger.info(m) }),
  );
  const kinds = (r: Running) => r.updates.map((u) => u.update.sessionUpdate);

  it('negotiates v2 and maps a whole turn onto v1 updates; the prompt answers at the idle state', async () => {
    const r = await start([v2Js]);
    const init2 = await init(r);
    assert.equal(init2.protocolVersion, 2);
    assert.equal(init2.agentInfo?.name, 'v2-test-agent');
    assert.equal(init2.agentCapabilities?.loadSession, true);
    assert.equal(init2.agentCapabilities?.promptCapabilities?.image, true);
    assert.ok(advertisesSteering(init2), 'steering advertised in a v2 answer\'s _meta reads as on v1');
    const session = await r.conn.request('session/new', { cwd: dir, mcpServers: [] });
    assert.equal(session.configOptions?.[0]?.id, 'model', 'configId is v1 id');
    assert.deepEqual((session as { availableCommands?: unknown }).availableCommands, [{ name: 'review', description: 'Review the changes', input: { hint: 'what to look at' } }]);
    const steer = await r.conn.requestExtension(steeringMethod, steeringParams(session.sessionId, [{ type: 'text', text: 'also this' }]), steeringAnswerSchema);
    assert.equal(steer.outcome, 'promptRequired', 'an extension request goes through the dialect as it is');
    const result = await r.conn.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    assert.equal(result.stopReason, 'end_turn');
    assert.ok(!kinds(r).includes('user_message_chunk'), 'our own prompt is not echoed back into the thread');
    const text = r.updates.map((u) => (u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' ? u.update.content.text : '')).join('');
    assert.equal(text, 'Hello from ACP v2. Here is the tour.', 'chunks, then the rest the whole message adds');
    const calls = r.updates.filter((u) => u.update.sessionUpdate === 'tool_call').map((u) => (u.update as { toolCallId: string }).toolCallId);
    assert.deepEqual(calls, ['read', 'edit', 'test'], 'a first upsert creates the tool call');
    const edit = r.updates.find((u) => u.update.sessionUpdate === 'tool_call' && u.update.toolCallId === 'edit')?.update as { content: { type: string; path?: string; oldText?: string | null; newText?: string }[] };
    assert.equal(edit.content[0]?.type, 'diff');
    assert.equal(edit.content[0]?.path, path.join(dir, 'v2-notes.md'));
    assert.equal(edit.content[0]?.oldText, null, 'an added file has no old text');
    assert.equal(edit.content[0]?.newText, 'v2 notes line');
    const chunk = r.updates.find((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.toolCallId === 'read' && u.update.content)?.update as { content: unknown[] };
    assert.deepEqual(chunk.content, [{ type: 'content', content: { type: 'text', text: 'v2 read: the first line of the readme' } }], 'a content chunk appends');
    assert.equal(r.permissions.length, 1);
    assert.deepEqual((r.permissions[0] as { toolCall: unknown }).toolCall, { toolCallId: 'test' });
    const terminal = r.events.filter((e): e is Extract<V2Event, { type: 'terminal' }> => e.type === 'terminal' && e.terminalId === 'test-1');
    assert.equal(terminal[0]?.command, 'npm test');
    assert.equal(terminal.map((e) => e.append ?? '').join(''), 'v2 output: 3 passing ✓ done\n', 'base64 chunks split inside a character decode whole');
    assert.deepEqual(terminal.at(-1)?.exitStatus, { exitCode: 0, signal: null });
    assert.ok(kinds(r).includes('plan_update') && kinds(r).includes('usage_update') && kinds(r).includes('session_info_update'));
    assert.ok(r.events.some((e) => e.type === 'state' && e.state === 'requires_action'));
  });

  it('session/load is a resume that replays from the start; config options and cancels go as v2 asks', async () => {
    const r = await start([v2Js]);
    await init(r);
    const { sessionId } = await r.conn.request('session/new', { cwd: dir, mcpServers: [] });
    await r.conn.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    const set = await r.conn.request('session/set_config_option', { sessionId, configId: 'model', value: 'deep' });
    assert.equal(set.configOptions[0]?.type === 'select' ? set.configOptions[0].currentValue : '', 'deep');
    const second = await start([v2Js]);
    await init(second);
    await second.conn.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    assert.ok(second.updates.some((u) => u.update.sessionUpdate === 'user_message_chunk'), 'a replayed user message is shown');
    assert.equal(second.updates.filter((u) => u.update.sessionUpdate === 'tool_call').length, 3);
    // background work: cancel a terminal and a tool call on their own
    const turn = await second.conn.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'start and stop' }] });
    assert.equal(turn.stopReason, 'end_turn');
    const listed = second.events.filter((e) => e.type === 'state').at(-1);
    assert.deepEqual(listed?.type === 'state' ? listed.background : undefined, [{ type: 'terminal', id: 'watch-1' }, { type: 'tool_call', id: 'index' }]);
    assert.ok(second.events.some((e) => e.type === 'toolCall' && e.toolCallId === 'index' && e.cancellable));
    await second.conn.requestExtension('tool_call/cancel', { sessionId, toolCallId: 'index' }, z.unknown());
    await second.conn.requestExtension('terminal/cancel', { sessionId, terminalId: 'watch-1' }, z.unknown());
    // each stop is confirmed on its own, after its answer: wait for both confirmations, and the emptied list
    await until(() => second.events.some((e) => e.type === 'state' && e.background?.length === 0)
      && second.events.some((e) => e.type === 'terminal' && e.terminalId === 'watch-1' && e.exitStatus !== undefined)
      && second.updates.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.toolCallId === 'index' && u.update.status === 'failed'), 5000, 'both stops confirmed');
    assert.ok(second.updates.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.toolCallId === 'index' && u.update.status === 'failed'));
    assert.ok(second.events.some((e) => e.type === 'toolCall' && e.toolCallId === 'index' && e.cancelled && e.cancellable === false));
    assert.ok(second.events.some((e) => e.type === 'terminal' && e.terminalId === 'watch-1' && e.exitStatus?.signal === 'SIGTERM'));
  });

  it('a v1 agent offered v2 answers v1 and the connection stays v1', async () => {
    const r = await start([v1Js, path.join(repo, 'test', 'fixtures', 'agents', 'scenarios', 'plan.json')]);
    const answer = await init(r);
    assert.equal(answer.protocolVersion, 1);
    const { sessionId } = await r.conn.request('session/new', { cwd: dir, mcpServers: [] });
    const turn = await r.conn.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.ok(turn.stopReason);
    assert.equal(r.events.length, 0);
  });
});
