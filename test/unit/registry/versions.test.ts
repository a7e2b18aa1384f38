import * as assert from 'node:assert/strict';
import { chooseDistribution, platformTarget } from '../../../src/registry/distributionChoice';
import { parseRegistry } from '../../../src/registry/registrySchema';
import { compareVersions, pinNpmPackage, pinUvxPackage, updateState } from '../../../src/registry/versions';

describe('registry versions and distributions', () => {
  it('compares semantic versions, pre-releases below releases', () => {
    assert.ok(compareVersions('1.2.0', '1.10.0') < 0);
    assert.ok(compareVersions('2.0.0', '1.99.99') > 0);
    assert.equal(compareVersions('1.0.0+build', '1.0.0'), 0);
    assert.ok(compareVersions('1.0.0-rc.1', '1.0.0') < 0);
    assert.ok(compareVersions('1.0.0-rc.2', '1.0.0-rc.10') < 0);
    assert.ok(compareVersions('1.0.0-alpha', '1.0.0-beta') < 0);
  });

  it('pins npm specs to the version unless one is given', () => {
    assert.equal(pinNpmPackage('@acme/agent', '1.2.0'), '@acme/agent@1.2.0');
    assert.equal(pinNpmPackage('agent@latest', '1.2.0'), 'agent@1.2.0');
    assert.equal(pinNpmPackage('@acme/agent@0.9.1', '1.2.0'), '@acme/agent@0.9.1');
    assert.equal(pinNpmPackage('agent@^1', '1.2.0'), 'agent@^1');
  });

  it('pins uvx specs to the version unless one is given', () => {
    assert.equal(pinUvxPackage('pyagent', '0.3.0'), 'pyagent@0.3.0');
    assert.equal(pinUvxPackage('pyagent@latest', '0.3.0'), 'pyagent@0.3.0');
    assert.equal(pinUvxPackage('pyagent==0.2', '0.3.0'), 'pyagent==0.2');
    assert.equal(pinUvxPackage('pyagent@0.1.0', '0.3.0'), 'pyagent@0.1.0');
  });

  it('offers updates only to unpinned, older installs', () => {
    assert.equal(updateState(undefined, '1.0.0'), 'notInstalled');
    assert.equal(updateState({ version: '1.0.0', pinned: false }, '1.1.0'), 'updateAvailable');
    assert.equal(updateState({ version: '1.0.0', pinned: true }, '1.1.0'), 'pinned');
    assert.equal(updateState({ version: '1.1.0', pinned: false }, '1.1.0'), 'upToDate');
    assert.equal(updateState({ version: '1.2.0', pinned: false }, '1.1.0'), 'newerInstalled');
  });

  it('maps node platform/arch to registry targets', () => {
    assert.equal(platformTarget('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformTarget('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformTarget('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformTarget('win32', 'ia32'), undefined);
    assert.equal(platformTarget('freebsd', 'x64'), undefined);
  });

  it('prefers the platform binary, then npx, then uvx', () => {
    const [a] = parseRegistry({ agents: [{ id: 'a', name: 'A', version: '1.0.0', description: '', distribution: {
      binary: { 'linux-x86_64': { archive: 'https://x.test/a.tgz', cmd: './a' } }, npx: { package: 'a' }, uvx: { package: 'a' },
    } }] }).registry.agents;
    assert.equal(chooseDistribution(a!, 'linux-x86_64')?.kind, 'binary');
    assert.equal(chooseDistribution(a!, 'darwin-aarch64')?.kind, 'npx');
    assert.equal(chooseDistribution(a!, undefined)?.kind, 'npx');
    const [u] = parseRegistry({ agents: [{ id: 'u', name: 'U', version: '1.0.0', distribution: { uvx: { package: 'u' }, binary: {} } }] }).registry.agents;
    assert.equal(chooseDistribution(u!, 'linux-x86_64')?.kind, 'uvx');
    const [b] = parseRegistry({ agents: [{ id: 'b', name: 'B', version: '1.0.0', distribution: { binary: { 'linux-x86_64': { archive: 'https://x.test/b.tgz', cmd: './b' } } } }] }).registry.agents;
    assert.equal(chooseDistribution(b!, 'windows-x86_64'), undefined);
  });
});
