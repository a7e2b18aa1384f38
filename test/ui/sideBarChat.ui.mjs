// @ts-check
// The chat in the secondary side bar (`switchboard.chat.openIn: sideBar`): New Session from the keyboard
// opens the chat in the Chat view in the secondary side bar, not in an editor tab, and the composer has
// the keyboard; a prompt streams its answer there; the view's title picker (its list button, then the
// keyboard) switches the view to a session from history; with a file open in the editor the view keeps
// its session; a window reload brings the view back with that session and its transcript; ACP: Switch
// Session from the palette opens the first session in the view again; the view's + button starts a
// session in the view, and Esc in its composer stops a turn.
// Screenshots: test-results/screenshots/<version>/side-bar-chat-{light,dark,high-contrast,read-only}.png
import { composerSettled, idle, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { inEachTheme } from './colorThemes.mjs';

export const name = 'side-bar-chat';
export const timeout = 240_000;
export const settings = {
  'switchboard.agents': [
    scriptedAgent('scripted-history', 'Scripted history', 'historyPaging'),
    scriptedAgent('scripted-cancel', 'Scripted cancel', 'cancelMidTurn'),
  ],
  'switchboard.chat.openIn': 'sideBar',
};
export const files = { 'src/hello.ts': 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n' };


/**
 * The visible chat webview, after checking that it lies inside the secondary side bar.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function sideBarChat(t) {
  const bar = t.page.locator('.part.auxiliarybar');
  await bar.waitFor({ state: 'visible', timeout: 30_000 });
  const chat = await t.webview({ timeoutMs: 30_000 });
  const frame = t.page.locator('iframe.webview.ready').filter({ visible: true }).first();
  const [b, f] = [await bar.boundingBox(), await frame.boundingBox()];
  t.expect(b && f && f.x >= b.x - 1 && f.x + f.width <= b.x + b.width + 1 && f.y >= b.y - 1, `the chat is in the secondary side bar (bar ${JSON.stringify(b)}, chat ${JSON.stringify(f)})`);
  return chat;
}

/**
 * The chat tabs in the editor area.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
function chatTabs(t) {
  return t.page.locator('.tabs-container .tab', { hasText: '· Scripted history' });
}

/**
 * Picks the quick pick's row that shows `text`, from the keyboard (typed as a filter, then Enter).
 * @param {import('../harness/runUi.mjs').UiTest} t @param {string} text
 */
async function pick(t, text) {
  await t.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor({ timeout: 15_000 });
  await t.page.keyboard.type(text);
  await t.page.keyboard.press('Enter');
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  // 1. New Session, all from the keyboard: the chat opens in the side bar, and the composer has the keyboard
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await pick(t, 'Scripted history');
  let chat = await sideBarChat(t);
  const input = chat.locator('[data-testid="composer-input"]');
  await input.waitFor({ timeout: 30_000 });
  await idle(chat);
  t.expect(await chatTabs(t).count() === 0, 'the editor area has no chat tab');
  // VS Code 1.100 shows an error notification for a view in a container it does not know
  const contributionErrors = await page.locator('.notification-list-item-message', { hasText: 'switchboard' }).allInnerTexts();
  t.expect(contributionErrors.length === 0, `no notification about Switchboard's contributions: ${JSON.stringify(contributionErrors)}`);
  await page.locator('.part.auxiliarybar .composite.title', { hasText: /Scripted history · \d\d:\d\d/ }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the view\'s title names the session (the secondary side bar\'s title, shown on hover of its tab)');
  // typed without a click: the composer took the keyboard when the view was shown (a moment later: 5 s at most)
  await composerSettled(t, chat);
  await page.keyboard.type('Summarise the side bar');
  t.expect(await input.inputValue() === 'Summarise the side bar', `the composer has the keyboard (it holds "${await input.inputValue()}")`);
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'end-of-paged-1' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  t.expect(true, 'the answer streamed into the side-bar chat');
  await page.locator('.part.auxiliarybar .composite.title', { hasText: 'Summarise the side bar' }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the view\'s title follows the session\'s title');

  // 2. the title picker (its list button), then the keyboard: a session from the agent's history
  await page.locator('.part.auxiliarybar .title-actions .codicon-list-selection, .part.auxiliarybar .actions-container .codicon-list-selection').first().click();
  await pick(t, 'History one');
  await page.locator('.part.auxiliarybar .composite.title', { hasText: 'History one' }).first().waitFor({ timeout: 30_000 });
  chat = await sideBarChat(t);
  await idle(chat);
  await sendPrompt(t, chat, 'hello');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'end-of-h-1' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  t.expect(await chat.locator('[data-testid="user-message"]', { hasText: 'Summarise the side bar' }).count() === 0, 'the picker switched the view to the other session');
  t.expect(await chatTabs(t).count() === 0, 'still no chat tab');

  // 3. a file in the editor next to it
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
  await page.keyboard.type('hello.ts'); // Quick Open lists files once something is typed
  // the row that Enter opens: Quick Open's file search fills the list as it goes, and another file may lead it at first
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'hello.ts' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: 'hello.ts' }).waitFor({ timeout: 15_000 });
  chat = await sideBarChat(t);
  t.expect(await chat.locator('[data-testid="agent-message"]', { hasText: 'end-of-h-1' }).count() >= 1, 'the view keeps its session next to the editor');

  // 4. reload: the view comes back with its session
  await t.reloadWindow();
  chat = await sideBarChat(t);
  await chat.locator('[data-testid="agent-message"]', { hasText: 'end-of-h-1' }).first().waitFor({ timeout: 60_000 });
  await page.locator('.part.auxiliarybar .composite.title', { hasText: 'History one' }).first().waitFor({ timeout: 30_000 });
  t.expect(await chatTabs(t).count() === 0, 'after the reload the side bar shows the session again, and no tab does');
  await idle(chat);
  await sendPrompt(t, chat, 'again');
  await chat.locator('[data-testid="user-message"]', { hasText: 'again' }).waitFor({ timeout: 15_000 });
  await idle(chat);
  t.expect(true, 'the restored session takes a prompt');
  const title = chat.locator('[data-testid="session-title"]');
  t.expect(await title.evaluate((el) => el.textContent === 'History one' && el.scrollWidth <= el.clientWidth), 'the chat\'s own header shows the whole session title, no ellipsis');

  // 5. screenshots with the editor open next to the chat
  await inEachTheme(t, (id) => t.screenshot(`side-bar-chat-${id}`).then(() => undefined));

  // 6. ACP: Switch Session from the palette, all keyboard, honours the setting: the first session comes back in the view
  await t.runCommand(t.commandTitle('switchboard.switchSession'));
  await pick(t, 'Summarise the side bar');
  await page.locator('.part.auxiliarybar .composite.title', { hasText: 'Summarise the side bar' }).first().waitFor({ timeout: 30_000 });
  chat = await sideBarChat(t);
  await chat.locator('[data-testid="agent-message"]', { hasText: 'end-of-paged-1' }).first().waitFor({ timeout: 30_000 });
  t.expect(await chatTabs(t).count() === 0, 'Switch Session opened the session in the side bar, not in a tab');
  // that session's agent cannot reopen it (it was never in the agent's list): read-only, with its banner
  await chat.locator('[data-testid="session-error"]').waitFor({ timeout: 15_000 });
  const banner = await chat.locator('[data-testid="session-error"]').boundingBox();
  t.expect(banner && banner.height < 200, `the read-only banner fits the side bar's width (${banner?.height}px high)`);
  await t.screenshot('side-bar-chat-read-only');

  // 7. New Session in the view's title (its + button), and Esc in the side-bar chat's composer stops a
  // turn that waits for a permission
  await page.locator('.part.auxiliarybar .actions-container .codicon-add').first().click();
  await pick(t, 'Scripted cancel');
  await page.locator('.part.auxiliarybar .composite.title', { hasText: /Scripted cancel · \d\d:\d\d/ }).first().waitFor({ timeout: 30_000 });
  chat = await sideBarChat(t);
  await idle(chat);
  await sendPrompt(t, chat, 'permission please');
  await chat.locator('[data-testid="permission"]').waitFor({ timeout: 20_000 });
  await chat.locator('[data-testid="composer-input"]').click();
  await page.keyboard.press('Escape');
  await idle(chat);
  t.expect(await chatTabs(t).count() === 0 && await page.locator('.tabs-container .tab', { hasText: 'Scripted cancel' }).count() === 0, 'New Session in the view\'s title opened in the view');
  t.expect(await chat.locator('[data-testid="permission"]').count() === 0, 'Esc in the side-bar chat stopped the turn and answered the permission request');
}
