import * as assert from 'node:assert/strict';
import { AcpError, errorDataText, remoteErrorMessage } from '../../../src/acp/errors';
import { delay, RawPeer, until } from '../helpers/rawPeer';

describe('AcpConnection: what the agent said in errors, and stray responses', () => {
  let peer: RawPeer;
  beforeEach(() => { peer = new RawPeer(); });
  afterEach(() => peer.connection.close());

  /** Sends session/new and answers it with `error`; returns what the request rejected with. */
  async function failWith(error: object): Promise<AcpError> {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, error });
    const e = await p.then(() => undefined, (x: unknown) => x);
    assert.ok(AcpError.is(e, 'remote'), `rejected with an AcpError 'remote' (${String(e)})`);
    return e;
  }

  it('an "Internal error" carries the agent\'s own explanation from error.data.details', async () => {
    const e = await failWith({ code: -32603, message: 'Internal error', data: { details: 'Session 4f2 not found on disk' } });
    assert.equal(e.message, 'Internal error: Session 4f2 not found on disk');
    assert.equal(e.code, -32603);
    assert.deepEqual(e.data, { details: 'Session 4f2 not found on disk' });
  });

  it('error.data as a string is shown too; a message that already says it is not repeated', async () => {
    assert.equal((await failWith({ code: -32603, message: 'Internal error.', data: 'quota exceeded' })).message, 'Internal error: quota exceeded');
    assert.equal((await failWith({ code: -32602, message: 'Invalid params: cwd missing', data: 'cwd missing' })).message, 'Invalid params: cwd missing');
    assert.equal((await failWith({ code: -32603, message: 'Internal error' })).message, 'Internal error');
  });

  it('a response to an id we never sent is logged as a warning and changes nothing', async () => {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: 9999, result: { sessionId: 'stray' } });
    peer.send({ jsonrpc: '2.0', id: 'nope', error: { code: -32603, message: 'Internal error' } });
    await until(() => peer.logger.lines.length >= 2);
    assert.ok(peer.logger.has(/^warn .*a response to request id 9999, which matches no pending request/), peer.logger.lines.join('\n'));
    assert.ok(peer.logger.has(/^warn .*an error response \(-32603: Internal error\) to request id "nope"/), peer.logger.lines.join('\n'));
    peer.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 'real' } });
    assert.equal((await p).sessionId, 'real', 'the pending request still gets its own answer');
  });

  it('a second response to an answered request is a stray too; a first answer is not', async () => {
    const p = peer.connection.request('session/new', { cwd: '/w', mcpServers: [] });
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 'a' } });
    await p;
    assert.equal(peer.logger.lines.filter((l) => l.startsWith('warn')).length, 0, peer.logger.lines.join('\n'));
    peer.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 'again' } });
    await until(() => peer.logger.has(/^warn .*to request id 0?\d+, which matches no pending request/));
    await delay(10);
  });
});

describe('error.data text', () => {
  it('takes a string, a details-like field, or compact JSON; cuts long text', () => {
    assert.equal(errorDataText('x'), 'x');
    assert.equal(errorDataText({ details: 'because' }), 'because');
    assert.equal(errorDataText({ message: 'm', other: 1 }), 'm');
    assert.equal(errorDataText({ uri: '/a' }), '{"uri":"/a"}');
    assert.equal(errorDataText({}), undefined);
    assert.equal(errorDataText(null), undefined);
    assert.equal(errorDataText('  '), undefined);
    assert.equal(errorDataText('y'.repeat(600))?.length, 501);
    assert.equal(remoteErrorMessage('', 'only data'), 'only data');
  });
});
