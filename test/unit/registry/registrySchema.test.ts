import * as assert from 'node:assert/strict';
import { authSummary, parseRegistry, parseRegistryText, RegistryError } from '../../../src/registry/registrySchema';

const agent = (over: Record<string, unknown> = {}) => ({
  id: 'acme', name: 'Acme', version: '1.2.0', description: 'An agent', distribution: { npx: { package: '@acme/agent' } }, ...over,
});

describe('registrySchema', () => {
  it('accepts a registry, keeps unknown fields tolerated and fills defaults', () => {
    const { registry, skipped } = parseRegistry({ version: '1.0.0', agents: [agent({ future: 1 })], extensions: [], other: true });
    assert.deepEqual(skipped, []);
    assert.equal(registry.agents.length, 1);
    assert.deepEqual(registry.agents[0]!.distribution.npx?.args, []);
  });

  it('skips a bad entry with a reason instead of failing', () => {
    const { registry, skipped } = parseRegistry({ agents: [agent({ id: 'Bad Id' }), agent({ id: 'ok', distribution: {} }), agent({ id: 'fine' }), agent({ id: 'fine' }), 7] });
    assert.deepEqual(registry.agents.map((a) => a.id), ['fine']);
    assert.equal(skipped.length, 4);
    assert.match(skipped[0]!, /agents\[0\] "Bad Id" skipped: id/);
    assert.match(skipped[1]!, /at least one of/);
    assert.match(skipped[2]!, /repeated/);
  });

  it('validates binary targets: archive URL, optional sha256', () => {
    const sha = 'A'.repeat(64);
    const { registry, skipped } = parseRegistry({ agents: [
      agent({ id: 'bin', distribution: { binary: { 'linux-x86_64': { archive: 'https://x.test/a.tgz', cmd: './a', sha256: sha } } } }),
      agent({ id: 'badsha', distribution: { binary: { 'linux-x86_64': { archive: 'https://x.test/a.tgz', cmd: './a', sha256: 'nope' } } } }),
      agent({ id: 'ftp', distribution: { binary: { 'linux-x86_64': { archive: 'ftp://x.test/a.tgz', cmd: './a' } } } }),
    ] });
    assert.equal(registry.agents[0]!.distribution.binary!['linux-x86_64']!.sha256, sha.toLowerCase());
    assert.equal(skipped.length, 2);
  });

  it('rejects what is not a registry, and invalid JSON', () => {
    assert.throws(() => parseRegistry({ nope: 1 }), (e) => RegistryError.is(e, 'notARegistry'));
    assert.throws(() => parseRegistryText('{'), (e) => RegistryError.is(e, 'invalidJson'));
  });

  it('summarizes authentication from authMethods, or the removed auth field', () => {
    const [a, b, c] = parseRegistry({ agents: [
      agent({ id: 'a', authMethods: [{ id: 'oauth', name: 'Log in with Acme', type: 'agent' }, { id: 'key', type: 'env_var' }] }),
      agent({ id: 'b', auth: [{ type: 'terminal' }] }),
      agent({ id: 'c' }),
    ] }).registry.agents;
    assert.equal(authSummary(a!), 'sign-in: Log in with Acme (agent), key (env_var)');
    assert.equal(authSummary(b!), 'sign-in: terminal');
    assert.equal(authSummary(c!), undefined);
  });
});
