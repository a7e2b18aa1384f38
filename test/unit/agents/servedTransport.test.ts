import * as assert from 'node:assert/strict';
import { parseAgentDefinition } from '../../../src/agents/agentDefinition';
import { endpointProblem, remoteNotice, transportLabel } from '../../../src/agents/agentTransport';
import { endpointFromOutput, runEndpointCommand } from '../../../src/agents/endpointCommand';
import { problems } from './definitionProblems';

const served = (transport: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id: 'far', transport: { cwd: '/srv/app', ...transport }, ...extra });

describe('agents served over WebSocket or HTTP (docs/remote-agents.md)', () => {
  it('an entry with a URL needs no command; its headers are names, its cwd absolute', () => {
    const def = parseAgentDefinition(served({ type: 'websocket', url: 'wss://acp.example/agent', headers: ['Authorization'] }));
    assert.equal(def.command, '');
    assert.deepEqual(def.transport, { type: 'websocket', url: 'wss://acp.example/agent', headers: ['Authorization'], cwd: '/srv/app' });
    assert.deepEqual(parseAgentDefinition(served({ type: 'http', url: 'http://127.0.0.1:8080/acp' })).transport, { type: 'http', url: 'http://127.0.0.1:8080/acp', headers: [], cwd: '/srv/app' });
    // placement by an engine: the command prints the endpoint
    const engine = parseAgentDefinition(served({ type: 'http' }, { command: 'coder', args: ['acp-endpoint'] }));
    assert.equal(engine.command, 'coder');
    assert.equal(engine.transport?.type === 'http' ? engine.transport.url : 'x', undefined);
  });

  it('refuses a missing URL and command, a plain scheme off loopback, the wrong scheme, credentials in the URL, reserved headers, a relative cwd', () => {
    assert.match(problems(served({ type: 'websocket' })), /"transport\.url" is required for websocket, or a "command" that prints the endpoint/);
    assert.match(problems(served({ type: 'websocket', url: 'ws://acp.example/agent' })), /ws:\/\/ is allowed only on this machine .*use wss:\/\/ for acp\.example/);
    assert.match(problems(served({ type: 'http', url: 'wss://acp.example/agent' })), /transport\.url: an HTTP endpoint must start with https:\/\//);
    assert.match(problems(served({ type: 'http', url: 'https://me:pw@acp.example/' })), /must not carry a user name or password/);
    assert.match(problems(served({ type: 'http', url: 'https://acp.example/', headers: ['Cookie'] })), /sets this header itself/);
    assert.match(problems(served({ type: 'http', url: 'https://acp.example/', headers: ['Bad Header'] })), /must be a header name/);
    assert.match(problems(served({ type: 'http', url: 'https://acp.example/', cwd: 'src' })), /"transport\.cwd" must be an absolute path/);
    assert.match(problems({ id: 'x', transport: { type: 'http', url: 'https://acp.example/' } }), /"transport\.cwd" is required for HTTP/);
    assert.match(problems({ id: 'local' }), /"command" is required/);
    assert.match(problems({ id: 'far', transport: { type: 'ssh', host: 'h', cwd: '/a' } }), /"command" is required/);
  });

  it('allows the plain schemes on every loopback spelling', () => {
    for (const u of ['ws://localhost:1/', 'ws://127.0.0.1/', 'ws://127.3.2.1:9/x', 'ws://[::1]:8080/']) assert.equal(endpointProblem('websocket', u), undefined, u);
    assert.match(endpointProblem('websocket', 'not a url') ?? '', /is not a URL/);
  });

  it('names the place for people', () => {
    const t = { type: 'websocket' as const, url: 'wss://acp.example/agent', headers: [], cwd: '/srv/app' };
    assert.equal(transportLabel(t), 'wss://acp.example/agent over WebSocket');
    assert.equal(transportLabel({ ...t, type: 'http', url: undefined }), 'the endpoint its command prints over HTTP');
    assert.match(remoteNotice('Claude', t), /^Claude runs at wss:\/\/acp\.example\/agent over WebSocket, in \/srv\/app: .*own tools/);
  });
});

describe('placement by an engine: the endpoint command', () => {
  const node = (script: string) => ({ command: process.execPath, args: ['-e', script], type: 'websocket' as const, cwd: process.cwd(), env: {} });

  it('takes the last non-empty line, checked like a configured URL', () => {
    assert.equal(endpointFromOutput('websocket', 'creating…\nready\nws://127.0.0.1:9000/acp\n\n'), 'ws://127.0.0.1:9000/acp');
    assert.throws(() => endpointFromOutput('websocket', '\n  \n'), /printed no endpoint/);
    assert.throws(() => endpointFromOutput('websocket', 'ws://sandbox.example/acp'), /not a usable endpoint: ws:\/\/ is allowed only on this machine/);
  });

  it('runs without a shell, with the entry\'s env; its stderr is progress for the log', async () => {
    const lines: string[] = [];
    const url = await runEndpointCommand({ ...node("console.error('placing'); console.log(process.env.SB_ENDPOINT)"), env: { SB_ENDPOINT: 'wss://box-7.example/acp' }, onStderr: (l) => lines.push(l) });
    assert.equal(url, 'wss://box-7.example/acp');
    assert.deepEqual(lines, ['placing']);
  });

  it('a failure names the command and says why: exit code with its last stderr line, not found, too slow, no endpoint', async () => {
    await assert.rejects(runEndpointCommand(node("console.error('quota exceeded'); process.exit(3)")), /The endpoint command '.*' exited with code 3: quota exceeded/);
    await assert.rejects(runEndpointCommand({ ...node(''), command: 'no-such-engine-cli' }), /The endpoint command 'no-such-engine-cli -e ' was not found/);
    await assert.rejects(runEndpointCommand({ ...node('setTimeout(() => {}, 10000)'), timeoutMs: 300 }), /did not finish within 0 s/);
    await assert.rejects(runEndpointCommand(node("console.log('done')")), /ran, but its last line is not a usable endpoint/);
  });
});
