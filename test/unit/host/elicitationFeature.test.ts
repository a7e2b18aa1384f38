/**
 * The elicitation feature on a real connection to the scripted agent of elicitation.json: the capability it
 * advertises, session-scoped requests routed to the session's broker, a request-scoped one asked in the quick
 * input, unknown modes refused with -32602, and elicitation/complete routed by id (unknown ids logged).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AcpConnection } from '../../../src/acp/connection';
import type { SessionNotification } from '../../../src/acp/schema/types.gen';
import { AgentProcess } from '../../../src/agents/agentProcess';
import { clientCapabilitiesOf } from '../../../src/host/clientFeature';
import { ElicitationBroker } from '../../../src/host/permissions/elicitationBroker';
import type { ElicitationAnswer, ElicitationEnvironment, ElicitationPrompt } from '../../../src/host/permissions/elicitationBroker';
import { elicitationFeatureOver } from '../../../src/host/permissions/elicitationFeature';
import { RecordingLogger, until } from '../helpers/rawPeer';
import { fakeSession } from './permissionHelpers';

const repo = path.resolve(__dirname, '../../../..');
const agentJs = path.join(repo, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js');
const scenario = path.join(repo, 'test', 'fixtures', 'agents', 'scenarios', 'elicitation.json');

describe('elicitation feature, against the scripted agent', function () {
  this.timeout(20000);
  let proc: AgentProcess | undefined;
  afterEach(async () => { await proc?.kill(); proc = undefined; });

  async function start() {
    proc = await AgentProcess.spawn({ id: 'scripted', name: 'Scripted', command: process.execPath, args: [agentJs, scenario], env: {} }, { cwd: repo, baseEnv: process.env, graceMs: 500 });
    const conn = AcpConnection.overStreams(proc.stdout, proc.stdin, { logger: new RecordingLogger(), streamEndGraceMs: 500 });
    const updates: SessionNotification[] = [];
    conn.onNotification('session/update', (p) => updates.push(p));
    const asked: ElicitationPrompt[] = [];
    const env: ElicitationEnvironment = {
      ask: (prompt) => { asked.push(prompt); return Promise.resolve<ElicitationAnswer>({ action: 'accept', content: { ws: 'b' } }); },
      openExternal: () => Promise.resolve(true),
    };
    const feature = elicitationFeatureOver(env);
    const session = fakeSession('will-be-set');
    const broker = new ElicitationBroker(session.ctx, env);
    const logged: string[] = [];
    feature.register?.(conn, () => broker, (m) => logged.push(m), undefined);
    conn.listen();
    const capabilities = clientCapabilitiesOf([feature]);
    await conn.initialize({ clientCapabilities: capabilities, clientInfo: { name: 'test', version: '0' } });
    const { sessionId } = await conn.request('session/new', { cwd: repo, mcpServers: [] });
    const prompt = (text: string) => conn.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    const text = () => updates.map((u) => (u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' ? u.update.content.text : '')).join('');
    return { conn, capabilities, broker, thread: session.thread, asked, logged, prompt, text };
  }

  it('advertises form and url; the agent sees them', async () => {
    const r = await start();
    assert.deepEqual(r.capabilities, { elicitation: { form: {}, url: {} } });
    await r.prompt('capabilities');
    assert.match(r.text(), /client elicitation: form\+url/);
  });

  it('routes a session-scoped form to the session broker; a request-scoped one is asked in the quick input', async () => {
    const r = await start();
    const turn = r.prompt('form in card');
    await until(() => r.broker.pending.length === 1, 5000, 'the parked form');
    const [p] = r.broker.pending;
    assert.ok(r.broker.respond(p.requestId, 'accept', { env: 'prod' }));
    await turn;
    assert.match(r.text(), /\[elicit\] accept: \{"env":"prod"\}/);
    await r.prompt('request scoped');
    assert.equal(r.asked[0]?.message, 'Pick a workspace');
    assert.match(r.text(), /\[elicit\] accept: \{"ws":"b"\}/);
  });

  it('refuses unknown modes with -32602; routes elicitation/complete by id and logs an unknown one', async () => {
    const r = await start();
    await r.prompt('unknown mode');
    assert.match(r.text(), /\[wizard\] error: -32602/);
    const turn = r.prompt('url');
    await until(() => r.broker.pending.length === 1, 5000, 'the URL request');
    const [p] = r.broker.pending;
    r.broker.respond(p.requestId, 'accept');
    await turn;
    assert.equal(r.broker.pending[0]?.state, 'waiting');
    await r.prompt('finish url');
    await until(() => r.broker.pending.length === 0, 5000, 'the completion');
    assert.equal(r.thread.elicitations.find(p.requestId)?.view.outcome, 'Completed');
    await until(() => r.logged.some((m) => m.includes("'never-sent'")), 5000, 'the unknown id logged');
  });
});
