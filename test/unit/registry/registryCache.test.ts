import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RegistryCache } from '../../../src/registry/registryCache';
import { RegistryError } from '../../../src/registry/registrySchema';
import { FixtureServer } from '../../fixtures/registry/registryServer';

const agent = { id: 'acme', name: 'Acme', version: '1.0.0', description: '', distribution: { npx: { package: 'acme' } } };

describe('registryCache', () => {
  let dir: string;
  let server: FixtureServer;
  beforeEach(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sb-regcache-'));
    server = new FixtureServer();
    server.setRegistry([agent, { id: 'BAD' }]);
    await server.start();
  });
  afterEach(async () => {
    await server.stop();
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('fetches, then revalidates with If-None-Match (304 uses the cache)', async () => {
    const url = `${server.url}/registry.json`;
    const first = await new RegistryCache(dir).load(url);
    assert.equal(first.source, 'network');
    assert.equal(first.registry.agents.length, 1);
    assert.equal(first.skipped.length, 1);
    const second = await new RegistryCache(dir).load(url);
    assert.equal(second.source, 'notModified');
    assert.equal(second.registry.agents[0]!.id, 'acme');
    assert.equal(server.requests[1]!.status, 304);
    assert.ok(server.requests[1]!.ifNoneMatch);
    server.setRegistry([agent, { ...agent, id: 'beta' }]);
    const third = await new RegistryCache(dir).load(url);
    assert.equal(third.source, 'network');
    assert.equal(third.registry.agents.length, 2);
  });

  it('answers from the cache when offline, and fails clearly without a cache', async () => {
    const url = `${server.url}/registry.json`;
    await new RegistryCache(dir).load(url);
    await server.stop();
    const offline = await new RegistryCache(dir).load(url);
    assert.equal(offline.source, 'cache');
    assert.ok(offline.offlineReason);
    assert.ok(offline.fetchedAt <= Date.now());
    await assert.rejects(new RegistryCache(path.join(dir, 'empty')).load(url), (e) => RegistryError.is(e, 'network'));
  });

  it('refuses a plain-http registry that is not on the loopback host', async () => {
    await assert.rejects(new RegistryCache(dir).load('http://example.com/registry.json'), (e) => RegistryError.is(e, 'network') && /https/.test(e.message));
  });
});
