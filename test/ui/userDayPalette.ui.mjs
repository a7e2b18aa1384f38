// @ts-check
// Issue 26, a user's first hour: the walkthrough's first step offers the Demo agent first and shows its JSON
// example whole; the Demo agent's first prompt takes the folder's first checkpoint without a notification and
// its README read links no missing file; "ACP: New Session" in the palette lists New Session… first, and Enter
// opens the chat in a tab; Switch Session preselects the session shown before, so Enter switches back.
// Screenshots: test-results/screenshots/<version>/userDay-*.png
import { rowTexts } from '../harness/uiTest.mjs';
import { composerSettled, idle, sendPrompt, untitledTab } from './scriptedSession.mjs';

export const name = 'userDayPalette';
export const timeout = 120_000;
// a folder without README.md: the Demo agent's read of it finds nothing
export const files = { 'notes.txt': 'A folder without a README.\n', 'src/hello.ts': 'export const hello = 1;\n' };

/**
 * Every notification toast the workbench shows from now on whose text matches `pattern`. (A status bar
 * progress is a silent notification: listed in the notification center, never a toast. The smoke-test driver
 * of the newest versions shows no toasts at all, so there this watches nothing.)
 * @param {import('../harness/runUi.mjs').UiTest} t @param {string} pattern
 */
