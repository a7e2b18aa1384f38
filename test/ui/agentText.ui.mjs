// @ts-check
// Issue 26, the chat webview (items 3, 8, 13, 15), with two scripted agents (test/fixtures/agents/scenarios
// agentText.json and narrowCards.json):
// - slash commands: `/ca` then one Enter runs `/cards` (no input), the menu's hint says so; `/ec` then Enter
//   completes `/echo ` and the hint says what to type;
// - a tool title with Markdown inline code shows it as code, without backticks; a Read's `<system-reminder>`
//   block is folded (shown on demand); a tool's text with ANSI colours shows colours, not escapes;
// - gemini-style replay (session/load): `<session_context>` and `[Function Response: …]` user messages folded;
// - the side-bar chat at 250-300 px: the warning notice's and the banner's Continue in New Session, the diff's
//   Open Diff and a table with inline code stay inside the chat's width.
// Screenshots: test-results/screenshots/<version>/agent-text-{light,dark}.png (the editor tab with the cards
// next to the side-bar chat at about 265 px), agent-text-replay.png
import { colorThemes, resetTheme, switchTheme } from './colorThemes.mjs';
import { idle, openSession, pickAgent, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'agent-text';
export const sharedWindow = true;
export const timeout = 120_000;
export const settings = {
  'switchboard.agents': [
    scriptedAgent('scripted-agent-text', 'Scripted agent text', 'agentText'),
    scriptedAgent('scripted-narrow', 'Scripted narrow', 'narrowCards'),
  ],
};

/** The light and dark themes (high contrast is looked at by themes.ui.mjs). */
const lightAndDark = colorThemes.filter((c) => c.id === 'light' || c.id === 'dark');

/**
 * Takes `shot-<theme>` in the light and the dark theme, then goes back to the default theme.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {string} shot
 */
async function shootLightAndDark(t, shot) {
  for (const theme of lightAndDark) {
    await switchTheme(t, theme);
    await t.screenshot(`${shot}-${theme.id}`);
  }
  resetTheme(t);
}

/**
 * Slash commands (item 3): a command without input runs on the first Enter; one with input is completed and
 * the hint says what to type.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {import('playwright-core').FrameLocator} chat
 */
async function slashCommands(t, chat) {
  const { page } = t;
  const input = chat.locator('[data-testid="composer-input"]');
  const hint = chat.locator('[data-testid="slash-hint"]');
  await input.click();
  await page.keyboard.type('/ca');
  await chat.locator('[data-testid="slash-menu"]').waitFor({ state: 'visible', timeout: 10_000 });
  t.expect((await hint.textContent()) === 'Enter runs /cards', `the menu's hint says Enter runs the command ("${await hint.textContent()}")`);
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="user-message"]', { hasText: '/cards' }).waitFor({ timeout: 15_000 });
  t.expect(await input.inputValue() === '', 'one Enter sent /cards (a command without input)');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Done.' }).waitFor({ timeout: 20_000 });
  await idle(chat);

  await input.click();
  await page.keyboard.type('/ec');
  await chat.locator('[data-testid="slash-menu"]').waitFor({ state: 'visible', timeout: 10_000 });
  t.expect((await hint.textContent())?.includes('then type text to repeat'), `the menu's hint says /echo takes input ("${await hint.textContent()}")`);
  await page.keyboard.press('Enter');
  t.expect(await input.inputValue() === '/echo ', 'Enter completed "/echo " (a command with input)');
  t.expect(await hint.isVisible() && (await hint.textContent()) === 'Type text to repeat after /echo, then Enter to send', `the hint says what to type ("${await hint.textContent()}")`);
  await page.keyboard.type('hi');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'echo: hi' }).waitFor({ timeout: 20_000 });
  await idle(chat);
}

/**
 * Tool cards (items 13, 15): inline code in titles, a folded system reminder, ANSI colours.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {import('playwright-core').FrameLocator} chat
 */
