import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  agentIdFor, type AgentDraft, commandProblem, draftEntry, draftProblem, draftSteps, draftTransport, DraftLineError, emptyDraft, parseEnvPairs,
  parseHeaderNames, parseSshTarget, splitSecrets, splitWords,
} from '../../../src/agents/agentDraft';
import { parseAgentDefinition } from '../../../src/agents/agentDefinition';

describe('agentDraft', () => {
  it('splits arguments at spaces and keeps quoted values whole', () => {
    assert.deepEqual(splitWords('  --experimental-acp   --model "gpt 5" \'a "b" c\' '), ['--experimental-acp', '--model', 'gpt 5', 'a "b" c']);
    assert.deepEqual(splitWords('--x="" --y=\'\' plain\\ space "say \\"hi\\""'), ['--x=', '--y=', 'plain space', 'say "hi"']);
    assert.deepEqual(splitWords('C:\\tools\\agent.exe --flag'), ['C:\\tools\\agent.exe', '--flag']);
    assert.deepEqual(splitWords(''), []);
    assert.deepEqual(splitWords('""'), ['']);
  });

  it('refuses an unclosed quote', () => {
    assert.throws(() => splitWords('--model "gpt 5'), (ex: unknown) => ex instanceof DraftLineError && /double quote is not closed/.test(ex.message));
    assert.throws(() => splitWords("it's"), DraftLineError);
  });

  it('reads KEY=VALUE pairs, quoted values included', () => {
    assert.deepEqual(parseEnvPairs('DEBUG=1 GREETING="hello world" EMPTY= A=b=c'), { DEBUG: '1', GREETING: 'hello world', EMPTY: '', A: 'b=c' });
    assert.deepEqual(parseEnvPairs(''), {});
    assert.throws(() => parseEnvPairs('DEBUG=1 oops'), (ex: unknown) => ex instanceof DraftLineError && ex.message === '"oops" is not KEY=VALUE');
    assert.throws(() => parseEnvPairs('=x'), DraftLineError);
  });

  it('makes an id that the setting accepts and no other agent has', () => {
    assert.equal(agentIdFor('My Agent', new Set()), 'my-agent');
    assert.equal(agentIdFor('My Agent', new Set(['my-agent', 'my-agent-2'])), 'my-agent-3');
    assert.equal(agentIdFor('  ***  ', new Set()), 'agent');
    assert.equal(agentIdFor('Élan Vital!', new Set()), 'elan-vital');
    for (const name of ['Claude Code', '__x', 'A'.repeat(100), '日本語']) {
      const id = agentIdFor(name, new Set());
      assert.equal(parseAgentDefinition({ id, command: 'x' }).id, id, `${name} → ${id}`);
    }
  });

  it('keeps secrets out of the settings part', () => {
    const { plain, secret } = splitSecrets({ DEBUG: '1', OPENAI_API_KEY: 'abc', MY_TOKEN: 'x', LOG_DIR: '/tmp', OTHER: 'sk-abcdefghijklmnopqrstuvwxyz012345' });
    assert.deepEqual(plain, { DEBUG: '1', LOG_DIR: '/tmp' });
    assert.deepEqual(Object.keys(secret).sort(), ['MY_TOKEN', 'OPENAI_API_KEY', 'OTHER']);
  });

  it('finds a command as a spawn would, and says why not', async () => {
    assert.equal(await commandProblem(process.execPath), undefined);
    assert.equal(await commandProblem(path.basename(process.execPath)), undefined, 'node is on PATH');
    const problem = await commandProblem('switchboard-no-such-command-4711');
    assert.match(problem ?? '', /switchboard-no-such-command-4711/);
  });

  describe('where the agent runs', () => {
    const draft = (d: Partial<AgentDraft>): AgentDraft => ({ ...emptyDraft(), name: 'Remote', ...d });

    it('asks the steps of each transport, in order', () => {
      assert.deepEqual(draftSteps({ place: 'stdio', url: '' }), ['name', 'place', 'command', 'args', 'env', 'target']);
      assert.deepEqual(draftSteps({ place: 'ssh', url: '' }), ['name', 'place', 'host', 'cwd', 'command', 'args', 'env', 'target']);
      assert.deepEqual(draftSteps({ place: 'websocket', url: 'wss://a.example' }), ['name', 'place', 'url', 'headers', 'cwd', 'target']);
      assert.deepEqual(draftSteps({ place: 'http', url: ' ' }), ['name', 'place', 'url', 'command', 'args', 'env', 'headers', 'cwd', 'target']);
    });

    it('reads an ssh destination as host, user and port', () => {
      assert.deepEqual(parseSshTarget(' build-1 '), { host: 'build-1' });
      assert.deepEqual(parseSshTarget('me@build-1:2222'), { host: 'build-1', user: 'me', port: 2222 });
      assert.deepEqual(parseSshTarget('ssh://me@build-1'), { host: 'build-1', user: 'me' });
      assert.deepEqual(parseSshTarget('me@corp.example@build-1'), { host: 'build-1', user: 'me@corp.example' });
      assert.deepEqual(parseSshTarget('[::1]:2200'), { host: '::1', port: 2200 });
      assert.deepEqual(parseSshTarget('me@[fe80::1%eth0]'), { host: 'fe80::1%eth0', user: 'me' });
      assert.deepEqual(parseSshTarget('fe80::1'), { host: 'fe80::1' });
    });

    it('refuses an ssh destination ssh would read as something else', () => {
      for (const bad of ['', '  ', '-oProxyCommand=touch /tmp/x', 'me@-oProxyCommand=x', '-me@host', '@host', 'me@', 'a b', 'host:0', 'host:65536', 'host:ssh', 'host:', '[::1', '[::1]:x']) {
        assert.throws(() => parseSshTarget(bad), DraftLineError, JSON.stringify(bad));
      }
      assert.match(draftProblem(draft({ place: 'ssh' }), 'host', '-oProxyCommand=x') ?? '', /must not start with "-"/);
    });

    it('checks each step with the settings schema, later steps standing in as valid', () => {
      const ssh = draft({ place: 'ssh' });
      assert.equal(draftProblem(ssh, 'host', 'me@build-1:22'), undefined);
      assert.match(draftProblem(ssh, 'host', 'bad!host') ?? '', /^"transport\.host" must be a host name/);
      assert.match(draftProblem(ssh, 'host', 'bad$user@host') ?? '', /"transport\.user" must be a user name/);
      assert.equal(draftProblem({ ...ssh, host: 'build-1' }, 'cwd', '/home/me/app'), undefined);
      assert.match(draftProblem({ ...ssh, host: 'build-1' }, 'cwd', 'src/app') ?? '', /^"transport\.cwd" must be an absolute path/);
      const ws = draft({ place: 'websocket', url: 'wss://acp.example/agent' });
      assert.equal(draftProblem(ws, 'headers', 'Authorization, X-Api-Key'), undefined);
      assert.equal(draftProblem(ws, 'headers', ''), undefined);
      assert.match(draftProblem(ws, 'headers', 'Authorization: Bearer') ?? '', /^"Authorization:": each of "transport\.headers" must be a header name/);
      assert.match(draftProblem(ws, 'headers', 'Cookie') ?? '', /sets this header itself/);
      assert.equal(draftProblem({ ...ws, headers: 'Authorization' }, 'cwd', 'C:\\work'), undefined);
      assert.match(draftProblem({ ...ws, headers: 'Authorization' }, 'cwd', '') ?? '', /absolute path/);
      // an empty URL: a command that prints the endpoint comes later
      assert.equal(draftProblem(draft({ place: 'http' }), 'url', ''), undefined);
      assert.match(draftProblem(draft({ place: 'http' }), 'url', 'http://acp.example') ?? '', /only on this machine/);
    });

    it('reads header names separated by commas or spaces, each once', () => {
      assert.deepEqual(parseHeaderNames(' Authorization, X-Api-Key  x-api-key,,X-Team '), ['Authorization', 'X-Api-Key', 'X-Team']);
      assert.deepEqual(parseHeaderNames(''), []);
      assert.deepEqual(parseHeaderNames(' , '), []);
    });

    it('builds the transport, none on this machine', () => {
      assert.equal(draftTransport(draft({ command: 'npx' })), undefined);
      assert.deepEqual(draftTransport(draft({ place: 'ssh', host: 'me@build-1:2222', cwd: ' /home/me/app ' })),
        { type: 'ssh', host: 'build-1', user: 'me', port: 2222, cwd: '/home/me/app' });
      assert.deepEqual(draftTransport(draft({ place: 'websocket', url: ' wss://acp.example/agent ', headers: 'Authorization', cwd: '/srv/app' })),
        { type: 'websocket', url: 'wss://acp.example/agent', headers: ['Authorization'], cwd: '/srv/app' });
      assert.deepEqual(draftTransport(draft({ place: 'http', cwd: '/srv/app' })), { type: 'http', cwd: '/srv/app' });
      assert.throws(() => draftTransport(draft({ place: 'ssh', host: '-x', cwd: '/' })), DraftLineError);
    });

    it('writes the entry the schema reads, with only the steps its transport asks', () => {
      const local = draftEntry(draft({ command: ' npx ', args: 'agent --acp', env: 'DEBUG=1 MY_TOKEN=x' }), 'remote');
      assert.deepEqual(local, { entry: { id: 'remote', name: 'Remote', command: 'npx', args: ['agent', '--acp'], env: { DEBUG: '1' } }, secret: { MY_TOKEN: 'x' } });
      const ssh = draftEntry(draft({ place: 'ssh', host: 'build-1', cwd: '/home/me', command: 'claude-code-acp', env: 'DEBUG=0' }), 'remote');
      assert.deepEqual(parseAgentDefinition(ssh.entry), {
        id: 'remote', name: 'Remote', command: 'claude-code-acp', args: [], env: { DEBUG: '0' }, transport: { type: 'ssh', host: 'build-1', cwd: '/home/me', options: [] },
      });
      // a URL given: what was typed for a command before (Back) is not written
      const served = draftEntry(draft({ place: 'websocket', url: 'wss://acp.example/agent', command: 'npx', env: 'API_KEY=x', cwd: '/srv' }), 'remote');
      assert.deepEqual(served, { entry: { id: 'remote', name: 'Remote', transport: { type: 'websocket', url: 'wss://acp.example/agent', cwd: '/srv' } }, secret: {} });
      assert.equal(parseAgentDefinition(served.entry).command, '');
      const placed = draftEntry(draft({ place: 'http', command: 'place-agent', args: '--pool gpu', env: 'ENGINE_TOKEN=t', headers: 'Authorization', cwd: '/work' }), 'remote');
      assert.deepEqual(parseAgentDefinition(placed.entry), {
        id: 'remote', name: 'Remote', command: 'place-agent', args: ['--pool', 'gpu'], env: {}, transport: { type: 'http', headers: ['Authorization'], cwd: '/work' },
      });
      assert.deepEqual(placed.secret, { ENGINE_TOKEN: 't' });
    });
  });
});
