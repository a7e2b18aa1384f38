// @ts-check
// Secrets are masked everywhere: an agent configured with `env: { MY_API_TOKEN: <secret> }` prints that value
// to stderr (plain, as an assignment, in a Bearer header) and exits with code 1. After the crash the value is
// nowhere: not in the agent's Output channel (opened with ACP: Show Agent Log), not in the log files on disk,
// not in the chat, not in the transcript store on disk; and `***` stands where the stderr line had it.
// Screenshots: test-results/screenshots/<version>/secrets-*.png
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '../harness/harness.mjs';
import { openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'secrets';
export const timeout = 180_000;

// distinctive, and built at run time so that this file itself does not hold the whole value
const secret = ['sbx', 'SECRET', 'value', '7f3a9c21e4d8'].join('-');
const agent = scriptedAgent('secret-agent', 'Secret Agent', 'secretCrash');
export const settings = {
  'switchboard.agents': [{ ...agent, env: { ...agent.env, MY_API_TOKEN: secret } }],
};

/**
 * Every regular file under `dir` (symlinks are not followed: the extension's folder is linked in).
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? filesUnder(p) : d.isFile() ? [p] : [];
  });
}

/**
 * True for the settings file and VS Code's local history of it (User/History/<id>/ with an entries.json
 * naming it), which hold the secret by design: the test configured it there.
 * @param {string} file
 * @param {string} userData
 */
function isSettings(file, userData) {
  if (file === path.join(userData, 'User', 'settings.json')) return true;
  const entries = path.join(path.dirname(file), 'entries.json');
  if (path.dirname(path.dirname(file)) !== path.join(userData, 'User', 'History') || !fs.existsSync(entries)) return false;
  return /\/User\/settings\.json"/.test(fs.readFileSync(entries, 'utf8'));
}

/**
 * The files of the server's data (user data: logs, global and workspace storage, local history) other than the
 * settings; with their text.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
function dataFiles(t) {
  const { userData } = t.server.dirs;
  const roots = [userData, path.join(t.server.dirs.root, 'server-data')];
  return roots.flatMap(filesUnder).filter((f) => !isSettings(f, userData)).map((file) => ({ file, text: fs.readFileSync(file, 'latin1') }));
}

/**
 * Waits until `check` returns a truthy value (files are written a moment after the event).
 * @template T
 * @param {() => T} check
 * @param {string} what
 * @returns {Promise<NonNullable<T>>}
 */
async function until(check, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return /** @type {NonNullable<T>} */ (v);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Secret Agent');
  await sendPrompt(t, chat, 'crash now');

  // the chat: the crash notice quotes the stderr lines, masked
  const notice = chat.locator('body').getByText(/Agent exited \(code 1\)/).first();
  await notice.waitFor({ timeout: 30_000 });
  await chat.locator('body').getByText('MY_API_TOKEN=***').first().waitFor({ timeout: 10_000 });
  const chatText = await chat.locator('body').innerText();
  t.expect(chatText.includes('MY_API_TOKEN=***') && chatText.includes('refused the token ***'), 'the crash notice shows *** where the stderr line had the value');
  t.expect(!chatText.includes(secret), 'the chat does not show the value');
  await t.screenshot('secrets-chat');

  // the Output channel, opened through the UI
  await t.runCommand(t.commandTitle('switchboard.showAgentLog'));
  const output = page.locator('.part.panel .monaco-editor .view-lines');
  await output.first().waitFor({ timeout: 15_000 });
  await t.runCommand('View: Toggle Maximized Panel');
  await output.getByText('MY_API_TOKEN=***').first().waitFor({ timeout: 15_000 });
  const outputText = (await output.first().innerText()).replace(/\u00a0/g, ' '); // the editor renders spaces as no-break spaces
  t.expect(/\[stderr\] config: MY_API_TOKEN=\*\*\*/.test(outputText), 'the agent log shows [stderr] config: MY_API_TOKEN=***');
  t.expect(!outputText.includes(secret), 'the Output channel does not show the value');
  await t.screenshot('secrets-output');

  // the files on disk: the log files of the channels and the transcript store
  const logLine = await until(() => dataFiles(t).find((f) => f.file.endsWith('.log') && f.text.includes('[stderr] config: MY_API_TOKEN=***')), 'the agent log file with the masked stderr line');
  t.log(`agent log file: ${path.relative(t.server.dirs.root, logLine.file)}`);
  t.expect(/not masked in logs: the value of SCRIPTED_AGENT_DELAY_SCALE/.test(logLine.text), 'the agent log names the env variable too short to mask (not its value)');
  const transcript = await until(() => dataFiles(t).find((f) => f.file.endsWith('.jsonl') && f.text.includes('MY_API_TOKEN=***')), 'the stored transcript with the masked notice');
  t.log(`transcript: ${path.relative(t.server.dirs.root, transcript.file)}`);
  const files = dataFiles(t);
  const leaks = files.filter((f) => f.text.includes(secret)).map((f) => path.relative(t.server.dirs.root, f.file));
  t.expect(leaks.length === 0, `the value is in none of the ${files.length} files of the logs and storage (found in: ${leaks.join(', ') || 'none'})`);
  t.expect(files.some((f) => f.file === logLine.file) && files.some((f) => f.file === transcript.file), 'the search covered the agent log file and the transcript');
  await t.runCommand('View: Toggle Maximized Panel');
}