async function toolCards(t, chat) {
  const card = (/** @type {string} */ id) => chat.locator(`[data-testid="tool-call"][data-tool-call-id="${id}"]`);
  const title = card('tc-edit').locator('[data-testid="tool-title"]');
  t.expect(await title.textContent() === 'Edit hello.txt' && await title.locator('code').textContent() === 'hello.txt',
    `the title "Edit \`hello.txt\`" shows hello.txt as code, without backticks ("${await title.textContent()}")`);

  const read = card('tc-read');
  const envelope = read.locator('[data-testid="agent-envelope"]');
  t.expect(await envelope.count() === 1 && await envelope.evaluate((d) => !(/** @type {HTMLDetailsElement} */ (d).open)), 'the Read\'s <system-reminder> block is folded');
  t.expect((await envelope.locator('summary').textContent())?.trim() === 'System reminder', 'its disclosure is labelled "System reminder"');
  const readText = await read.locator('[data-testid="tool-text"]').innerText();
  t.expect(readText.includes('# Sample project') && !readText.includes('Whenever you read') && !readText.includes('<system-reminder>'),
    `the Read shows the file, not the reminder (${JSON.stringify(readText)})`);
  await envelope.locator('summary').click();
  t.expect((await envelope.innerText()).includes('Whenever you read a file'), 'the reminder shows on demand');

  const run = card('tc-test');
  const ansi = run.locator('[data-testid="tool-ansi-text"]');
  const text = await ansi.textContent() ?? '';
  t.expect(!text.includes('\x1b') && !text.includes('[32m') && text.includes('2 passing, 1 failing'), `the coloured output has no escapes (${JSON.stringify(text)})`);
  t.expect(await ansi.locator('.ansi-fg-green').count() === 2 && await ansi.locator('.ansi-fg-red').count() === 1, 'its colours are shown as in a terminal card');
}

/**
 * A gemini-style replay (session/load): the agent's envelopes shown as user messages are folded.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function geminiReplay(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.switchSession'), { shows: page.locator('.quick-input-list .monaco-list-row', { hasText: 'Gemini replay' }) });
  await page.keyboard.type('Gemini replay');
  await page.keyboard.press('Enter');
  const chat = await t.webviewByTitle(/Gemini replay/, { timeoutMs: 30_000 });
  await chat.locator('[data-testid="agent-message"]', { hasText: 'sample project' }).waitFor({ timeout: 30_000 });
  const users = chat.locator('[data-testid="user-message"]');
  const summaries = await users.locator('[data-testid="agent-envelope-summary"]').allInnerTexts();
  t.expect(JSON.stringify(summaries.map((s) => s.trim())) === JSON.stringify(['Session context', 'Function response']), `the replayed envelopes are folded: ${JSON.stringify(summaries)}`);
  const shown = await users.allInnerTexts();
  t.expect(!shown.join('\n').includes('<session_context>') && !shown.join('\n').includes('[Function Response'), `no envelope text shows (${JSON.stringify(shown)})`);
  t.expect(shown.some((s) => s.includes('What is in the README?')), 'the user\'s own message shows as usual');
  await t.screenshot('agent-text-replay');
}

/**
 * The visible chat webview inside the secondary side bar, and its frame's box.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function sideBarFrame(t) {
  const bar = t.page.locator('.part.auxiliarybar');
  await bar.waitFor({ state: 'visible', timeout: 30_000 });
  const frames = t.page.locator('iframe.webview.ready').filter({ visible: true });
  for (const start = Date.now(); Date.now() - start < 30_000; await t.page.waitForTimeout(200)) {
    const b = await bar.boundingBox();
    for (let i = 0, n = await frames.count(); i < n; i++) {
      const f = await frames.nth(i).boundingBox();
      if (b && f && f.x >= b.x - 1 && f.x + f.width <= b.x + b.width + 1) {
        return { chat: frames.nth(i).contentFrame().locator('#active-frame').contentFrame(), box: f };
      }
    }
  }
  throw new Error('no chat webview in the secondary side bar');
}

/**
 * Drags the secondary side bar's edge until the chat is about `width` px wide.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {number} width
 */