async function watchToasts(t, pattern) {
  await t.page.evaluate((source) => {
    const re = new RegExp(source, 'i');
    const seen = /** @type {string[]} */ ([]);
    /** @type {any} */ (window).__sbToasts = seen;
    const look = () => {
      for (const el of Array.from(document.querySelectorAll('.notification-toast'))) {
        const text = /** @type {HTMLElement} */ (el).innerText;
        if (re.test(text) && !seen.includes(text)) seen.push(text);
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
  }, pattern);
  return async () => /** @type {string[]} */ (await t.page.evaluate(() => /** @type {any} */ (window).__sbToasts));
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
async function activeTab(t) {
  return (await t.page.locator('.tabs-container .tab.active').first().innerText()).trim();
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;

  // item 9: the walkthrough's first step starts with the Demo agent, and its JSON example is not cut off (the
  // step's media shows beside the steps when the editor is wide enough: without the side bar at 1280 px)
  await t.runCommand('View: Close Primary Side Bar');
  await t.runCommand('Welcome: Open Walkthrough...');
  const walkthrough = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Switchboard' });
  await walkthrough.first().waitFor({ timeout: 15_000 });
  await walkthrough.first().click();
  const step = page.locator('.getting-started-step', { hasText: 'Pick or install an agent' }).first();
  await step.waitFor({ timeout: 15_000 });
  const buttons = step.locator('.button-link, a.button-link, .getting-started-step-action button, .monaco-button');
  await buttons.first().waitFor({ timeout: 10_000 });
  const labels = (await buttons.allInnerTexts()).map((s) => s.trim()).filter(Boolean);
  t.expect(labels[0] === 'Try the Demo agent', `the first step's first button is the Demo agent (buttons: ${JSON.stringify(labels)})`);
  const media = await exampleFrame(t);
  const cut = await media.locator('pre').first().evaluate((pre) => {
    const r = pre.getBoundingClientRect();
    return { scroll: pre.scrollWidth, client: pre.clientWidth, right: Math.round(r.right), width: document.documentElement.clientWidth };
  });
  t.expect(cut.client > 0 && cut.scroll <= cut.client && cut.right <= cut.width, `the JSON example fits its column (${JSON.stringify(cut)})`);
  await t.screenshot('userDay-walkthrough');
  await buttons.filter({ hasText: 'Try the Demo agent' }).first().click();

  // the Demo agent's chat opens from it, in a tab
  await page.locator('.tabs-container .tab.active', { hasText: 'Demo agent' }).first().waitFor({ timeout: 30_000 });
  const first = await t.webviewByTitle(untitledTab('Demo agent'), { timeoutMs: 30_000 });
  await first.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await idle(first);
  await composerSettled(t, first);

  // item 12: the first prompt takes the folder's first checkpoint: no notification about it
  const toasts = await watchToasts(t, 'checkpoint');
  await sendPrompt(t, first, 'Hi!');
  const read = first.locator('[data-testid="tool-call"]', { hasText: 'Read README.md' }).first();
  await read.waitFor({ timeout: 30_000 });
  await first.locator('[data-testid="agent-message"]', { hasText: 'Answering as' }).first().waitFor({ timeout: 30_000 });
  await idle(first);
  t.expect((await toasts()).length === 0, `no notification toast about the first checkpoint${t.server.smokeTestDriver ? ' (this version\'s test driver shows no toasts)' : ''} (saw: ${JSON.stringify(await toasts())})`);

  // item 11: the read found no README.md in this folder, so its card links none
  await read.getByText('There is no README.md in this folder').first().waitFor({ timeout: 10_000 });
  t.expect(await read.locator('[data-testid="location"], .md-link').count() === 0, 'the read card of a missing README.md has no link to it (no location, no web link)');
  const firstTab = await activeTab(t);
  await t.screenshot('userDay-first-prompt');

  // item 1: "ACP: New Session" lists New Session… first; Enter runs it and the chat opens in a tab
  const input = page.locator('.quick-input-widget input');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  const newSession = t.commandTitle('switchboard.newSession');
  // a chat that takes the keyboard a moment late closes the palette or the agent picker: again (3 tries)
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('>ACP: New Session', { timeout: 5000 });
      await rows.filter({ hasText: newSession }).first().waitFor({ timeout: 5000 });
      const listed = await rowTexts(rows);
      t.expect(listed[0]?.startsWith(newSession), `"ACP: New Session" lists ${newSession} first (rows: ${JSON.stringify(listed)})`);
      await page.keyboard.press('Enter');
      await rows.filter({ hasText: 'Demo agent' }).first().waitFor({ timeout: 15_000 });
      await input.fill('Demo', { timeout: 5000 });
      await page.keyboard.press('Enter');
      break;
    } catch (e) {
      if (attempt === 3 || (e instanceof Error && e.message.startsWith('expectation failed'))) throw e;
      t.log(`the palette or the agent picker closed under the test (${e instanceof Error ? e.message.split('\n')[0] : e}): again`);
    }
  }
  await page.waitForFunction((before) => {
    const tab = document.querySelector('.tabs-container .tab.active');
    return !!tab && /Demo agent/.test(tab.textContent ?? '') && /** @type {HTMLElement} */ (tab).innerText.trim() !== before;
  }, firstTab, { timeout: 30_000 });
  const secondTab = await activeTab(t);
  t.expect(true, `Enter on the first row opened a second chat in a tab ("${secondTab}", the first is "${firstTab}")`);
  const chatView = t.commandTitle('switchboard.chatView.newSession');
  t.expect(!chatView.startsWith('ACP: New Session'), `the Chat view's command has a title of its own: ${chatView}`);
  const second = await t.webview({ timeoutMs: 30_000 });
  await idle(second);
  await composerSettled(t, second);

  // ... and the Chat view's command is still in the palette by its own title
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill('>Chat View');
  await rows.filter({ hasText: chatView }).first().waitFor({ timeout: 10_000 });
  t.expect(true, `"${chatView}" is in the palette`);
  await page.keyboard.press('Escape');

  // item 7: Switch Session preselects the session shown before this one: Enter goes back to it
  const focused = page.locator('.quick-input-list .monaco-list-row.focused');
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: focused });
  await t.screenshot('userDay-switch-session');
  const row = (await focused.first().innerText()).trim();
  t.log(`Switch Session preselects "${row}"`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((want) => /** @type {HTMLElement | null} */ (document.querySelector('.tabs-container .tab.active'))?.innerText.trim() === want, firstTab, { timeout: 15_000 });
  t.expect(true, `Enter in Switch Session went back to "${firstTab}" (it preselected "${row}")`);
}

/**
 * The content frame of the walkthrough step's Markdown media (it shows the JSON example).
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function exampleFrame(t) {
  const outer = t.page.locator('iframe.webview.ready').filter({ visible: true });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (let i = 0; i < (await outer.count()); i++) {
      const inner = outer.nth(i).contentFrame().locator('#active-frame').contentFrame();
      if (await inner.locator('pre', { hasText: 'claude-code' }).count().catch(() => 0)) return inner;
    }
    await t.page.waitForTimeout(250);
  }
  throw new Error('the walkthrough step shows no JSON example');
}
