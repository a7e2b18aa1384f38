/**
 * W3C trace ids on the client's requests (src/acp/traceContext.ts): only while the log traces, one trace id per
 * session (the connection's for requests without a session), a fresh span id per request, merged into `_meta`.
 */
import * as assert from 'node:assert/strict';
import type { Message } from 'vscode-jsonrpc/node';
import { TraceIds, traceLine, traceparentPattern } from '../../../src/acp/traceContext';
import { RawPeer, RecordingLogger } from '../helpers/rawPeer';
import type { Sent } from '../helpers/rawPeer';

/** A logger whose trace level can be switched, recording the trace lines. */
class TracingLogger extends RecordingLogger {
  tracing = true;
  readonly traced: string[] = [];
  trace(direction: 'send' | 'receive', message: Message): void { if (this.tracing) this.traced.push(traceLine(direction, message)); }
  traceEnabled(): boolean { return this.tracing; }
}

function traceparentOf(m: Sent): string | undefined {
  return ((m.params as { _meta?: { traceparent?: string } } | undefined)?._meta)?.traceparent;
}

const parts = (tp: string | undefined) => {
  const [version, traceId, spanId, flags] = (tp ?? '').split('-');
  return { version, traceId, spanId, flags };
};

describe('trace ids on requests (traceparent)', () => {
  let peer: RawPeer;
  let logger: TracingLogger;
  beforeEach(() => { logger = new TracingLogger(); peer = new RawPeer({ logger }); });
  afterEach(() => peer.connection.close());

  /** Sends a request, answers it, and returns what went on the wire. */
  async function roundTrip(send: () => Promise<unknown>, result: unknown): Promise<Sent> {
    const done = send();
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result });
    await done;
    return req;
  }

  it('puts a valid traceparent on every request while the log traces: one trace per session, a new span per request', async () => {
    const init = await roundTrip(() => peer.connection.request('initialize', { protocolVersion: 1, clientCapabilities: {} }), { protocolVersion: 1 });
    const created = await roundTrip(() => peer.connection.request('session/new', { cwd: '/w', mcpServers: [] }), { sessionId: 's1' });
    const p1 = await roundTrip(() => peer.connection.request('session/prompt', { sessionId: 's1', prompt: [] }), { stopReason: 'end_turn' });
    const p2 = await roundTrip(() => peer.connection.request('session/prompt', { sessionId: 's1', prompt: [] }), { stopReason: 'end_turn' });
    const other = await roundTrip(() => peer.connection.request('session/prompt', { sessionId: 's2', prompt: [] }), { stopReason: 'end_turn' });
    const all = [init, created, p1, p2, other].map(traceparentOf);
    for (const tp of all) assert.match(tp ?? '', traceparentPattern);
    for (const tp of all) assert.deepEqual([parts(tp).version, parts(tp).flags], ['00', '01']);
    assert.equal(parts(all[0]).traceId, parts(all[1]).traceId, 'requests without a session share the connection trace');
    assert.equal(parts(all[2]).traceId, parts(all[3]).traceId, 'one trace per session');
    assert.notEqual(parts(all[2]).traceId, parts(all[0]).traceId);
    assert.notEqual(parts(all[4]).traceId, parts(all[2]).traceId, 'another session, another trace');
    assert.equal(new Set(all.map((tp) => parts(tp).spanId)).size, all.length, 'every request has its own span id');
    const sentLines = logger.traced.filter((l) => l.startsWith('→'));
    assert.equal(sentLines.length, 5);
    sentLines.forEach((line, i) => assert.ok(line.startsWith(`→ [traceparent ${all[i]}] {`), `the trace log names the traceparent: ${line.slice(0, 80)}`));
    assert.ok(logger.traced.filter((l) => l.startsWith('←')).every((l) => !l.includes('[traceparent')), 'not on the answers');
  });

  it('sends nothing of the kind at other log levels', async () => {
    logger.tracing = false;
    const req = await roundTrip(() => peer.connection.request('session/prompt', { sessionId: 's1', prompt: [] }), { stopReason: 'end_turn' });
    assert.equal(traceparentOf(req), undefined);
    assert.equal('_meta' in (req.params as object), false, 'no _meta added');
    logger.tracing = true;
    const traced = await roundTrip(() => peer.connection.request('session/prompt', { sessionId: 's1', prompt: [] }), { stopReason: 'end_turn' });
    assert.match(traceparentOf(traced) ?? '', traceparentPattern, 'follows the level as it changes');
  });

  it('merges with the _meta a request has, and keeps a traceparent already there', () => {
    const ids = new TraceIds();
    const stamped = ids.stamp({ sessionId: 's', _meta: { vendor: { x: 1 } } });
    assert.deepEqual(Object.keys(stamped.params._meta as object).sort(), ['traceparent', 'vendor']);
    assert.deepEqual((stamped.params._meta as { vendor: unknown }).vendor, { x: 1 });
    const upstream = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    assert.equal(ids.stamp({ _meta: { traceparent: upstream } }).traceparent, upstream);
    assert.match(ids.stamp({ _meta: { traceparent: 'garbage' } }).traceparent, traceparentPattern, 'an invalid one is replaced');
    assert.match(ids.stamp(undefined).traceparent, traceparentPattern, 'params without an object');
  });

  it('the pattern follows the W3C format: lowercase hex, no all-zero ids', () => {
    assert.match('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', traceparentPattern);
    assert.doesNotMatch('00-00000000000000000000000000000000-00f067aa0ba902b7-01', traceparentPattern);
    assert.doesNotMatch('00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', traceparentPattern);
    assert.doesNotMatch('00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', traceparentPattern);
  });
});
