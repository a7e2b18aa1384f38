import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, extensionId, until, workspaceRoot } from './helpers';

type Sb = SwitchboardTestApi;
const entries = (sb: Sb, id: string) => sb.snapshot(id)?.entries ?? [];
const notices = (sb: Sb, id: string) => entries(sb, id).flatMap((e) => (e.kind === 'notice' ? [e.text] : []));
const status = (sb: Sb, id: string) => sb.snapshot(id)?.state.status;
/** The transcript without notices (what a run with faults must share with one without): kind and text of each entry. */
const transcript = (sb: Sb, id: string) => entries(sb, id).filter((e) => e.kind !== 'notice').map((e) => `${e.kind}: ${'text' in e ? String(e.text) : ''}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The extension's folder (the fixtures are built into its out/). */
const root = () => vscode.extensions.getExtension(extensionId)?.extensionPath ?? '';

/**
 * The SDK's server side (test/fixtures/agents/acpServer.ts) on `port`, wrapping the scripted agent: one agent
 * process per connection (or, `inProcess`, its engine in the server), the scenario's sessions kept across them.
 * Resolves once it listens.
 */
async function serve(port: number, scenario: string, extra: string[] = [], inProcess = false, env: Record<string, string> = {}): Promise<ChildProcess> {
  const r = root();
  const file = path.join(r, 'test/fixtures/agents/scenarios', `${scenario}.json`);
  const server = spawn(process.execPath, [
    path.join(r, 'out/test/fixtures/agents/acpServer.js'), '--port', String(port), ...extra,
    ...(inProcess ? ['--in-process', file] : ['--', process.execPath, path.join(r, 'out/test/fixtures/agents/scriptedAgent.js'), file]),
  ], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', SCRIPTED_AGENT_DELAY_SCALE: '0', ...env } });
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    server.stdout?.on('data', (d: Buffer) => { if (/listening/.test(d.toString())) resolve(); });
  });
  return server;
}

async function stopServer(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

/** Registers an agent served over `transport` (an entry without a command unless `extra` has one). */
async function useServedAgent(id: string, transport: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const config = vscode.workspace.getConfiguration('switchboard');
  const agents = (config.get<unknown[]>('agents') ?? []).filter((a) => (a as { id?: string }).id !== id);
  agents.push({ id, name: `Served ${id}`, transport: { cwd: workspaceRoot(), ...transport }, ...extra });
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  return id;
}

/** Drops every connection at the socket (a network failure), then waits for the session to be back and idle. */
async function dropAndWait(sb: Sb, server: ChildProcess, id: string, resumed: number): Promise<{ sawReconnecting: boolean; ms: number }> {
  let sawReconnecting = false;
  const t0 = Date.now();
  server.kill('SIGUSR1');
  await until(() => {
    if (status(sb, id) === 'reconnecting') sawReconnecting = true;
    return notices(sb, id).filter((n) => /is connected again; the session was resumed/.test(n)).length > resumed && status(sb, id) === 'idle';
  }, 'the session to be resumed over a new connection', 45_000);
  return { sawReconnecting, ms: Date.now() - t0 };
}

/**
 * docs/remote-agents.md: agents served over the ACP remote transport (Streamable HTTP, WebSocket), against the
 * official SDK's server side on loopback wrapping the scripted agent.
 */
for (const type of ['websocket', 'http'] as const) {
  describe(`agents served over ${type === 'websocket' ? 'WebSocket' : 'HTTP'} (the SDK's server on loopback)`, function () {
    this.timeout(120_000);
    let sb: Sb;
    let port = 0;
    let server: ChildProcess | undefined;
    const url = () => `${type === 'websocket' ? 'ws' : 'http'}://127.0.0.1:${port}/acp`;

    before(async () => {
      sb = await api();
      port = await freePort();
      server = await serve(port, 'remoteTurn');
    });
    after(async () => {
      await sb.stopAll();
      await stopServer(server);
      sb.setAuthPrompter(undefined);
    });

    it('a turn with a permission: no fs or terminal is offered, and the chat says where the agent runs', async () => {
      const agent = await useServedAgent(`served-${type}`, { type, url: url() });
      const id = await sb.newSession(agent);
      const caps = sb.session(id)?.host.clientCapabilities;
      assert.equal(caps?.fs, undefined, 'no fs/* for an agent elsewhere');
      assert.equal(caps?.terminal, undefined, 'no terminal/*');
      assert.ok(notices(sb, id).some((n) => n.includes(`runs at ${url()} over ${type === 'websocket' ? 'WebSocket' : 'HTTP'}`)), notices(sb, id).join('\n'));
      const turn = sb.prompt(id, 'deploy it');
      await until(() => status(sb, id) === 'awaitingPermission', 'the permission request');
      assert.ok(sb.respondPermission(id, 'allow_once'));
      await turn;
      const tool = entries(sb, id).find((e) => e.kind === 'toolCall');
      assert.equal(tool && 'status' in tool ? tool.status : undefined, 'completed');
      assert.equal(status(sb, id), 'idle');
    });

    it('the connection dropped mid-turn: Reconnecting… shows, the session resumes, the prompt is offered again, nothing is duplicated', async () => {
      const agent = await useServedAgent(`served-${type}-drop`, { type, url: url() });
      const id = await sb.newSession(agent);
      const turn = sb.prompt(id, 'slow please');
      await until(() => /Working on it/.test(agentText(sb, id)), 'the turn to stream');
      assert.ok(server);
      const { sawReconnecting, ms } = await dropAndWait(sb, server, id, 0);
      await turn;
      assert.ok(sawReconnecting, 'the chat showed Reconnecting…');
      assert.ok(notices(sb, id).some((n) => /lost its connection/.test(n)), notices(sb, id).join('\n'));
      assert.ok(notices(sb, id).some((n) => /did not finish/.test(n)), 'the interrupted prompt is offered for resend');
      console.log(`    [figure] ${type}: connection dropped → session resumed and Ready in ${ms} ms`);
      await sb.prompt(id, 'hello again');
      assert.match(agentText(sb, id), /answer after reconnect/);
      assert.equal(entries(sb, id).filter((e) => e.kind === 'user').length, 2, 'each prompt once');
    });

    it('the server restarted: attempts fail while it is down, then the session resumes', async () => {
      const agent = await useServedAgent(`served-${type}-restart`, { type, url: url() });
      const id = await sb.newSession(agent);
      await sb.prompt(id, 'before');
      await stopServer(server);
      await until(() => status(sb, id) === 'reconnecting' && /attempt [2-9]/.test(sb.snapshot(id)?.state.error ?? ''), 'failed attempts while the server is down', 15_000);
      assert.match(sb.snapshot(id)?.state.error ?? '', /Reconnecting: attempt \d+, (next try in|trying now)/);
      // back with the agent's engine in the server: a reconnection then costs the protocol, not an agent process's
      // start (4-12 s on a loaded machine; the turn and drop tests above run one per connection)
      server = await serve(port, 'remoteTurn', [], true);
      const back = Date.now();
      await until(() => status(sb, id) === 'idle' && notices(sb, id).some((n) => /is connected again/.test(n)), 'the session back after the server restarted', 45_000);
      console.log(`    [figure] ${type}: server back → chat Ready in ${Date.now() - back} ms`);
      await sb.prompt(id, 'after');
      assert.equal(entries(sb, id).filter((e) => e.kind === 'user').length, 2);
    });

    it('20 forced disconnects: the transcript is entry by entry the one of a run without faults', async function () {
      this.timeout(240_000);
      const prompts = Array.from({ length: 20 }, (_, i) => `message ${i + 1}`);
      // two servers with the agent's engine in process (a reconnection costs the protocol, not an agent's start on
      // a loaded machine): the run without faults on one, the dropped connections on the other
      const [cleanPort, faultPort] = [await freePort(), await freePort()];
      const cleanServer = await serve(cleanPort, 'remoteTurn', [], true);
      const faultServer = await serve(faultPort, 'remoteTurn', [], true);
      const at = (p: number) => url().replace(String(port), String(p));
      const clean = await sb.newSession(await useServedAgent(`served-${type}-clean`, { type, url: at(cleanPort) }));
      for (const p of prompts) await sb.prompt(clean, p);
      const faulty = await sb.newSession(await useServedAgent(`served-${type}-faults`, { type, url: at(faultPort) }));
      const times: number[] = [];
      for (const [i, p] of prompts.entries()) {
        await sb.prompt(faulty, p);
        times.push((await dropAndWait(sb, faultServer, faulty, i)).ms);
      }
      assert.deepEqual(transcript(sb, faulty), transcript(sb, clean));
      await sb.stopAll();
      await stopServer(cleanServer);
      await stopServer(faultServer);
      times.sort((a, b) => a - b);
      console.log(`    [figure] ${type}: 20 disconnects, reconnect median ${times[10]} ms, worst ${times[19]} ms; 0 entries lost or duplicated`);
    });
  });
}

