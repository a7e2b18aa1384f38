import * as assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, until, useScriptedAgent, workspaceRoot } from './helpers';

const notices = (sb: SwitchboardTestApi, id: string) => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'notice' ? [e] : []));
const users = (sb: SwitchboardTestApi, id: string) => (sb.snapshot(id)?.entries ?? []).filter((e) => e.kind === 'user').length;
const SSHD = '/usr/sbin/sshd';

/**
 * The scripted agents that this test's sshd started, by pid: their SSH_CONNECTION ("client port server port")
 * names its port (the other VS Code version's run has an sshd of its own at the same time).
 */
let sshdPort = 0;
function remoteAgents(): string[] {
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('scriptedAgent.js')
        && fs.readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').some((v) => v.startsWith('SSH_CONNECTION=') && v.trim().endsWith(` ${sshdPort}`));
    } catch { return false; }
  });
}

/** The sshd process that serves the connection of the agent `pid` (its nearest sshd ancestor). */
function sshdOf(pid: string): number | undefined {
  for (let p = pid; p && p !== '1';) {
    const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
    const parent = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8').startsWith('sshd')) return Number(parent);
    p = parent;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The server's SSH banner, once it listens (15 s at most). */
async function sshBanner(port: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const banner = await new Promise<string | undefined>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (d: Buffer) => { socket.destroy(); resolve(d.toString().trim()); });
      socket.once('error', () => resolve(undefined));
    });
    if (banner) return banner;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * docs/remote-agents.md: an agent on another machine, reached with the system ssh. The other machine is this one,
 * through a real OpenSSH server (Debian's `openssh-server`, installed by test/harness/setup.sh and .ci/run) on
 * 127.0.0.1 with keys made for the run; the agent is the scripted agent on the official SDK.
 */
describe('agents on another machine over SSH (a real sshd on loopback)', function () {
  this.timeout(90_000);
  let sb: SwitchboardTestApi;
  let sshd: ChildProcess | undefined;
  let dir = '';
  let port = 0;
  let sshdLog = '';

  before(async () => {
    sb = await api();
    assert.ok(fs.existsSync(SSHD), `${SSHD} is missing: test/harness/setup.sh installs Debian's openssh-server`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sshd-'));
    for (const key of ['host', 'id']) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `switchboard-test-${key}`, '-f', path.join(dir, key)]);
    fs.copyFileSync(path.join(dir, 'id.pub'), path.join(dir, 'authorized_keys'));
    port = await freePort();
    sshdPort = port;
    const config = path.join(dir, 'sshd_config');
    fs.writeFileSync(config, [
      `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${path.join(dir, 'host')}`, `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no', 'PermitRootLogin prohibit-password',
      `PidFile ${path.join(dir, 'sshd.pid')}`, 'LogLevel VERBOSE', '',
    ].join('\n'));
    if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // its privilege separation folder
    sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr?.on('data', (d: Buffer) => { sshdLog = (sshdLog + d.toString()).slice(-4000); });
    assert.match(await sshBanner(port), /^SSH-2\.0-OpenSSH/, `sshd answers (its log: ${sshdLog})`);
  });

  after(async () => {
    await sb.stopAll();
    sshd?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The scripted agent as an entry that runs it over ssh, in the workspace folder (the same path on "both" machines). */
  const useSshAgent = (scenario: string, id: string) => useScriptedAgent(scenario, {}, id, {
    transport: {
      type: 'ssh', host: '127.0.0.1', port, identityFile: path.join(dir, 'id'), cwd: workspaceRoot(),
      options: ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null', 'LogLevel=ERROR'],
    },
  });

  it('a session runs over ssh: the process is ssh, the agent is offered neither files nor terminals, and the chat says where it runs', async () => {
    const agent = await useSshAgent('crashResume', 'ssh-scripted');
    const id = await sb.newSession(agent);
    const host = sb.session(id)?.host;
    assert.ok(host?.pid, `the agent runs (sshd log: ${sshdLog.slice(-800)})`);
    const cmdline = fs.readFileSync(`/proc/${host.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(cmdline[0].endsWith('ssh') && cmdline.includes('127.0.0.1') && cmdline.includes(String(port)), `the local process is ssh: ${cmdline.slice(0, 12).join(' ')}`);
    const caps = host.clientCapabilities;
    assert.equal(caps.fs, undefined, 'no fs/* on another machine');
    assert.equal(caps.terminal, undefined, 'no terminal/*');
    assert.equal(caps.auth?.terminal, undefined, 'no terminal login');
    assert.ok(notices(sb, id).some((n) => n.text.includes(`runs on 127.0.0.1:${port} over SSH, in ${workspaceRoot()}`)), 'the chat says where the agent runs');
    await sb.prompt(id, 'hello over ssh');
    assert.match(agentText(sb, id), /answer after restart/);
    assert.equal(sb.snapshot(id)?.state.status, 'idle');
  });

  it('an agent there that calls fs/* or terminal/* anyway gets "method not found", and nothing is read, written or run here', async () => {
    const agent = await useSshAgent('remoteHostile', 'ssh-hostile');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'try');
    const text = agentText(sb, id);
    for (const name of ['read', 'write', 'run']) assert.match(text, new RegExp(`\\[${name}\\] error: .*-32601|\\[${name}\\] error: .*[Mm]ethod not found`), `${name}: ${text}`);
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), 'pwned.txt')) && !fs.existsSync(path.join(workspaceRoot(), 'pwned-too.txt')), 'no file was written, no command ran');
  });

  it('the connection killed mid-turn (ssh killed): the exit shows, Restart connects again and the session resumes without a duplicate', async () => {
    const agent = await useSshAgent('crashResume', 'ssh-scripted-kill');
    const others = remoteAgents();
    const id = await sb.newSession(agent);
    const [remote] = remoteAgents().filter((p) => !others.includes(p));
    assert.ok(remote, 'the agent runs under sshd');
    const turn = sb.prompt(id, 'slow please');
    await until(() => /Working on it/.test(agentText(sb, id)), 'the turn to stream');
    const pid = sb.session(id)?.host.pid;
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    await until(() => notices(sb, id).find((n) => /Agent exited/.test(n.text)), 'the exit notice', 5000);
    await turn;
    await sb.restartAgent(id);
    const next = sb.session(id)?.host.pid;
    assert.ok(next && next !== pid, 'a new ssh process');
    await until(() => notices(sb, id).find((n) => /session was resumed/.test(n.text)), 'the session resumed over the new connection');
    await sb.prompt(id, 'hello again');
    assert.match(agentText(sb, id), /answer after restart/);
    assert.equal(users(sb, id), 2, 'each prompt once: nothing replayed twice');
    // the agent of the dropped connection ended there (its stdin closed), the new one runs
    await until(() => !remoteAgents().includes(remote) && remoteAgents().length === others.length + 1, 'the first agent to end on its machine', 10_000);
  });

  it('the connection dropped on the server\'s side: ssh exits 255, the chat reconnects by itself and resumes the session', async () => {
    const agent = await useSshAgent('crashResume', 'ssh-scripted-drop');
    const others = remoteAgents();
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'first');
    const [remote] = remoteAgents().filter((p) => !others.includes(p));
    const sshd = remote && sshdOf(remote);
    assert.ok(sshd, 'the sshd process of this connection');
    const pid = sb.session(id)?.host.pid;
    process.kill(sshd, 'SIGKILL');
    let sawReconnecting = false;
    await until(() => {
      if (sb.snapshot(id)?.state.status === 'reconnecting') sawReconnecting = true;
      return notices(sb, id).find((n) => /is connected again; the session was resumed/.test(n.text)) && sb.snapshot(id)?.state.status === 'idle';
    }, 'the session resumed over a new ssh connection', 30_000);
    assert.ok(sawReconnecting, 'the chat showed Reconnecting…');
    assert.ok(notices(sb, id).some((n) => /exited with code 255/.test(n.text)), 'the exit says ssh\'s own code');
    assert.notEqual(sb.session(id)?.host.pid, pid, 'a new ssh process');
    await sb.prompt(id, 'second');
    assert.equal(users(sb, id), 2, 'each prompt once');
  });

  it('a host that refuses the key: the start fails and no ssh is left running', async () => {
    const agent = await useScriptedAgent('crashResume', {}, 'ssh-refused', {
      transport: { type: 'ssh', host: '127.0.0.1', port, identityFile: path.join(dir, 'host'), cwd: workspaceRoot(), options: ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null'] },
    });
    await assert.rejects(sb.newSession(agent), /could not start agent 'ssh-refused'/);
    const left = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').includes(path.join(dir, 'host')); } catch { return false; }
    });
    assert.deepEqual(left, [], 'the refused ssh ended');
  });
});
