import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { agentIdFor, commandProblem, DraftLineError, parseEnvPairs, splitSecrets, splitWords } from '../../../src/agents/agentDraft';
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
});