describe('agents served elsewhere: headers and placement by an engine', function () {
  this.timeout(60_000);
  let sb: Sb;
  let server: ChildProcess | undefined;
  let port = 0;
  before(async () => {
    sb = await api();
    port = await freePort();
    server = await serve(port, 'remoteTurn', ['--token', 'tok-0123456789']);
  });
  after(async () => {
    await sb.stopAll();
    await stopServer(server);
    sb.setAuthPrompter(undefined);
  });

  it('a header value is asked for once, kept in secret storage, and sent at every connection', async () => {
    const asked: string[] = [];
    sb.setAuthPrompter({
      pickMethod: () => Promise.resolve(undefined), askValue: () => Promise.resolve(undefined),
      askHeader: (_agent, header) => { asked.push(header); return Promise.resolve('Bearer tok-0123456789'); },
    });
    const agent = await useServedAgent('served-token', { type: 'websocket', url: `ws://127.0.0.1:${port}/acp`, headers: ['Authorization'] });
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'hi');
    assert.deepEqual(asked, ['Authorization']);
    assert.ok(server);
    await dropAndWait(sb, server, id, 0);
    assert.deepEqual(asked, ['Authorization'], 'not asked again when reconnecting');
  });

  it('a refused header value: the start fails with the server\'s answer, and the value is asked for again', async () => {
    let asked = 0;
    sb.setAuthPrompter({ pickMethod: () => Promise.resolve(undefined), askValue: () => Promise.resolve(undefined), askHeader: () => { asked++; return Promise.resolve('Bearer wrong'); } });
    const agent = await useServedAgent('served-wrong-token', { type: 'websocket', url: `ws://127.0.0.1:${port}/acp`, headers: ['X-Other'] });
    await assert.rejects(sb.newSession(agent), /could not start agent 'served-wrong-token'/);
    // what the error notification says, and its Show Agent Log opens
    const log = await until(() => {
      const file = fs.readdirSync(sb.logDir(), { recursive: true }).map(String).find((f) => f.includes('Served served-wrong-token'));
      const text = file ? fs.readFileSync(path.join(sb.logDir(), file), 'utf8') : '';
      return /could not start a session/.test(text) && text;
    }, 'the agent log');
    assert.match(log, /Could not connect to agent 'Served served-wrong-token': ws:\/\/127\.0\.0\.1:\d+\/acp: the server answered HTTP 401/);
    assert.doesNotMatch(log, /Bearer wrong/, 'the header value is not logged');
    assert.match(log, /the saved X-Other value is forgotten/);
    await assert.rejects(sb.newSession(agent));
    assert.equal(asked, 2, 'the refused value was forgotten: asked again');
  });

  it('placement by an engine: the entry\'s command prints the endpoint, Switchboard connects to it', async () => {
    sb.setAuthPrompter({ pickMethod: () => Promise.resolve(undefined), askValue: () => Promise.resolve(undefined), askHeader: () => Promise.resolve('Bearer tok-0123456789') });
    const agent = await useServedAgent('served-engine', { type: 'http', headers: ['Authorization'] }, {
      command: process.execPath,
      args: ['-e', `console.error('creating the sandbox…'); console.log('sandbox ready'); console.log('http://127.0.0.1:${port}/acp')`],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'hi');
    assert.match(agentText(sb, id), /answer after reconnect/);
    assert.ok(notices(sb, id).some((n) => n.includes('runs at the endpoint its command prints over HTTP')), notices(sb, id).join('\n'));
  });
});

