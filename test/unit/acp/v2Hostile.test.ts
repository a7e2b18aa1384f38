/**
 * A hostile or broken ACP v2 agent (a raw peer that chose v2 in `initialize`): bad messages get a JSON-RPC error or
 * are logged and dropped, v1's client methods do not exist on v2, and nothing hangs (src/acp/v2/v2Dialect.ts).
 */
import * as assert from 'node:assert/strict';
import type { SessionNotification } from '../../../src/acp/schema/types.gen';
import { AcpError } from '../../../src/acp/errors';
import { offerV2 } from '../../../src/acp/v2/v2Dialect';
import type { V2Event } from '../../../src/acp/v2/v2Updates';
import { delay, RawPeer, until } from '../helpers/rawPeer';

describe('ACP v2: a hostile agent', () => {
  let peer: RawPeer;
  const updates: SessionNotification[] = [];
  const events: V2Event[] = [];
  const asked: unknown[] = [];

  beforeEach(async () => {
    updates.length = 0;
    events.length = 0;
    asked.length = 0;
    peer = new RawPeer();
    peer.connection.onNotification('session/update', (p) => updates.push(p));
    peer.connection.onRequest('session/request_permission', (p) => (asked.push(p), { outcome: { outcome: 'selected', optionId: 'yes' } }));
    peer.connection.onRequest('fs/read_text_file', () => ({ content: 'secret' }));
    const init = peer.connection.initialize({ clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: 't', version: '0' } },
      undefined, offerV2({ onEvent: (e) => events.push(e), log: (m) => peer.logger.info(m) }));
    const req = await peer.next();
    assert.equal((req.params as { protocolVersion: number }).protocolVersion, 2);
    peer.send({ jsonrpc: '2.0', id: req.id, result: { protocolVersion: 2, info: { name: 'h', version: '1' }, capabilities: { session: {} } } });
    assert.equal((await init).protocolVersion, 2);
  });
  afterEach(() => peer.connection.close());

  const update = (u: object) => peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } });

  it('bad updates are logged and dropped; an unknown kind is ignored; good ones around them still land', async () => {
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'no id' } }); // v2 requires messageId
    update({ sessionUpdate: 'tool_call_update' }); // no toolCallId
    update({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: 42 });
    update({ sessionUpdate: 'warp_drive', level: 9 });
    update({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'fine' } });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { update: { sessionUpdate: 'agent_message_chunk' } } });
    await until(() => updates.length === 1 && peer.logger.lines.length >= 5);
    assert.equal(updates[0]?.update.sessionUpdate, 'agent_message_chunk');
    assert.ok(peer.logger.has(/invalid 'agent_message_chunk' update \(ACP v2\)/), peer.logger.lines.join('\n'));
    assert.ok(peer.logger.has(/unknown kind "warp_drive"/), peer.logger.lines.join('\n'));
    assert.ok(peer.logger.has(/invalid 'session\/update' notification \(ACP v2\)/), peer.logger.lines.join('\n'));
  });

  it('v1\'s fs/* does not exist on v2 (-32601, its handler never runs); a malformed permission gets -32602', async () => {
    peer.send({ jsonrpc: '2.0', id: 'r1', method: 'fs/read_text_file', params: { sessionId: 's', path: '/etc/passwd' } });
    const fs = await peer.next();
    assert.equal(fs.error?.code, -32601);
    peer.send({ jsonrpc: '2.0', id: 'r2', method: 'session/request_permission', params: { sessionId: 's', title: 'Run?', options: 'yes please' } });
    const bad = await peer.next();
    assert.equal(bad.error?.code, -32602);
    assert.match(bad.error?.message ?? '', /Invalid params for 'session\/request_permission' \(ACP v2\): options/);
  });

  it('a permission whose subject is a command shows as a command card; an option kind the client does not know is styled as a rejection', async () => {
    peer.send({ jsonrpc: '2.0', id: 'p', method: 'session/request_permission', params: {
      sessionId: 's', title: 'Delete the build?', subject: { type: 'command', command: 'rm -rf build', cwd: '/w' },
      options: [{ optionId: 'yes', name: 'Sure', kind: '_yolo' }],
    } });
    const answer = await peer.next();
    assert.deepEqual(answer.result, { outcome: { outcome: 'selected', optionId: 'yes' } });
    const card = updates.find((u) => u.update.sessionUpdate === 'tool_call')?.update as { title: string; kind: string; rawInput: unknown } | undefined;
    assert.equal(card?.title, 'Delete the build?');
    assert.equal(card?.kind, 'execute');
    assert.deepEqual(card?.rawInput, { command: 'rm -rf build', cwd: '/w' });
    assert.deepEqual((asked[0] as { options: unknown[] }).options, [{ optionId: 'yes', name: 'Sure', kind: 'reject_once' }]);
  });

  it('a prompt the agent acknowledges but never ends fails when the connection closes', async () => {
    const turn = peer.connection.request('session/prompt', { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result: { messageId: 'u1' } });
    await delay(50);
    update({ sessionUpdate: 'state_update', state: 'idle' }); // a snapshot, no stop reason: not this turn's end
    let settled = false;
    void turn.then(() => { settled = true; }, () => { settled = true; });
    await delay(50);
    assert.equal(settled, false);
    peer.connection.close(new AcpError('closed', 'agent gone'));
    await assert.rejects(turn, /agent gone/);
    assert.equal(events.filter((e) => e.type === 'state').length, 1);
  });

  it('a prompt the agent rejects (not inserted) fails at once, and the next one still ends at its idle', async () => {
    const rejected = peer.connection.request('session/prompt', { sessionId: 's', prompt: [{ type: 'text', text: 'no' }] });
    const r1 = await peer.next();
    peer.send({ jsonrpc: '2.0', id: r1.id, error: { code: -32603, message: 'Internal error', data: 'model down' } });
    await assert.rejects(rejected, /model down/);
    const ok = peer.connection.request('session/prompt', { sessionId: 's', prompt: [{ type: 'text', text: 'yes' }] });
    const r2 = await peer.next();
    peer.send({ jsonrpc: '2.0', id: r2.id, result: { messageId: 'u2' } });
    update({ sessionUpdate: 'state_update', state: 'running' });
    update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
    assert.equal((await ok).stopReason, 'end_turn');
  });

  it('an acknowledgement without a messageId is a protocol error, not a hang', async () => {
    const turn = peer.connection.request('session/prompt', { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } }); // a v1 answer on a v2 connection
    await assert.rejects(turn, (e: unknown) => AcpError.is(e, 'protocol'));
  });
});
