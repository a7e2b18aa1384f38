// @ts-check
// The agent's account and model providers (UNSTABLE ACP: auth.status, providers), against the scripted agent of
// test/fixtures/agents/scenarios/accounts.json:
// - the header's account chip: signed in (the active account, the accounts in its tooltip, Log Out), then signed
//   out by the agent's auth/status_update (Log In offered), a state no client knows (unknown); Switch Session shows
//   the state in the session's detail line; Log In runs the login methods, Log Out signs out;
// - the settings popover's Model Provider picker: the providers with their protocols and current routing; Set…
//   runs a VS Code input flow (protocol, base URL validated, API key in a password box); the agent receives the key
//   as a header (its record file), and the key is in no log file, no settings file and not in the chat's DOM;
//   Disable returns the provider to disabled, and is not offered for the required one.
// Screenshots (light, dark, high contrast): accounts-header-*.png, accounts-providers-*.png; accounts-switch.png,
// accounts-signed-out.png, accounts-set-url.png, accounts-provider-set.png, accounts-disabled.png
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inEachTheme } from './colorThemes.mjs';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { rowTexts } from '../harness/uiTest.mjs';

export const name = 'accounts';
export const sharedWindow = true;
export const timeout = 240_000;

// distinctive, and built at run time so that this file itself does not hold the whole value
const key = ['sbx', 'ui', 'provider', 'key', '3c9e5a17'].join('-');
const record = path.join(os.tmpdir(), `sb-accounts-ui-${process.pid}.jsonl`);
const agent = scriptedAgent('scripted-accounts', 'Scripted accounts', 'accounts');
export const settings = { 'switchboard.agents': [{ ...agent, env: { ...agent.env, SCRIPTED_AGENT_PROVIDERS_FILE: record } }] };

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

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  fs.rmSync(record, { force: true });
  const widget = page.locator('.quick-input-widget');
  const chat = await openSession(t, 'Scripted accounts');
  const chip = chat.locator('[data-testid="account-chip"]');
  const chipIn = (/** @type {string} */ state) => chat.locator(`[data-testid="account-chip"][data-state="${state}"]`).waitFor({ timeout: 20_000 });

  // 1. signed in: the active account, every account in the tooltip, Log Out
  await chipIn('authenticated');
  t.expect(await chip.innerText() === 'Signed in: Ada Lovelace +1', `the chip names the active account (${await chip.innerText()})`);
  const tooltip = await chip.getAttribute('title');
  t.expect(tooltip?.includes('Claude Max (Ada Lovelace <ada@example.com>, Analytical Engines) (active)') && tooltip.includes('• OpenAI API key'), `the tooltip lists the accounts: ${tooltip?.replace(/\n/g, " | ")}`);
  t.expect(await chat.locator('[data-testid="account-logout"]').count() === 1 && await chat.locator('[data-testid="account-login"]').count() === 0, 'signed in: Log Out, no Log In');
  await inEachTheme(t, (id) => t.screenshot(`accounts-header-${id}`).then(() => undefined));

  // 2. the agent signs out (auth/status_update): Not signed in, Log In offered
  await sendPrompt(t, chat, 'sign out');
  await chipIn('unauthenticated');
  t.expect(await chip.innerText() === 'Not signed in', `the chip says so (${await chip.innerText()})`);
  await chat.locator('[data-testid="account-login"]').waitFor({ timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="account-logout"]').count() === 0, 'signed out: Log In, no Log Out');
  await idle(chat);
  await t.screenshot('accounts-signed-out');

  // 3. Switch Session shows the state in the session's detail line
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Scripted accounts' }).first();
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: row });
  t.expect((await row.innerText()).includes('Not signed in'), `the row's detail line says "Not signed in": ${(await row.innerText()).replace(/\n/g, ' | ')}`);
  await t.screenshot('accounts-switch');
  await page.keyboard.press('Escape');

  // 4. a state the client does not know is shown as unknown
  await sendPrompt(t, chat, 'mystery');
  await chipIn('unknown');
  t.expect(await chip.innerText() === 'Sign-in state unknown', 'an unknown state');
  await idle(chat);

  // 5. Log In (the agent's login methods), then Log Out
  await sendPrompt(t, chat, 'sign out');
  await chipIn('unauthenticated');
  await idle(chat);
  await chat.locator('[data-testid="account-login"]').click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Log in (scripted)' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await chipIn('authenticated');
  t.expect(await chip.innerText() === 'Signed in: Ada Lovelace', `Log In signed in (${await chip.innerText()})`);
  await chat.locator('[data-testid="account-logout"]').click();
  await chipIn('unauthenticated');
  await chat.locator('[data-testid="account-login"]').waitFor({ timeout: 10_000 });
  t.expect(true, 'Log Out signed out, and Log In is offered again');

  // 6. the Model Provider picker in the settings popover
  await chat.locator('[data-testid="config-settings"]').click();
  const provider = (/** @type {string} */ id) => chat.locator(`[data-testid="provider"][data-provider-id="${id}"]`);
  await provider('backup').waitFor({ timeout: 15_000 });
  t.expect(await provider('main').locator('[data-testid="provider-current"]').innerText() === 'Anthropic · https://api.anthropic.com', 'main: its current routing');
  t.expect(await provider('backup').locator('[data-testid="provider-current"]').innerText() === 'Disabled', 'backup: disabled');
  t.expect((await provider('backup').innerText()).includes('Supports: OpenAI, Azure OpenAI, _local'), 'the supported protocols, an unknown one as spelled');
  t.expect(await provider('main').locator('[data-testid="provider-disable"]').count() === 0, 'the required provider offers no Disable');
  await inEachTheme(t, (id) => t.screenshot(`accounts-providers-${id}`).then(() => undefined));

  // 7. Set…: protocol, base URL (validated), API key (a password box)
  await provider('backup').locator('[data-testid="provider-set"]').click();
  await widget.locator('.quick-input-title', { hasText: '1/3' }).waitFor({ timeout: 15_000 });
  const protocols = (await rowTexts(widget.locator('.quick-input-list .monaco-list-row'))).map((s) => s.replace(/\s+/g, ' ').trim());
  t.expect(protocols.length === 3 && ['OpenAI', 'Azure OpenAI', '_local'].every((p, i) => protocols[i]?.startsWith(p)), `the protocols of the provider: ${protocols.join(' | ')}`);
  await page.keyboard.press('Enter');
  await widget.locator('.quick-input-title', { hasText: '2/3' }).waitFor({ timeout: 10_000 });
  await page.keyboard.type('ftp://llm.example.com');
  await widget.locator('.quick-input-message', { hasText: 'Only http:// and https://' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  t.expect(await widget.locator('.quick-input-title', { hasText: '2/3' }).isVisible(), 'an ftp:// URL is refused');
  await t.screenshot('accounts-set-url');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('https://llm.example.com/v1');
  await page.keyboard.press('Enter');
  await widget.locator('.quick-input-title', { hasText: '3/3' }).waitFor({ timeout: 10_000 });
  t.expect(await widget.locator('.quick-input-box input').getAttribute('type') === 'password', 'the key goes in a password box');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await provider('backup').locator('[data-testid="provider-current"]', { hasText: 'OpenAI · https://llm.example.com/v1' }).waitFor({ timeout: 20_000 });
  await t.screenshot('accounts-provider-set');
  const sets = () => fs.readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const last = sets().at(-1);
  t.expect(JSON.stringify(last) === JSON.stringify({ method: 'providers/set', params: { providerId: 'backup', apiType: 'openai', baseUrl: 'https://llm.example.com/v1', headers: { Authorization: `Bearer ${key}` } } }),
    `the agent received the endpoint and the key as a header: ${JSON.stringify(last).replace(key, '<key>')}`);

  // 8. the key is not in the chat, nor in a log file or a settings file
  const dom = await chat.locator('html').evaluate((el) => el.outerHTML);
  t.expect(!dom.includes(key), 'the chat\'s DOM does not hold the key');
  await page.waitForTimeout(1500); // the log files are written a moment later
  const { userData } = t.server.dirs;
  const files = [userData, path.join(t.server.dirs.root, 'server-data')].flatMap(filesUnder)
    .filter((f) => f.endsWith('.log') || path.basename(f) === 'settings.json').concat(path.join(t.workspace, '.vscode', 'settings.json')).filter((f) => fs.existsSync(f));
  const leaks = files.filter((f) => fs.readFileSync(f, 'latin1').includes(key));
  t.expect(files.some((f) => f.endsWith('.log')) && leaks.length === 0, `the key is in none of the ${files.length} log and settings files (found in: ${leaks.join(', ') || 'none'})`);

  // 9. Disable
  await provider('backup').locator('[data-testid="provider-disable"]').click();
  await provider('backup').locator('[data-testid="provider-current"]', { hasText: 'Disabled' }).waitFor({ timeout: 20_000 });
  t.expect(sets().at(-1).method === 'providers/disable' && sets().at(-1).params.providerId === 'backup', 'the agent received providers/disable');
  t.expect(await provider('backup').locator('[data-testid="provider-disable"]').count() === 0, 'a disabled provider offers Set… only');
  await t.screenshot('accounts-disabled');
  await page.keyboard.press('Escape');
  fs.rmSync(record, { force: true });
}