async function narrowSideBar(t, width) {
  const b = await t.page.locator('.part.auxiliarybar').boundingBox();
  if (!b || b.width <= width) return;
  const sashes = t.page.locator('.monaco-sash.vertical').filter({ visible: true });
  for (let i = 0, n = await sashes.count(); i < n; i++) {
    const s = await sashes.nth(i).boundingBox();
    if (!s || Math.abs(s.x + s.width / 2 - b.x) > 4) continue;
    const y = b.y + b.height / 2;
    await t.page.mouse.move(s.x + s.width / 2, y);
    await t.page.mouse.down();
    await t.page.mouse.move(b.x + (b.width - width), y, { steps: 5 });
    await t.page.mouse.up();
    return;
  }
  throw new Error('the secondary side bar\'s sash was not found');
}

/**
 * The side-bar chat at 250-300 px (item 8): every button and table inside the chat's width.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function sideBarWidth(t) {
  // the chat opened before takes the keyboard a moment late: what is typed must go into the picker (pickAgent)
  await pickAgent(t, 'Scripted narrow', 'Scripted narrow', 'switchboard.chatView.newSession');
  let { chat } = await sideBarFrame(t);
  await chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await idle(chat);
  await narrowSideBar(t, 270);
  await sendPrompt(t, chat, 'do something risky');
  const warning = chat.locator('[data-testid="notice"][data-level="warning"]', { hasText: 'Continue in New Session' });
  await warning.locator('[data-testid="notice-continue"]').waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="session-error"] [data-testid="notice-continue"]').waitFor({ timeout: 15_000 });
  const frame = await sideBarFrame(t);
  chat = frame.chat;
  t.expect(frame.box.width >= 240 && frame.box.width <= 300, `the side-bar chat is 250-300 px wide (${frame.box.width})`);
  /** @param {string} what @param {import('playwright-core').Locator} el */
  const inside = async (what, el) => {
    await el.scrollIntoViewIfNeeded();
    const r = await el.evaluate((e) => { const b = e.getBoundingClientRect(); return { left: b.left, right: b.right, width: b.width, height: b.height, view: document.documentElement.clientWidth }; });
    t.expect(r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= r.view + 0.5, `${what} is fully visible in the ${r.view} px chat (${Math.round(r.left)}-${Math.round(r.right)})`);
  };
  await inside('the warning notice\'s Continue in New Session', warning.locator('[data-testid="notice-continue"]'));
  const noticeText = await warning.locator('.notice-text').evaluate((e) => e.getBoundingClientRect().width);
  t.expect(noticeText > 150, `the warning's text is not squeezed into a column (${Math.round(noticeText)} px wide)`);
  await inside('the banner\'s Continue in New Session', chat.locator('[data-testid="session-error"] [data-testid="notice-continue"]'));
  await inside('the diff card\'s Open Diff', chat.locator('[data-testid="open-diff"]').first());
  const table = chat.locator('.markdown table').first();
  await inside('the table', table);
  const code = await table.locator('td code').first().evaluate((e) => ({ lines: e.getClientRects().length, height: e.getBoundingClientRect().height, line: parseFloat(getComputedStyle(e).lineHeight) || 20 }));
  t.expect(code.lines === 1 && code.height < 2 * code.line, `inline code in the table stays on one line (${JSON.stringify(code)})`);
}

/**
 * The editor tab of the first session next to the side-bar chat, in the light and the dark theme.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function screenshots(t) {
  await t.page.locator('.tabs-container .tab', { hasText: 'Agent text · ' }).first().click();
  const tab = await t.webviewByTitle(/^Agent text/, { timeoutMs: 15_000 });
  await tab.locator('[data-testid="tool-call"][data-tool-call-id="tc-read"]').scrollIntoViewIfNeeded();
  const { chat } = await sideBarFrame(t);
  await chat.locator('[data-testid="notice"][data-level="warning"]').scrollIntoViewIfNeeded();
  await shootLightAndDark(t, 'agent-text');
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const chat = await openSession(t, 'Scripted agent text');
  await slashCommands(t, chat);
  await toolCards(t, chat);
  await geminiReplay(t);
  await sideBarWidth(t);
  await screenshots(t);
}