describe('an agent elsewhere with a path mapping ("transport.localFolder")', function () {
  this.timeout(60_000);
  const remote = '/srv/remote-app';
  let sb: Sb;
  let server: ChildProcess | undefined;
  let url = '';
  before(async () => {
    sb = await api();
    const port = await freePort();
    url = `ws://127.0.0.1:${port}/acp`;
    server = await serve(port, 'remoteFiles', [], true);
  });
  after(async () => {
    await sb.stopAll();
    await stopServer(server);
    for (const f of ['mapped-notes.txt', 'mapped-out.txt']) fs.rmSync(path.join(workspaceRoot(), f), { force: true });
  });

  it('fs/* and terminal/* are offered; the agent\'s paths are this machine\'s; a path outside its folder is refused', async () => {
    const notes = path.join(workspaceRoot(), 'mapped-notes.txt');
    fs.writeFileSync(notes, 'saved text\nline 2\n');
    const doc = await vscode.workspace.openTextDocument(notes);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, 0, 10), 'unsaved text');
    await vscode.workspace.applyEdit(edit);
    const agent = await useServedAgent('served-mapped', { type: 'websocket', url, cwd: remote, localFolder: '${workspaceFolder}' });
    const id = await sb.newSession(agent);
    const caps = sb.session(id)?.host.clientCapabilities;
    assert.ok(caps?.fs?.readTextFile && caps.fs.writeTextFile && caps.terminal, JSON.stringify(caps));
    const local = fs.realpathSync(workspaceRoot());
    assert.ok(notices(sb, id).some((n) => n.includes(`in ${remote}, which is the workspace folder ${local} here`)), notices(sb, id).join('\n'));
    await sb.prompt(id, 'files');
    const text = agentText(sb, id);
    assert.match(text, /\[read\] ok: unsaved text\nline 2/, 'the editor\'s unsaved text, at the mapped path');
    assert.match(text, /\[write\] ok/);
    assert.equal(fs.readFileSync(path.join(local, 'mapped-out.txt'), 'utf8'), 'from afar\n');
    assert.match(text, /\[outside\] error: .*"\/srv\/elsewhere\/secret\.txt" is outside \/srv\/remote-app/);
    assert.match(text, /\[escape\] error: .*is outside \/srv\/remote-app/, 'a ".." that leaves the folder is refused');
    const tool = entries(sb, id).find((e) => e.kind === 'toolCall');
    assert.deepEqual(tool && 'locations' in tool ? tool.locations : undefined, [{ path: path.join(local, 'mapped-notes.txt'), line: 2 }], 'locations in this machine\'s paths; one outside the folder is left out');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a command runs on this machine only once the user agreed, in the mapped folder, although the policy allows commands', async () => {
    const agent = await useServedAgent('served-mapped-run', { type: 'websocket', url, cwd: remote, localFolder: '${workspaceFolder}' });
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'run');
    await until(() => status(sb, id) === 'awaitingPermission', 'the question whether the command may run here');
    const card = entries(sb, id).find((e) => e.kind === 'toolCall' && 'title' in e && e.title === 'Run a command on this machine');
    assert.ok(card, 'the client\'s card says where the command runs');
    assert.ok(sb.respondPermission(id, 'allow_always'), 'Allow commands on this machine in this session');
    await turn;
    const local = fs.realpathSync(workspaceRoot());
    assert.ok(agentText(sb, id).includes(`"output":"${local}\\n"`), agentText(sb, id));
    await sb.prompt(id, 'run');
    assert.equal(agentText(sb, id).split(`"output":"${local}\\n"`).length, 3, 'the second command ran without a question');
  });

  it('a localFolder that is no workspace folder is not used: no fs or terminal, and the chat says why', async () => {
    const agent = await useServedAgent('served-unmapped', { type: 'websocket', url, cwd: remote, localFolder: '/' });
    const id = await sb.newSession(agent);
    const caps = sb.session(id)?.host.clientCapabilities;
    assert.equal(caps?.fs, undefined);
    assert.equal(caps?.terminal, undefined);
    assert.ok(notices(sb, id).some((n) => n.includes('Its "transport.localFolder" is not used: / is not in a workspace folder of this window.')), notices(sb, id).join('\n'));
  });
});

