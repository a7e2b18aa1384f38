import * as assert from 'node:assert/strict';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import { reopenAbilityKey, ReopenPolicy, type ReopenMemory } from '../../../src/host/history/reopenPolicy';

// A stored chat whose agent is known to neither resume nor load opens read-only without starting it.

class Memory implements ReopenMemory {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): PromiseLike<void> {
    this.writes++;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const agent = (over: Partial<AgentDefinition> = {}): AgentDefinition => ({ id: 'a', name: 'A', command: 'agent', args: ['--acp'], env: {}, ...over });
const none = { loadSession: false };
const resume = { sessionCapabilities: { resume: {} } };

describe('host / reopen policy', () => {
  it('knows nothing of an agent that never started: start it to find out', () => {
    assert.equal(new ReopenPolicy(new Memory()).knownUnable(agent()), false);
    assert.equal(new ReopenPolicy(undefined).knownUnable(agent()), false);
  });

  it('an agent that advertised neither resume nor load is known unable, in a new window too', () => {
    const memory = new Memory();
    new ReopenPolicy(memory).remember(agent(), none);
    assert.equal(new ReopenPolicy(memory).knownUnable(agent()), true);
    assert.equal(new ReopenPolicy(memory).knownUnable(agent({ id: 'b' })), false, 'per agent');
  });

  it('an agent that can resume or load is not', () => {
    const memory = new Memory();
    const policy = new ReopenPolicy(memory);
    policy.remember(agent({ id: 'r' }), resume);
    policy.remember(agent({ id: 'l' }), { loadSession: true });
    assert.equal(policy.knownUnable(agent({ id: 'r' })), false);
    assert.equal(policy.knownUnable(agent({ id: 'l' })), false);
  });

  it('only an agent that resumed when it last started, as configured now, is known to resume (its chats open at once)', () => {
    const memory = new Memory();
    const policy = new ReopenPolicy(memory);
    assert.equal(policy.knownToResume(agent({ id: 'r' })), false, 'never started');
    policy.remember(agent({ id: 'r' }), resume);
    policy.remember(agent({ id: 'l' }), { loadSession: true });
    policy.remember(agent({ id: 'n' }), none);
    assert.equal(new ReopenPolicy(memory).knownToResume(agent({ id: 'r' })), true, 'in a new window too');
    assert.equal(policy.knownToResume(agent({ id: 'l' })), false, 'load replays: the chat waits for it');
    assert.equal(policy.knownToResume(agent({ id: 'n' })), false);
    assert.equal(policy.knownToResume(agent({ id: 'r', args: ['--acp', '--v2'] })), false, 'changed since');
    policy.remember(agent({ id: 'r' }), { loadSession: true });
    assert.equal(policy.knownToResume(agent({ id: 'r' })), false, 'the latest start wins');
  });

  it('a changed command or arguments (an upgrade) makes the agent unknown again; the latest start wins', () => {
    const memory = new Memory();
    const policy = new ReopenPolicy(memory);
    policy.remember(agent(), none);
    assert.equal(policy.knownUnable(agent({ args: ['--acp', '--v2'] })), false);
    assert.equal(policy.knownUnable(agent({ command: 'other' })), false);
    policy.remember(agent(), resume);
    assert.equal(policy.knownUnable(agent()), false);
  });

  it('writes only on a change, keeps no arguments in clear, and ignores a corrupt value', () => {
    const memory = new Memory();
    const policy = new ReopenPolicy(memory);
    policy.remember(agent({ args: ['--token=secret'] }), none);
    policy.remember(agent({ args: ['--token=secret'] }), none);
    assert.equal(memory.writes, 1);
    assert.doesNotMatch(JSON.stringify(memory.values.get(reopenAbilityKey)), /secret/);
    memory.values.set(reopenAbilityKey, { a: { fingerprint: 5 } });
    assert.equal(policy.knownUnable(agent()), false);
    policy.remember(agent(), none);
    assert.equal(policy.knownUnable(agent()), true);
  });
});
