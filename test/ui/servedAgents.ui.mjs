// @ts-check
// Agents served over the ACP remote transport (docs/remote-agents.md), through the workbench, for WebSocket and
// for HTTP: the official SDK's server side on loopback (test/fixtures/agents/acpServer.ts) wraps the scripted
// agent, one agent process per connection. For each transport:
// - a turn with a permission, answered from the keyboard: the chat says where the agent runs;
// - the connection dropped mid-turn (every socket closed): the chat says the connection was lost, reconnects by
//   itself, the session resumes and the interrupted prompt is offered for Resend;
// - the server stopped: the header says Reconnecting…, the banner the attempt and the next try; the server
//   started again: the chat is Ready again and a prompt is answered, each prompt shown once;
// then Reload Window: the chat comes back with its transcript and says again where the agent runs.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';
import { allowFromKeyboard, closeChats, takingTurns, idle, openSession, reloadWindowAndReopen, sendPrompt } from './scriptedSession.mjs';

export const name = 'servedAgents';
export const sharedWindow = true;
// the versions' runs take turns (below): one may wait for the other's (about 1-2 minutes)
export const timeout = 420_000;

// two loopback ports for this run (the settings are read before the servers start)
const base = 20_000 + (process.pid % 20_000);
const transports = /** @type {const} */ ([
  { type: 'websocket', label: 'WebSocket', port: base, url: `ws://127.0.0.1:${base}/acp` },
  { type: 'http', label: 'HTTP', port: base + 1, url: `http://127.0.0.1:${base + 1}/acp` },
]);
export const settings = {
  'switchboard.agents': transports.map((x) => ({ id: `served-${x.type}`, name: `Served ${x.label}`, transport: { type: x.type, url: x.url, cwd: os.tmpdir() } })),
  'switchboard.permissions.uncoveredActions': 'ask',
};

/**
 * Starts the server on `port`; resolves with its process once it listens.
 * @param {number} port
 */
function serve(port) {
  const out = path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents');
  const server = spawn(process.execPath, [
    path.join(out, 'acpServer.js'), '--port', String(port), '--',
    process.execPath, path.join(out, 'scriptedAgent.js'), path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'remoteTurn.json'),
  ], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, SCRIPTED_AGENT_DELAY_SCALE: '0' } });
  return /** @type {Promise<import('node:child_process').ChildProcess>} */ (new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the ACP server on ${port} exited (${code})`)));
    server.stdout?.on('data', (/** @type {Buffer} */ d) => { if (/listening/.test(d.toString())) resolve(server); });
  }));
}

/** @param {import('node:child_process').ChildProcess} server */
async function stop(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

// the ports are named in the settings: the versions' runs take turns
export const run = takingTurns(runAlone);

/** @param {import('../harness/runUi.mjs').UiTest} t */
async function runAlone(t) {
  /** @type {import('node:child_process').ChildProcess[]} */
  const servers = [];
  try {
    for (const x of transports) {
      let server = await serve(x.port);
      servers.push(server);
      const chat = await openSession(t, `Served ${x.label}`);
      const notice = (/** @type {string | RegExp} */ text) => chat.locator('[data-testid="notice"]', { hasText: text });
      t.expect(await notice(`runs at ${x.url} over ${x.label}`).count() === 1, `${x.label}: the chat says where the agent runs`);

      // a turn with a permission, answered from the keyboard
      await allowFromKeyboard(t, chat, 'deploy it');
      t.expect(true, `${x.label}: the permission was answered and the tool call completed`);
      await t.screenshot(`served-${x.type}-permission`);

      // the connection dropped mid-turn
      await sendPrompt(t, chat, 'slow please');
      await chat.locator('[data-testid="agent-message"]', { hasText: 'Working on it' }).first().waitFor({ timeout: 20_000 });
      server.kill('SIGUSR1');
      await notice('lost its connection').waitFor({ timeout: 45_000 });
      await notice('is connected again; the session was resumed').waitFor({ timeout: 45_000 });
      await chat.locator('[data-testid="notice-resend"]').waitFor({ timeout: 20_000 });
      await idle(chat);
      t.expect(true, `${x.label}: dropped mid-turn, the session came back by itself and offers the interrupted prompt`);
      await t.screenshot(`served-${x.type}-reconnected`);

      // the server stopped: Reconnecting…, with the attempt and the next try; then started again
      await stop(server);
      const status = chat.locator('[data-testid="session-status"][data-status="reconnecting"]');
      await status.waitFor({ timeout: 20_000 });
      t.expect((await status.innerText()).includes('Reconnecting'), `${x.label}: the header says Reconnecting…`);
      const banner = chat.locator('[data-testid="session-error"]');
      await banner.filter({ hasText: /attempt [3-9]/ }).waitFor({ timeout: 20_000 });
      t.expect(/Reconnecting: attempt \d+, next try in/.test(await banner.innerText()), `${x.label}: the banner shows the attempt and the next try`);
      await t.screenshot(`served-${x.type}-reconnecting`);
      server = await serve(x.port);
      servers.push(server);
      const back = Date.now();
      await notice('is connected again').nth(1).waitFor({ timeout: 45_000 });
      await idle(chat);
      t.log(`${x.label}: server back → chat Ready in ${Date.now() - back} ms (in the workbench)`);
      await sendPrompt(t, chat, 'still there?');
      await chat.locator('[data-testid="agent-message"]', { hasText: 'answer after reconnect' }).first().waitFor({ timeout: 20_000 });
      const users = await chat.locator('[data-testid="user-message"]').count();
      t.expect(users === 3, `${x.label}: each of the 3 prompts shown once (${users})`);
    }

    // Reload Window: the HTTP chat comes back resumed, with its transcript, and says again where the agent runs
    const chat = await reloadWindowAndReopen(t, 'Served HTTP', /deploy it · Served HTTP/);
    await idle(chat);
    await chat.locator('[data-testid="notice"]', { hasText: `runs at ${transports[1].url} over HTTP` }).waitFor({ timeout: 20_000 });
    const users = await chat.locator('[data-testid="user-message"]').count();
    t.expect(users === 3, `after Reload Window: the transcript is back (${users} prompts) and the chat says where the agent runs`);
    await t.screenshot('served-after-reload');
    await closeChats(t, /Served (WebSocket|HTTP)/);
  } finally {
    for (const s of servers) await stop(s);
  }
}
