// @ts-check
// Issue 26, with the Demo agent: three new sessions can be told apart (their tabs, the Sessions view and
// Switch Session say the agent and the time each was started, never three "New session"s); a prompt names
// the chat after what it asked; the tour writes exactly the file its approved diff showed; and its terminal
// card shows `node -e …` as a user would type it, no path inside the editor's installation.
// Screenshots: demoTitles-tabs.png, demoTitles-tour.png
import fs from 'node:fs';
import path from 'node:path';
import { rowTexts } from '../harness/uiTest.mjs';
import { sessionsView } from './organizeSteps.mjs';
import { composerSettled, idle, pickAgent, sendPrompt, sendSlashCommand, untitledTab } from './scriptedSession.mjs';

export const name = 'demoTitles';
export const sharedWindow = true;
export const timeout = 120_000;

const untitled = untitledTab('Demo agent');

/**
 * New Session with the Demo agent; resolves with the new chat (the untitled tab not in `seen`) and its title.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {Set<string>} seen
 */
async function newDemoSession(t, seen) {
  await pickAgent(t, 'Demo agent', 'Demo');
  const tabs = t.page.locator('.tabs-container .tab .label-name');
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await t.page.waitForTimeout(100)) {
    const title = (await tabs.allInnerTexts()).map((s) => s.trim()).find((s) => untitled.test(s) && !seen.has(s));
    if (!title) continue;
    seen.add(title);
    const chat = await t.webviewByTitle(title);
    await chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
    await idle(chat);
    await composerSettled(t, chat);
    return { chat, title };
  }
  throw new Error(`no new Demo agent tab; tabs: ${JSON.stringify(await tabs.allInnerTexts())}`);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  /** @type {Set<string>} */
  const seen = new Set();
  const sessions = [];
  for (let i = 0; i < 3; i++) sessions.push(await newDemoSession(t, seen));
  const titles = sessions.map((s) => s.title);
  t.expect(new Set(titles).size === 3, `three new Demo sessions have three different tabs: ${JSON.stringify(titles)}`);
  const header = await sessions[2].chat.locator('[data-testid="session-title"]').innerText();
  t.expect(header === titles[2], `the chat's header says the same (${header})`);

  // the Sessions view and Switch Session name them the same way
  const view = await sessionsView(t);
  const rows = view.locator('.monaco-list-row');
  await rows.filter({ hasText: titles[2] }).first().waitFor({ timeout: 15_000 });
  const viewRows = await rowTexts(rows);
  t.expect(titles.every((title) => viewRows.filter((r) => r.includes(title)).length === 1), `the Sessions view lists each once by its name: ${JSON.stringify(viewRows)}`);
  t.expect(!viewRows.some((r) => /New session/.test(r)), 'no row says "New session"');
  const picks = page.locator('.quick-input-list .monaco-list-row');
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: picks.filter({ hasText: titles[0] }) });
  const pickTexts = await rowTexts(picks);
  t.expect(titles.every((title) => pickTexts.filter((r) => r.includes(title)).length === 1), `Switch Session lists each once by its name: ${JSON.stringify(pickTexts)}`);
  await page.keyboard.press('Escape');
  await t.screenshot('demoTitles-tabs');

  // a prompt names the chat: the Demo agent's title follows what was asked
  // (a chat's frame is made again when its tab comes back, elsewhere in the page: it is looked up again)
  const first = { ...sessions[0] };
  await page.locator('.tabs-container .tab', { hasText: first.title }).first().click();
  first.chat = await t.webviewByTitle(first.title);
  await first.chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await sendPrompt(t, first.chat, 'explain the build script');
  await page.locator('.tabs-container .tab', { hasText: 'Explain the build script · Demo agent' }).first().waitFor({ timeout: 30_000 });
  t.expect(true, 'after the prompt the tab is named after it, by the agent ("Explain the build script")');
  await idle(first.chat);

  // the tour: the file written is the diff that was approved; the terminal card shows `node -e`
  const second = { ...sessions[1] };
  await page.locator('.tabs-container .tab', { hasText: second.title }).first().click();
  second.chat = await t.webviewByTitle(second.title);
  await second.chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await composerSettled(t, second.chat);
  const input = second.chat.locator('[data-testid="composer-input"]');
  await sendSlashCommand(t, input, '/tour');
  await second.chat.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 30_000 });
  const shown = await second.chat.locator('.diff-line.added .diff-code', { hasText: 'Last tour:' }).first().innerText();
  await second.chat.locator('[data-testid="permission-option"][data-kind="allow_once"]').first().click();
  const terminal = second.chat.locator('[data-testid="tool-call"]', { hasText: 'Say hello from a terminal' }).first();
  const commandLine = terminal.locator('.terminal-command', { hasText: '$ ' }).first();
  await commandLine.waitFor({ timeout: 30_000 });
  await second.chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  const written = fs.readFileSync(path.join(t.workspace, 'switchboard-demo.md'), 'utf8');
  const line = written.split('\n').find((l) => l.startsWith('Last tour:'));
  t.expect(line === shown.trim(), `the file on disk has the approved diff's line (${JSON.stringify(line)} vs ${JSON.stringify(shown)})`);
  const command = await commandLine.innerText();
  t.expect(/^\$ node -e /.test(command), `the terminal card shows the command as a user would type it (${command.slice(0, 40)}…)`);
  t.expect(!/[\\/]\.cache[\\/]|switchboard[\\/]/.test(command), 'no path inside the editor\'s installation');
  await terminal.scrollIntoViewIfNeeded();
  await t.screenshot('demoTitles-tour');
}
