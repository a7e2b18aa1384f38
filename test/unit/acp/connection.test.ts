import * as assert from 'node:assert/strict';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { AcpError } from '../../../src/acp/errors';
import { delay, RawPeer, until } from '../helpers/rawPeer';

const readParams = { sessionId: 's1', path: '/w/a.txt' };

describe('AcpConnection', () => {
  let peer: RawPeer;
  beforeEach(() => { peer = new RawPeer({ cancelGraceMs: 200 }); });
  afterEach(() => peer.connection.close());

  it('answers invalid params with -32602 carrying the validation message', async () => {
    let called = false;
    peer.connection.onRequest('fs/read_text_file', () => { called = true; return { content: '' }; });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 's1', line: 'ten' } });
    const reply = await peer.next();
    assert.equal(reply.id, 1);
    assert.equal(reply.error?.code, -32602);
    assert.match(reply.error?.message ?? '', /Invalid params for 'fs\/read_text_file': .*path.*/);
    assert.equal(called, false);
  });

  it('answers an unknown method with -32601, and an unregistered known one too', async () => {
    peer.send({ jsonrpc: '2.0', id: 2, method: '_vendor/thing', params: {} });
    const r1 = await peer.next();
    assert.equal(r1.error?.code, -32601);
    assert.match(r1.error?.message ?? '', /Method not found: _vendor\/thing/);
    peer.send({ jsonrpc: '2.0', id: 3, method: 'terminal/create', params: { sessionId: 's', command: 'ls' } });
    assert.equal((await peer.next()).error?.code, -32601);
  });

  it('echoes string request ids exactly (codex-acp uses strings)', async () => {
    peer.connection.onRequest('fs/read_text_file', (p) => ({ content: `read ${p.path}` }));
    peer.send({ jsonrpc: '2.0', id: 'req-7f3a', method: 'fs/read_text_file', params: readParams });
    peer.send({ jsonrpc: '2.0', id: 8, method: 'fs/read_text_file', params: readParams });
    const [a, b] = [await peer.next(), await peer.next()];
    assert.deepEqual([a.id, b.id].sort(), [8, 'req-7f3a'].sort());
    assert.deepEqual(a.result, { content: 'read /w/a.txt' });
  });

  it('resolves our requests with the validated answer', async () => {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    assert.equal(req.method, 'session/new');
    peer.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 'abc' } });
    assert.equal((await p).sessionId, 'abc');
  });

  it('passes unknown fields through to handlers', async () => {
    let seen: unknown;
    peer.connection.onNotification('session/update', (p) => { seen = p; });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', future: 1, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi', x: true } } } });
    await until(() => seen !== undefined);
    assert.deepEqual(seen, { sessionId: 's', future: 1, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi', x: true } } });
  });

  it('logs and ignores unknown session/update kinds and keeps going', async () => {
    const seen: string[] = [];
    peer.connection.onNotification('session/update', (p) => { seen.push(p.update.sessionUpdate); });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'hologram', x: 1 } } });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } } });
    await until(() => seen.length === 1);
    assert.deepEqual(seen, ['plan']);
    assert.ok(peer.logger.has(/ignored session\/update of unknown kind "hologram"/));
  });

  it('logs and ignores a plan_update of a plan type it does not know (a newer protocol\'s), and keeps going', async () => {
    const seen: string[] = [];
    peer.connection.onNotification('session/update', (p) => { seen.push(p.update.sessionUpdate === 'plan_update' ? p.update.plan.type : p.update.sessionUpdate); });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan_update', plan: { type: 'diagram', planId: 'd', svg: '<svg/>' } } } });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'm', content: '# M' } } } });
    await until(() => seen.length === 1);
    assert.deepEqual(seen, ['markdown']);
    assert.ok(peer.logger.has(/ignored a plan_update of unknown type "diagram"/));
    assert.ok(!peer.logger.has(/invalid 'session\/update'/), 'not reported as invalid');
  });

  it('drops config options of unknown types but keeps the rest of the message', async () => {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 'x', configOptions: [
      { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      { id: 'temp', name: 'Temperature', type: 'slider', currentValue: 0.3 },
    ] } });
    const res = await p;
    assert.deepEqual(res.configOptions?.map((o) => o.id), ['model']);
  });

  it('accepts null results where the guide shows them', async () => {
    const p = peer.connection.request('session/load', { sessionId: 's', cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result: null });
    assert.deepEqual(await p, {});
  });

  it('rejects with a typed remote error carrying the code', async () => {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'Authentication required' } });
    const err = await p.catch((e: unknown) => e);
    assert.ok(AcpError.isAuthRequired(err));
  });

  it('rejects an answer that does not match the schema', async () => {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result: { notASessionId: 1 } });
    await assert.rejects(p, (e: unknown) => AcpError.is(e, 'protocol') && /sessionId/.test(e.message));
  });

  it('cancels our request with $/cancel_request and honours the -32800 answer', async () => {
    const cts = new CancellationTokenSource();
    const p = peer.connection.request('session/list', {}, cts.token);
    const req = await peer.next();
    cts.cancel();
    const cancel = await peer.next();
    assert.equal(cancel.method, '$/cancel_request');
    assert.deepEqual(cancel.params, { requestId: req.id });
    peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32800, message: 'cancelled' } });
    await assert.rejects(p, (e: unknown) => AcpError.is(e, 'cancelled'));
  });

  it('rejects a cancelled request locally when the agent never answers', async () => {
    const cts = new CancellationTokenSource();
    const p = peer.connection.request('session/list', {}, cts.token);
    await peer.next();
    const t0 = Date.now();
    cts.cancel();
    await assert.rejects(p, (e: unknown) => AcpError.is(e, 'cancelled'));
    assert.ok(Date.now() - t0 < 1000);
  });

  it('answers -32800 when the agent cancels its own request with $/cancel_request', async () => {
    let cancelled = false;
    peer.connection.onRequest('session/request_permission', (_p, token) => new Promise((resolve) => {
      token.onCancellationRequested(() => { cancelled = true; });
      setTimeout(() => resolve({ outcome: { outcome: 'cancelled' } }), 5000).unref();
    }));
    peer.send({ jsonrpc: '2.0', id: 'perm-1', method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [] } });
    await delay(20);
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'perm-1' } });
    const reply = await peer.next();
    assert.equal(reply.id, 'perm-1');
    assert.equal(reply.error?.code, -32800);
    assert.equal(cancelled, true, 'the handler saw its token fire');
  });

  it('rejects every pending request at once when the agent closes the stream', async () => {
    const a = peer.connection.request('session/list', {});
    const b = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    await peer.next();
    await peer.next();
    const t0 = Date.now();
    peer.end();
    const results = await Promise.allSettled([a, b]);
    assert.ok(Date.now() - t0 < 1000);
    for (const r of results) assert.ok(r.status === 'rejected' && AcpError.is(r.reason, 'closed'));
    await assert.rejects(peer.connection.request('session/list', {}), (e: unknown) => AcpError.is(e, 'closed'));
  });

  it('handles the updates an agent wrote just before it closed the stream', async () => {
    const seen: number[] = [];
    peer.connection.onNotification('session/update', (p) => { seen.push(Number((p.update as { entries?: unknown[] }).entries?.length)); });
    const p = peer.connection.request('session/list', {});
    const req = await peer.next();
    // a response (queued by vscode-jsonrpc) followed by updates that must wait behind it
    peer.write(`${JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { sessions: [] } })}\n`);
    for (let i = 0; i < 5; i++) peer.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: new Array(i).fill({ content: 'c', priority: 'low', status: 'pending' }) } } })}\n`);
    peer.end();
    await p;
    await until(() => seen.length === 5);
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  });

  it('closes and explains when the agent speaks another protocol version', async () => {
    const p = peer.connection.initialize({ clientCapabilities: {}, clientInfo: { name: 'switchboard', version: '0' } });
    const req = await peer.next();
    assert.equal((req.params as { protocolVersion: number }).protocolVersion, 1);
    peer.send({ jsonrpc: '2.0', id: req.id, result: { protocolVersion: 2 } });
    await assert.rejects(p, (e: unknown) => AcpError.is(e, 'unsupportedVersion') && /version 2.*supports version 1/.test(e.message));
    assert.ok(peer.connection.isClosed);
  });

  it('keeps working after an over-cap message', async () => {
    peer.connection.close();
    peer = new RawPeer({ maxMessageBytes: 512 });
    peer.connection.onRequest('fs/read_text_file', () => ({ content: 'ok' }));
    peer.send({ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { ...readParams, pad: 'p'.repeat(2000) } });
    const tooBig = await peer.next();
    assert.equal(tooBig.id, 1);
    assert.equal(tooBig.error?.code, -32600);
    peer.send({ jsonrpc: '2.0', id: 2, method: 'fs/read_text_file', params: readParams });
    assert.deepEqual((await peer.next()).result, { content: 'ok' });
  });
});
