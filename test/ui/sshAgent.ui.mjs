// @ts-check
// An agent on another machine over SSH (docs/remote-agents.md), through the workbench: the other machine is this
// one, through Debian's OpenSSH server on 127.0.0.1 with keys made for the run (test/harness/setup.sh and .ci/run
// install it), running the scripted agent. Like servedAgents.ui.mjs for WebSocket and HTTP:
// - a turn with a permission, answered from the keyboard; the chat says where the agent runs;
// - the connection dropped mid-turn (the sshd process of the connection killed: ssh exits 255): the chat says
//   so, reconnects by itself, and the session resumes with the interrupted prompt offered for Resend;
// - the server stopped: Reconnecting… with the attempt and the next try; started again: Ready, prompts shown once;
// - with a path mapping (its folder there is a link to this window's folder): a command it runs in a terminal runs
//   here only after the user allowed that on the client's own card, answered from the keyboard.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';
import { allowFromKeyboard, closeChats, takingTurns, idle, openSession, sendPrompt } from './scriptedSession.mjs';

export const name = 'sshAgent';
export const sharedWindow = true;
// the versions' runs take turns (below): one may wait for the other's (about a minute)
export const timeout = 300_000;

const SSHD = '/usr/sbin/sshd';
const port = 20_000 + ((process.pid + 7919) % 20_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ui-sshd-'));
for (const key of ['host', 'id']) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `switchboard-ui-${key}`, '-f', path.join(dir, key)]);
fs.copyFileSync(path.join(dir, 'id.pub'), path.join(dir, 'authorized_keys'));
const config = path.join(dir, 'sshd_config');
fs.writeFileSync(config, [
  `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${path.join(dir, 'host')}`, `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
  'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no', 'PermitRootLogin prohibit-password', '',
].join('\n'));

export const settings = {
  'switchboard.agents': [{
    id: 'ssh-agent', name: 'Scripted over SSH', command: process.execPath,
    args: [path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'), path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'remoteTurn.json')],
    env: { SCRIPTED_AGENT_DELAY_SCALE: '0' },
    transport: {
      type: 'ssh', host: '127.0.0.1', port, identityFile: path.join(dir, 'id'), cwd: os.tmpdir(),
      options: ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null', 'LogLevel=ERROR'],
    },
  }, {
    id: 'ssh-mapped', name: 'Mapped over SSH', command: process.execPath,
    args: [path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'), path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'remoteFiles.json')],
    env: { SCRIPTED_AGENT_DELAY_SCALE: '0' },
    transport: {
      type: 'ssh', host: '127.0.0.1', port, identityFile: path.join(dir, 'id'), cwd: path.join(dir, 'remote'), localFolder: '${workspaceFolder}',
      options: ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null', 'LogLevel=ERROR'],
    },
  }],
  'switchboard.permissions.uncoveredActions': 'ask',
};

/** Starts sshd in the foreground; resolves once it answers with its banner. */
async function startSshd() {
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'ignore'] });
  for (const deadline = Date.now() + 15_000; ;) {
    const banner = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (/** @type {Buffer} */ d) => { socket.destroy(); resolve(d.toString()); });
      socket.once('error', () => resolve(undefined));
    });
    if (banner) return sshd;
    if (Date.now() > deadline) throw new Error(`sshd does not answer on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The sshd processes that serve connections (children of the daemon `pid`), and their children. */
function sessionsOf(/** @type {number | undefined} */ pid) {
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch { return false; }
  }).map(Number);
}

// one sshd, port and key for the module, named in its settings: the versions' runs take turns; the folder goes
// with the process
process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
export const run = takingTurns(runAlone);

/** @param {import('../harness/runUi.mjs').UiTest} t */
async function runAlone(t) {
  t.expect(fs.existsSync(SSHD), `${SSHD} is installed (test/harness/setup.sh)`);
  let sshd = await startSshd();
  try {
    const chat = await openSession(t, 'Scripted over SSH');
    const notice = (/** @type {string | RegExp} */ text) => chat.locator('[data-testid="notice"]', { hasText: text });
    t.expect(await notice(`runs on 127.0.0.1:${port} over SSH`).count() === 1, 'the chat says where the agent runs');

    // a turn with a permission, answered from the keyboard
    await allowFromKeyboard(t, chat, 'deploy it');
    t.expect(true, 'the permission was answered from the keyboard and the tool call completed');

    // a path mapping: the agent's folder there (a link to this window's folder, on this machine) is the folder here
    fs.rmSync(path.join(dir, 'remote'), { force: true });
    fs.symlinkSync(t.workspace, path.join(dir, 'remote'));
    const mapped = await openSession(t, 'Mapped over SSH');
    t.expect(await mapped.locator('[data-testid="notice"]', { hasText: 'which is the workspace folder' }).count() === 1, 'the chat says which folder here is the agent\'s folder there');
    await allowFromKeyboard(t, mapped, 'run pwd');
    const card = mapped.locator('[data-testid="tool-call"]', { hasText: 'Run a command on this machine' });
    t.expect(await card.count() === 1, 'the command ran here only after the client\'s own card asked');
    await mapped.locator('[data-testid="agent-message"]', { hasText: `"output":"${fs.realpathSync(t.workspace)}` }).first().waitFor({ timeout: 20_000 });
    t.expect(true, 'it ran in the workspace folder, the agent\'s folder translated');
    await t.screenshot('ssh-mapped-command');
    await closeChats(t, /Mapped over SSH/);

    // the connection dropped mid-turn: the sshd process of the connection is killed, ssh exits 255
    await sendPrompt(t, chat, 'slow please');
    await chat.locator('[data-testid="agent-message"]', { hasText: 'Working on it' }).first().waitFor({ timeout: 20_000 });
    for (const p of sessionsOf(sshd.pid)) process.kill(p, 'SIGKILL');
    await notice('exited with code 255').waitFor({ timeout: 20_000 });
    await notice('is connected again; the session was resumed').waitFor({ timeout: 45_000 });
    await chat.locator('[data-testid="notice-resend"]').waitFor({ timeout: 20_000 });
    await idle(chat);
    t.expect(true, 'dropped mid-turn: the session came back by itself and offers the interrupted prompt');
    await t.screenshot('ssh-reconnected');

    // the server stopped, then started again
    for (const p of sessionsOf(sshd.pid)) process.kill(p, 'SIGKILL');
    sshd.kill('SIGKILL');
    await chat.locator('[data-testid="session-status"][data-status="reconnecting"]').waitFor({ timeout: 20_000 });
    const banner = chat.locator('[data-testid="session-error"]');
    await banner.filter({ hasText: /attempt [3-9]/ }).waitFor({ timeout: 45_000 });
    t.expect(/Reconnecting: attempt \d+, next try in/.test(await banner.innerText()), 'while sshd is down: Reconnecting…, the attempt and the next try');
    await t.screenshot('ssh-reconnecting');
    sshd = await startSshd();
    await notice('is connected again').nth(1).waitFor({ timeout: 45_000 });
    await idle(chat);
    await sendPrompt(t, chat, 'still there?');
    await chat.locator('[data-testid="agent-message"]', { hasText: 'answer after reconnect' }).first().waitFor({ timeout: 20_000 });
    const users = await chat.locator('[data-testid="user-message"]').count();
    t.expect(users === 3, `each of the 3 prompts shown once (${users})`);
    await closeChats(t, /Scripted over SSH/);
  } finally {
    for (const p of sessionsOf(sshd.pid)) { try { process.kill(p, 'SIGKILL'); } catch { /* gone */ } }
    sshd.kill('SIGKILL');
  }
}
