/**
 * ACP Registry in the real extension host, against a local HTTP server on 127.0.0.1 serving a fixture
 * registry and archives built at test time. The binary agent is a shell script (in a real tar.gz) that execs
 * the scripted ACP agent; the npx agent runs through a fake `npx` script on its PATH that records its
 * arguments (npm packages cannot be fetched here) and then execs the same scripted agent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { platformTarget } from '../../src/registry/distributionChoice';
import { FixtureServer, makeEvilTarGz, makeTarGz, sha256, testIcon } from '../fixtures/registry/registryServer';
import { agentText, api, extensionId, setSetting } from './helpers';

const posix = process.platform !== 'win32';
// the extension is a bundle: its error classes are not the ones this test file imports, so match by name
const failsWith = (name: string, reason: string) => (e: unknown) => e instanceof Error && e.name === name && (e as Error & { reason?: string }).reason === reason;

describe('ACP Registry', function () {
  this.timeout(60_000);
  let sb: SwitchboardTestApi;
  let server: FixtureServer;
  let work: string;
  let agentCmd: string;
  let argsFile: string;
  const target = platformTarget() ?? 'linux-x86_64';
  const agents: Record<string, unknown> = {};
  const publish = () => server.setRegistry(Object.values(agents));
  const binaryEntry = (id: string, version: string, file: string, extra: Record<string, unknown> = {}) => ({
    id, name: `Fake ${id}`, version, description: `The ${id} test agent`, icon: '/icons/fake.svg',
    authMethods: [{ id: 'login', name: 'Fake login', type: 'agent' }],
    distribution: { binary: { [target]: { archive: `${server.url}/${file}`, cmd: './bin/agent', env: { ELECTRON_RUN_AS_NODE: '1', SCRIPTED_AGENT_DELAY_SCALE: '0' }, ...extra } } },
  });
  const onDisk = (id: string) => fs.existsSync(path.join(sb.registry.storageDir, 'agents', id));
  const staging = () => { const d = path.join(sb.registry.storageDir, 'agents', '.staging'); return fs.existsSync(d) ? fs.readdirSync(d) : []; };

  before(async function () {
    if (!posix) this.skip();
    sb = await api();
    const root = vscode.extensions.getExtension(extensionId)!.extensionPath;
    work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sb-registry-it-'));
    argsFile = path.join(work, 'npx-args.txt');
    const scripted = path.join(root, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js');
    const scenario = path.join(root, 'test', 'fixtures', 'agents', 'scenarios', 'streaming.json');
    agentCmd = `exec "${process.execPath}" "${scripted}" "${scenario}"`;
    // the fake npx: records its arguments, then runs the scripted ACP agent
    await fs.promises.mkdir(path.join(work, 'bin'));
    await fs.promises.writeFile(path.join(work, 'bin', 'npx'), `#!/bin/sh\necho "$@" > "${argsFile}"\n${agentCmd}\n`, { mode: 0o755 });
    server = new FixtureServer();
    await server.start();
    server.files.set('/icons/fake.svg', { body: testIcon, type: 'image/svg+xml' });
    const v1 = await makeTarGz({ 'bin/agent': `#!/bin/sh\n# v1\n${agentCmd}\n` });
    const v2 = await makeTarGz({ 'bin/agent': `#!/bin/sh\n# v2\n${agentCmd}\n` });
    server.files.set('/bin-1.0.0.tgz', { body: v1 });
    server.files.set('/bin-1.1.0.tgz', { body: v2 });
    server.files.set('/evil.tgz', { body: await makeEvilTarGz('../evil-escaped') });
    agents['fake-bin'] = binaryEntry('fake-bin', '1.0.0', 'bin-1.0.0.tgz', { sha256: sha256(v1) });
    agents['fake-badsum'] = binaryEntry('fake-badsum', '1.0.0', 'bin-1.0.0.tgz', { sha256: 'e'.repeat(64) });
    agents['fake-unverified'] = binaryEntry('fake-unverified', '1.0.0', 'bin-1.0.0.tgz');
    agents['fake-evil'] = binaryEntry('fake-evil', '1.0.0', 'evil.tgz');
    agents['fake-npx'] = {
      id: 'fake-npx', name: 'Fake npx', version: '2.3.4', description: 'npx test agent',
      distribution: { npx: { package: '@fake/agent@latest', args: ['--acp'], env: { PATH: `${path.join(work, 'bin')}:${process.env.PATH ?? ''}`, ELECTRON_RUN_AS_NODE: '1', SCRIPTED_AGENT_DELAY_SCALE: '0' } } },
    };
    publish();
    await setSetting('registry.url', `${server.url}/registry.json`);
  });

  after(async () => {
    if (!sb) return;
    sb.registry.setPrompter(undefined);
    await sb.stopAll();
    for (const a of sb.registry.installed()) await sb.registry.manage(a.id, 'uninstall');
    await setSetting('registry.url', undefined);
    await server?.stop();
    await fs.promises.rm(work, { recursive: true, force: true });
  });

  it('browses the registry, then browses offline from the cache', async () => {
    const first = await sb.registry.browse();
    assert.ok(['network', 'notModified'].includes(first.source));
    assert.deepEqual(first.registry.agents.map((a) => a.id).sort(), Object.keys(agents).sort());
    await server.stop();
    try {
      const offline = await sb.registry.browse();
      assert.equal(offline.source, 'cache', 'the server is down: the cached copy answers');
      assert.equal(offline.registry.agents.length, Object.keys(agents).length);
    } finally {
      await server.start();
    }
    const again = await sb.registry.browse();
    assert.equal(again.source, 'notModified', 'revalidated with the ETag');
  });

  it('installs a binary agent (checksum verified) and launches it from the agent picker', async () => {
    const rec = await sb.registry.install('fake-bin');
    assert.equal(rec?.version, '1.0.0');
    const id = await sb.newSession('fake-bin');
    await sb.prompt(id, 'hello');
    assert.ok(agentText(sb, id).length > 0, 'the installed binary answered over ACP');
    await sb.stopAll();
  });

  it('installs an npx agent pinned to its version and launches it', async () => {
    await sb.registry.install('fake-npx');
    const id = await sb.newSession('fake-npx');
    await sb.prompt(id, 'hello');
    assert.ok(agentText(sb, id).length > 0);
    assert.equal((await fs.promises.readFile(argsFile, 'utf8')).trim(), '-y @fake/agent@2.3.4 --acp');
    await sb.stopAll();
  });

  it('refuses a bad checksum and an archive with ../ entries, leaving nothing on disk', async () => {
    await assert.rejects(sb.registry.install('fake-badsum'), failsWith('InstallError', 'checksumMismatch'));
    assert.ok(!onDisk('fake-badsum'));
    // the archive has no checksum: the user accepts the hash, and the unpacking still refuses it
    sb.registry.setPrompter({ confirmUnverified: async () => true });
    await assert.rejects(sb.registry.install('fake-evil'), failsWith('ArchiveError', 'unsafePath'));
    assert.ok(!onDisk('fake-evil'));
    assert.ok(!fs.existsSync(path.join(sb.registry.storageDir, 'agents', 'evil-escaped')) && !fs.existsSync(path.join(sb.registry.storageDir, 'evil-escaped')));
    assert.deepEqual(staging(), []);
    assert.deepEqual(sb.registry.installed().map((a) => a.id).sort(), ['fake-bin', 'fake-npx']);
  });

  it('asks to confirm the computed hash when the registry has none', async () => {
    const shown: string[] = [];
    sb.registry.setPrompter({ confirmUnverified: async (_a, hash) => { shown.push(hash); return false; } });
    await assert.rejects(sb.registry.install('fake-unverified'), failsWith('InstallError', 'notConfirmed'));
    assert.ok(!onDisk('fake-unverified'));
    sb.registry.setPrompter({ confirmUnverified: async (_a, hash) => { shown.push(hash); return true; } });
    await sb.registry.install('fake-unverified');
    assert.equal(shown.length, 2);
    assert.equal(shown[0], sha256(server.files.get('/bin-1.0.0.tgz')!.body as Buffer));
    await sb.registry.manage('fake-unverified', 'uninstall');
  });

  it('pins, refuses to update a pinned agent, updates after unpinning, and uninstalls', async () => {
    agents['fake-bin'] = binaryEntry('fake-bin', '1.1.0', 'bin-1.1.0.tgz', { sha256: sha256(server.files.get('/bin-1.1.0.tgz')!.body as Buffer) });
    publish();
    await sb.registry.manage('fake-bin', 'pin');
    await assert.rejects(sb.registry.manage('fake-bin', 'update'), /pinned/);
    assert.equal(sb.registry.installed().find((a) => a.id === 'fake-bin')?.version, '1.0.0');
    await sb.registry.manage('fake-bin', 'unpin');
    await sb.registry.manage('fake-bin', 'update');
    assert.equal(sb.registry.installed().find((a) => a.id === 'fake-bin')?.version, '1.1.0');
    assert.deepEqual(fs.readdirSync(path.join(sb.registry.storageDir, 'agents', 'fake-bin')), ['1.1.0']);
    const id = await sb.newSession('fake-bin');
    await sb.prompt(id, 'hello');
    assert.ok(agentText(sb, id).length > 0, 'the updated binary answers');
    await sb.stopAll();
    await sb.registry.manage('fake-bin', 'uninstall');
    assert.ok(!onDisk('fake-bin'));
    await assert.rejects(sb.newSession('fake-bin'), /No agent with id|could not start/);
  });

  it('caches the sanitized icon in global storage', async () => {
    const icons = path.join(sb.registry.storageDir, 'icons');
    // the picker fetches icons in the background; open and close it
    const shown = vscode.commands.executeCommand('switchboard.installFromRegistry');
    const end = Date.now() + 10_000;
    while (!(fs.existsSync(icons) && fs.readdirSync(icons).some((f) => f.endsWith('-dark.svg'))) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await shown;
    const dark = fs.readdirSync(icons).find((f) => f.endsWith('-dark.svg'))!;
    const svg = await fs.promises.readFile(path.join(icons, dark), 'utf8');
    assert.ok(svg.includes('fill="#C5C5C5"') && !svg.includes('script'), svg);
  });
});
