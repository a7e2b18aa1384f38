import * as assert from 'node:assert/strict';
import { parseAgentDefinition, parseAgentDefinitions } from '../../../src/agents/agentDefinition';
import { problems } from './definitionProblems';


describe('agentDefinition', () => {
  it('accepts a full entry and fills defaults', () => {
    assert.deepEqual(parseAgentDefinition({ id: 'gemini', command: ' gemini ', args: ['--experimental-acp'] }), {
      id: 'gemini', name: 'gemini', command: 'gemini', args: ['--experimental-acp'], env: {},
    });
    assert.deepEqual(parseAgentDefinition({ id: 'claude-code', name: 'Claude Code', command: 'npx', args: [], env: { DEBUG: '1' }, icon: 'x' }).env, { DEBUG: '1' });
  });

  it('explains bad ids, empty commands and wrong types', () => {
    assert.match(problems({ id: 'Claude Code', command: 'x' }), /^switchboard\.agents: "id" must start with a lowercase letter/);
    assert.match(problems({ id: 'a', command: '   ' }), /"command" must not be empty/);
    assert.match(problems({ id: 'a' }), /"command" is required/);
    assert.match(problems({ id: 'a', command: 'x', args: ['ok', 8080] }), /args\[1\]: every entry of "args" must be a string/);
    assert.match(problems({ id: 'a', command: 'x', args: '--acp' }), /"args" must be an array of strings/);
    assert.match(problems({ id: 'a', command: 'x', env: { PORT: 1 } }), /env\.PORT: environment variable values must be strings/);
    assert.match(problems('npx'), /each agent must be an object/);
  });

  it('parses the setting array, reporting bad and duplicate entries and keeping the rest', () => {
    const { definitions, errors } = parseAgentDefinitions([
      { id: 'a', command: 'x' }, { id: 'b' }, { id: 'a', command: 'y' }, { id: 'c', command: 'z' },
    ]);
    assert.deepEqual(definitions.map((d) => d.id), ['a', 'c']);
    assert.deepEqual(errors.map((e) => [e.reason, e.location]), [['invalid', 'switchboard.agents[1]'], ['duplicateId', 'switchboard.agents[2]']]);
    assert.match(errors[1].message, /"id" "a" is already used by switchboard\.agents\[0\]/);
    assert.deepEqual(parseAgentDefinitions(undefined), { definitions: [], errors: [] });
    assert.match(parseAgentDefinitions({}).errors[0].message, /must be an array/);
  });
});
