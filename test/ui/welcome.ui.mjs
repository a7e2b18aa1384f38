// @ts-check
// The first chat is not an empty page: an empty chat shows a compact welcome (the agent's name, what it can
// do as badges, its slash commands, its recent sessions, the keys) while the composer keeps the focus. From
// the keyboard only: Shift+Tab reaches a slash command, Enter puts `/echo ` into the composer, which sends
// it; the welcome is gone once the first message exists. In a new empty chat, the recent session created
// first (closed meanwhile) opens in its chat with Enter.
// Screenshots: test-results/screenshots/<version>/welcome-{light,dark,high-contrast}.png
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { inEachTheme } from './colorThemes.mjs';

export const name = 'welcome';
export const timeout = 240_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-welcome', 'Scripted welcome', 'commands')],
};

const agent = 'Scripted welcome';

/**
 * Presses `key` until the element matching `selector` has the focus; the number of presses, or -1.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} selector
 * @param {string} key
 */
async function pressUntilFocused(t, chat, selector, key, max = 15) {
  for (let i = 0; i <= max; i++) {
    if (await chat.locator(`${selector}:focus`).count()) return i;
    await t.page.keyboard.press(key);
  }
  return -1;
}

/**
 * Whether the composer has the keyboard (waits a little: the focus settles after the chat opens).
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 */
async function composerFocused(t, chat) {
  for (const start = Date.now(); Date.now() - start < 5000; await t.page.waitForTimeout(100)) {
    if (await chat.locator('[data-testid="composer-input"]:focus').count()) return true;
  }
  return false;
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  // a first session of the agent, then closed: it is in history
  const first = await openSession(t, agent);
  t.expect(await first.locator('[data-testid="welcome"]').isVisible(), 'the empty chat shows the welcome');
  await sendPrompt(t, first, 'remember the welcome');
  await first.locator('[data-testid="agent-message"]', { hasText: 'not a command: remember the welcome' }).waitFor({ timeout: 20_000 });
  await idle(first);
  t.expect(await first.locator('[data-testid="welcome"]').isHidden(), 'the welcome is gone once the first message exists');
  await t.runCommand(t.commandTitle('switchboard.closeSession'));
  await page.waitForFunction(() => document.querySelectorAll('.tabs-container .tab').length === 0, undefined, { timeout: 20_000 });

  // a new empty chat: the welcome, and the composer keeps the keyboard
  const chat = await openSession(t, agent);
  const welcome = chat.locator('[data-testid="welcome"]');
  await welcome.locator('[data-testid="welcome-session"]').first().waitFor({ timeout: 20_000 });
  t.expect((await welcome.locator('[data-testid="welcome-agent"]').innerText()) === agent, 'it names the agent');
  const badges = await welcome.locator('[data-testid="welcome-capabilities"] li').allInnerTexts();
  t.expect(badges.some((b) => b.includes('MCP')) && badges.some((b) => b.includes('Terminal')) && badges.every((b) => !b.includes('{')), `it says what the agent can do in words: ${badges.join(', ')}`);
  const commands = await welcome.locator('[data-testid="welcome-command"]').allInnerTexts();
  t.expect(commands.includes('/echo') && commands.includes('/plan'), `it suggests the slash commands: ${commands.join(', ')}`);
  const recent = welcome.locator('[data-testid="welcome-session"]', { hasText: 'remember the welcome' });
  t.expect(await recent.count() === 1 && /just now|min ago/.test(await recent.innerText()), `it lists the earlier session with its time: ${await recent.innerText()}`);
  t.expect((await welcome.locator('[data-testid="welcome-keys"]').innerText()).includes('Shift+Enter'), 'it lists the keys');
  t.expect(await composerFocused(t, chat), 'the composer has the keyboard, not the welcome');

  await inEachTheme(t, (id) => t.screenshot(`welcome-${id}`).then(() => undefined));

  // a slash command from the keyboard: back from the composer to the suggestion, Enter fills the composer
  await chat.locator('[data-testid="composer-input"]').focus();
  const presses = await pressUntilFocused(t, chat, '[data-testid="welcome-command"][data-command="echo"]', 'Shift+Tab');
  t.expect(presses > 0, `Shift+Tab reaches the /echo suggestion (${presses} presses)`);
  await page.keyboard.press('Enter');
  const input = chat.locator('[data-testid="composer-input"]');
  t.expect(await input.inputValue() === '/echo ', `Enter puts "/echo " into the composer (${JSON.stringify(await input.inputValue())})`);
  t.expect(await composerFocused(t, chat), 'and the composer takes the keyboard');
  await page.keyboard.type('hello');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'echo: hello' }).waitFor({ timeout: 20_000 });
  t.expect(await welcome.isHidden(), 'the command went to the agent, and the welcome is gone');
  await idle(chat);

  // a recent session from the keyboard: a third empty chat, Tab to the earlier session, Enter opens it
  const third = await openSession(t, agent);
  const row = third.locator('[data-testid="welcome-session"]', { hasText: 'remember the welcome' });
  await row.waitFor({ timeout: 20_000 });
  t.expect(await composerFocused(t, third), 'the third chat\'s composer has the keyboard');
  const back = await pressUntilFocused(t, third, '[data-testid="welcome-session"]:has-text("remember the welcome")', 'Shift+Tab');
  t.expect(back > 0, `Shift+Tab reaches the earlier session (${back} presses)`);
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: 'remember the welcome' }).waitFor({ timeout: 30_000 });
  const reopened = await t.webviewByTitle(/remember the welcome/, { timeoutMs: 30_000 });
  await reopened.locator('[data-testid="user-message"]', { hasText: 'remember the welcome' }).waitFor({ timeout: 30_000 });
  t.expect(true, 'Enter on the recent session opens its chat, with its transcript');
  t.expect(await reopened.locator('[data-testid="welcome"]').isHidden(), 'a chat with a transcript shows no welcome');
}