describe('an agent elsewhere that can load sessions but not resume them: the replay after a reconnection', function () {
  this.timeout(60_000);
  let sb: Sb;
  let server: ChildProcess | undefined;
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-remote-load-'));
  const go = () => path.join(workspaceRoot(), '.go');
  before(async () => { sb = await api(); });
  after(async () => {
    await sb.stopAll();
    await stopServer(server);
    fs.rmSync(store, { recursive: true, force: true });
    fs.rmSync(go(), { force: true });
  });

  it('what the agent sent while the network was dark comes from the replay of session/load, and nothing shown is shown twice', async () => {
    const port = await freePort();
    server = await serve(port, 'remoteLoad', [], true, { REMOTE_LOAD_STORE: store });
    const agent = await useServedAgent('served-load', { type: 'websocket', url: `ws://127.0.0.1:${port}/acp` });
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'slow please').catch(() => undefined);
    await until(() => /Working on it/.test(agentText(sb, id)), 'the turn to stream');
    server.kill('SIGUSR2');
    fs.writeFileSync(go(), '');
    // the agent finished its turn in the dark: its session file has the rest
    await until(() => fs.readdirSync(store).some((f) => fs.readFileSync(path.join(store, f), 'utf8').includes('More after the blackout.')), 'the agent to finish its turn');
    assert.doesNotMatch(agentText(sb, id), /More after the blackout/, 'nothing of it reached the chat');
    server.kill('SIGUSR1');
    await until(() => status(sb, id) === 'idle' && notices(sb, id).some((n) => /is connected again; the session was loaded again/.test(n)), 'the session loaded again over a new connection', 45_000);
    await turn;
    assert.match(agentText(sb, id), /More after the blackout\./, 'the rest of the turn, from the replay');
    assert.deepEqual(transcript(sb, id), ['user: ', 'agent: Working on it...', 'toolCall: ', 'agent: More after the blackout.'], 'each entry once');
    const tool = entries(sb, id).find((e) => e.kind === 'toolCall');
    assert.equal(tool && 'status' in tool ? tool.status : undefined, 'completed');
    await sb.prompt(id, 'hello again');
    assert.match(agentText(sb, id), /answer after reconnect/);
    assert.equal(entries(sb, id).filter((e) => e.kind === 'user').length, 2, 'each prompt once');
  });
});
