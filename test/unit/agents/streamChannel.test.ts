import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { AcpConnection } from '../../../src/acp/connection';
import { AgentExitedError } from '../../../src/agents/agentErrors';
import { MemoryAcpCookieStore, StreamChannel } from '../../../src/agents/streamChannel';

const root = path.resolve(__dirname, '../../../..');
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The SDK's server side wrapping the scripted agent (test/fixtures/agents/acpServer.ts); resolves its port. */
function serve(scenario: string, extra: string[] = []): Promise<{ server: ChildProcess; port: number }> {
  const server = spawn(process.execPath, [
    path.join(root, 'out/test/fixtures/agents/acpServer.js'), ...extra, '--',
    process.execPath, path.join(root, 'out/test/fixtures/agents/scriptedAgent.js'), path.join(root, 'test/fixtures/agents/scenarios', `${scenario}.json`),
  ], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, SCRIPTED_AGENT_DELAY_SCALE: '0' } });
  return new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    server.stdout?.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve({ server, port: Number(m[1]) });
    });
  });
}

for (const type of ['websocket', 'http'] as const) {
  describe(`StreamChannel over ${type} (the SDK's server on loopback)`, function () {
    this.timeout(20_000);
    let server: ChildProcess | undefined;
    const url = (port: number) => `${type === 'websocket' ? 'ws' : 'http'}://127.0.0.1:${port}/acp`;
    afterEach(() => { server?.kill('SIGTERM'); server = undefined; });

    it('carries a session and a turn; dropping the connection is the agent\'s exit, reason disconnected', async () => {
      const s = await serve('remoteTurn');
      server = s.server;
      const channel = await StreamChannel.open({ agentName: 'Remote', type, url: url(s.port), headers: {}, cookieStore: new MemoryAcpCookieStore() });
      const connection = AcpConnection.overMessages(channel.readable, channel.writable, { logger });
      const texts: string[] = [];
      connection.onNotification('session/update', (p) => { if (p.update.sessionUpdate === 'agent_message_chunk' && p.update.content.type === 'text') texts.push(p.update.content.text); });
      connection.listen();
      const init = await connection.initialize({ clientCapabilities: {}, clientInfo: { name: 't', version: '1' } });
      assert.equal(init.agentCapabilities?.loadSession, true);
      const { sessionId } = await connection.request('session/new', { cwd: root, mcpServers: [] });
      const res = await connection.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
      assert.equal(res.stopReason, 'end_turn');
      assert.deepEqual(texts, ['answer after reconnect']);
      const exited = channel.exited;
      s.server.kill('SIGUSR1');
      const exit = await exited;
      assert.equal(exit.requested, false);
      assert.ok(AgentExitedError.is(exit.error, 'disconnected'), exit.error.message);
      assert.match(exit.error.message, new RegExp(`Agent 'Remote' lost its connection: ${url(s.port).replace(/[/.]/g, '\\$&')}`));
      connection.close(exit.error);
    });

    it('a wrong token is refused: the start fails with the server\'s answer, and stop() is a requested exit', async () => {
      const s = await serve('remoteTurn', ['--token', 'sekrit-123456']);
      server = s.server;
      const open = (headers: Record<string, string>) => StreamChannel.open({ agentName: 'Remote', type, url: url(s.port), headers, cookieStore: new MemoryAcpCookieStore() });
      if (type === 'websocket') await assert.rejects(open({ Authorization: 'Bearer wrong' }), /HTTP 401/);
      else {
        const channel = await open({ Authorization: 'Bearer wrong' });
        const connection = AcpConnection.overMessages(channel.readable, channel.writable, { logger });
        connection.listen();
        await assert.rejects(connection.initialize({ clientCapabilities: {}, clientInfo: { name: 't', version: '1' } }), /401|closed/i);
        await channel.exited;
        connection.close(new Error('done'));
      }
      const channel = await open({ Authorization: 'Bearer sekrit-123456' });
      const connection = AcpConnection.overMessages(channel.readable, channel.writable, { logger });
      connection.listen();
      await connection.initialize({ clientCapabilities: {}, clientInfo: { name: 't', version: '1' } });
      await channel.stop();
      const exit = await channel.exited;
      assert.equal(exit.requested, true);
      connection.close(exit.error);
    });
  });
}

describe('StreamChannel', () => {
  it('nothing listening: a WebSocket start fails naming the endpoint', async () => {
    await assert.rejects(
      StreamChannel.open({ agentName: 'Remote', type: 'websocket', url: 'ws://127.0.0.1:9/acp', headers: {}, cookieStore: new MemoryAcpCookieStore() }),
      /^Error: ws:\/\/127\.0\.0\.1:9\/acp: .*ECONNREFUSED/,
    );
  });
});
