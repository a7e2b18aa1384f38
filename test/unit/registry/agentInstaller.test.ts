import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentInstaller, InstallError } from '../../../src/registry/agentInstaller';
import { ArchiveError } from '../../../src/registry/archivePaths';
import { DownloadError } from '../../../src/registry/download';
import { InstalledAgents } from '../../../src/registry/installedAgents';
import { parseRegistry, type RegistryAgent } from '../../../src/registry/registrySchema';
import { FixtureServer, makeEvilTarGz, makeTarGz, makeZip, sha256 } from '../../fixtures/registry/registryServer';

const script = '#!/bin/sh\necho hello\n';

function binaryAgent(url: string, extra: Record<string, unknown> = {}, version = '1.0.0'): RegistryAgent {
  return parseRegistry({ agents: [{ id: 'bin', name: 'Bin', version, description: '', distribution: { binary: { 'linux-x86_64': { archive: url, cmd: './bin/agent', args: ['--acp'], env: { A: '1' }, ...extra } } } }] }).registry.agents[0]!;
}

describe('agentInstaller', () => {
  let dir: string;
  let server: FixtureServer;
  let installed: InstalledAgents;
  let installer: AgentInstaller;
  const yes = { confirmUnverified: async () => true };
  beforeEach(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sb-install-'));
    server = new FixtureServer();
    await server.start();
    installed = new InstalledAgents(dir);
    installer = new AgentInstaller(installed, { target: 'linux-x86_64' });
  });
  afterEach(async () => {
    await server.stop();
    await fs.promises.rm(dir, { recursive: true, force: true });
  });
  const leftovers = () => {
    const agents = path.join(dir, 'agents');
    const staging = path.join(agents, '.staging');
    return [...(fs.existsSync(path.join(agents, 'bin')) ? ['bin'] : []), ...(fs.existsSync(staging) ? fs.readdirSync(staging) : [])];
  };

  it('installs a verified tar.gz binary, executable, and launches by absolute path', async () => {
    const tgz = await makeTarGz({ 'bin/agent': script, 'README': 'r' });
    server.files.set('/a.tgz', { body: tgz });
    let asked = false;
    const rec = await installer.install(binaryAgent(`${server.url}/a.tgz`, { sha256: sha256(tgz) }), { confirmUnverified: async () => (asked = true) });
    assert.equal(asked, false, 'a published checksum needs no question');
    const def = installed.toDefinition(rec);
    assert.equal(def.command, path.join(dir, 'agents', 'bin', '1.0.0', 'bin', 'agent'));
    assert.deepEqual(def.args, ['--acp']);
    assert.deepEqual(def.env, { A: '1' });
    assert.ok((fs.statSync(def.command).mode & 0o111) !== 0, 'made executable');
    assert.equal(new InstalledAgents(dir).get('bin')?.sha256, sha256(tgz), 'manifest persisted');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'agents', '.staging')), []);
  });

  it('installs a zip after the user confirms the computed hash, and not when declined', async () => {
    const zip = await makeZip({ 'bin/agent': script });
    server.files.set('/a.zip', { body: zip });
    const agent = binaryAgent(`${server.url}/a.zip`);
    await assert.rejects(installer.install(agent, { confirmUnverified: async () => false }), (e) => InstallError.is(e, 'notConfirmed'));
    assert.deepEqual(leftovers(), []);
    let shown = '';
    await installer.install(agent, { confirmUnverified: async (_a, hash) => { shown = hash; return true; } });
    assert.equal(shown, sha256(zip));
    assert.ok(fs.existsSync(path.join(dir, 'agents', 'bin', '1.0.0', 'bin', 'agent')));
  });

  it('refuses a bad checksum and leaves nothing on disk', async () => {
    server.files.set('/a.tgz', { body: await makeTarGz({ 'bin/agent': script }) });
    await assert.rejects(installer.install(binaryAgent(`${server.url}/a.tgz`, { sha256: 'f'.repeat(64) }), yes), (e) => InstallError.is(e, 'checksumMismatch'));
    assert.deepEqual(leftovers(), []);
    assert.equal(installed.get('bin'), undefined);
  });

  it('refuses tar and zip archives with ../ entries, and outside symlinks', async () => {
    server.files.set('/evil.tgz', { body: await makeEvilTarGz('../evil') });
    server.files.set('/evil.zip', { body: await makeZip({ 'bin/agent': script, '../evil': 'x' }) });
    server.files.set('/link.tgz', { body: await makeTarGz({ 'bin/agent': script }, { symlinks: { 'escape': '../../../../etc' } }) });
    for (const f of ['evil.tgz', 'evil.zip', 'link.tgz']) {
      await assert.rejects(installer.install(binaryAgent(`${server.url}/${f}`), yes), (e) => ArchiveError.is(e) && /refused/.test(e.message), f);
      assert.deepEqual(leftovers(), [], f);
    }
    assert.ok(!fs.existsSync(path.join(dir, 'agents', 'evil')) && !fs.existsSync(path.join(dir, 'evil')));
  });

  it('refuses plain http downloads from other hosts, a missing cmd, and oversized downloads', async () => {
    await assert.rejects(installer.install(binaryAgent('http://example.com/a.tgz'), yes), (e) => DownloadError.is(e, 'insecureUrl'));
    server.files.set('/a.tgz', { body: await makeTarGz({ 'other': script }) });
    await assert.rejects(installer.install(binaryAgent(`${server.url}/a.tgz`), yes), (e) => InstallError.is(e, 'badCommand'));
    const small = new AgentInstaller(installed, { target: 'linux-x86_64', maxDownloadBytes: 10 });
    await assert.rejects(small.install(binaryAgent(`${server.url}/a.tgz`), yes), (e) => DownloadError.is(e, 'tooLarge'));
    assert.deepEqual(leftovers(), []);
  });

  it('records npx/uvx agents pinned, updates, pins and uninstalls', async () => {
    const npx = parseRegistry({ agents: [{ id: 'np', name: 'Np', version: '2.0.0', distribution: { npx: { package: '@acme/np@latest', args: ['--acp'] } } }] }).registry.agents[0]!;
    const rec = await installer.install(npx, yes);
    assert.deepEqual(installed.toDefinition(rec), { id: 'np', name: 'Np', command: 'npx', args: ['-y', '@acme/np@2.0.0', '--acp'], env: {} });
    const uvx = parseRegistry({ agents: [{ id: 'uv', name: 'Uv', version: '0.3.0', distribution: { uvx: { package: 'pyagent' } } }] }).registry.agents[0]!;
    assert.deepEqual(installed.toDefinition(await installer.install(uvx, yes)).args, ['pyagent@0.3.0']);
    await installer.setPinned('np', true);
    assert.equal(new InstalledAgents(dir).get('np')?.pinned, true);
    await installer.uninstall('np');
    assert.equal(installed.get('np'), undefined);
    await assert.rejects(installer.uninstall('np'), (e) => InstallError.is(e, 'notInstalled'));

    server.files.set('/v1.tgz', { body: await makeTarGz({ 'bin/agent': script }) });
    server.files.set('/v2.tgz', { body: await makeTarGz({ 'bin/agent': `${script}# v2\n` }) });
    await installer.install(binaryAgent(`${server.url}/v1.tgz`), yes);
    await installer.install(binaryAgent(`${server.url}/v2.tgz`, {}, '1.1.0'), yes);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'agents', 'bin')), ['1.1.0'], 'the old version is removed');
    await installer.uninstall('bin');
    assert.ok(!fs.existsSync(path.join(dir, 'agents', 'bin')));
  });
});
