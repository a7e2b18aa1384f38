// @ts-check
// Everything the transcript shows besides message text, end to end against the scripted "cards" agent:
// an agent error with Retry; the session title, the plan and the usage meter; tool-call cards of every
// content type (text, inline diffs with line numbers, a live ANSI-coloured terminal that stays after
// release, raw input, locations that open the file); Open Diff opening the diff editor; a permission
// dialog (reached with Ctrl+Shift+A, arrow keys, the diff's path shown) whose clicked option reaches the
// agent; a stop-reason notice.
// Screenshots: test-results/screenshots/<version>/cards-*.png
import fs from 'node:fs';
import path from 'node:path';
import { cardsSettings, openCardsSession, sendPrompt } from './cardsAgent.mjs';
import { expectGlyphs } from './scriptedSession.mjs';

export const name = 'cards';
export const sharedWindow = true;
export const settings = cardsSettings;
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openCardsSession(t);
  const idle = () => chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });

  // an agent error shows a notice with Retry; Retry resends the last prompt
  await sendPrompt(t, chat, 'fail please');
  const retry = chat.locator('[data-testid="notice"][data-level="error"] [data-testid="notice-retry"]');
  await retry.waitFor({ timeout: 20_000 });
  t.expect((await chat.locator('[data-testid="notice"][data-level="error"]').textContent())?.includes('model overloaded'), 'the agent error is shown as an error notice');
  await idle();
  await retry.click();
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Recovered after retry' }).waitFor({ timeout: 20_000 });
  t.expect(await chat.locator('[data-testid="user-message"]', { hasText: 'fail please' }).count() === 2, 'Retry resent the last prompt (it shows twice) and the agent answered');
  await idle();

  // the big turn (its terminal command prints its 6 lines, then runs on while .terminal-hold exists (30 s at
  // most): a loaded machine looked at the card after a 2.4 s command had ended)
  const hold = path.join(t.workspace, '.terminal-hold');
  fs.writeFileSync(hold, '');
  await sendPrompt(t, chat, 'show me the cards');
  await chat.locator('[data-testid="session-title"]', { hasText: 'Cards and colours' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the session title comes from session_info_update');
  const entries = chat.locator('[data-testid="plan-entry"]');
  await entries.nth(3).waitFor({ state: 'attached', timeout: 10_000 }); // the plan is one line until expanded
  t.expect(await entries.count() === 4, 'the plan shows its 4 entries');
  t.expect(await chat.locator('[data-testid="plan-entry"][data-status="completed"][data-priority="high"]').count() === 1
    && await chat.locator('[data-testid="plan-entry"][data-status="in_progress"]').count() === 1
    && await chat.locator('[data-testid="plan-entry"][data-priority="low"]').count() === 1, 'plan entries carry their status and priority');
  const usage = chat.locator('[data-testid="usage"][data-level="filling"]');
  await usage.waitFor({ timeout: 10_000 });
  t.expect((await usage.textContent())?.includes('Context filling up'), 'the usage meter warns "Context filling up" at 80%');
  t.expect((await chat.locator('[data-testid="usage-cost"]').textContent())?.includes('0.42'), 'the usage meter shows the cost');
  t.expect((await chat.locator('[data-testid="usage-text"]').textContent())?.includes('160k / 200k'), 'the usage meter shows used / size');

  // live terminal output with ANSI colours
  const terminal = chat.locator('[data-testid="terminal"]');
  await chat.locator('[data-testid="terminal"][data-running="true"] pre', { hasText: 'test 1' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'terminal output shows while the command still runs');
  fs.rmSync(hold); // the command may end now
  t.expect(await terminal.locator('span.ansi-fg-green.ansi-bold', { hasText: 'PASS' }).count() >= 1, 'SGR bold green becomes a themed class');
  t.expect(await terminal.locator('span.ansi-underline').count() >= 1 && await terminal.locator('span.ansi-fg-red').count() >= 1
    && await terminal.locator('span.ansi-bg-blue.ansi-fg-bright-white').count() >= 1, 'underline, red and a blue background with bright white too');
  // the colour classes' rules are made by the webview (a constructed style sheet): the theme's colour shows
  const [red, themeRed, text] = await terminal.locator('span.ansi-fg-red').first().evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--vscode-terminal-ansiRed)';
    document.body.append(probe);
    const colors = [getComputedStyle(el).color, getComputedStyle(probe).color, getComputedStyle(document.body).color];
    probe.remove();
    return colors;
  });
  t.expect(red === themeRed && red !== text, `red output has the theme's terminal red (${red}; the theme's ${themeRed}, text ${text})`);
  t.expect(!(await terminal.locator('pre').textContent())?.includes('\u001b'), 'no escape characters reach the page');

  // the permission dialog: Ctrl+Shift+A reaches it wherever the focus was when it arrived (permissionFocus.ui.mjs
  // tests when a request takes the focus), arrow keys move between the options, the click reaches the agent
  const dialog = chat.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 30_000 });
  t.expect(await dialog.getAttribute('role') === 'alertdialog' && Boolean(await dialog.getAttribute('aria-labelledby')), 'the dialog is an alertdialog with a label (announced to screen readers)');
  const options = dialog.locator('[data-testid="permission-option"]');
  t.expect(await options.count() === 5, 'one button per option, and the rule button (approvalRules.ui.mjs)');
  t.expect(JSON.stringify(await options.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))))
    === JSON.stringify(['allow_once', 'allow_always', 'reject_once', 'reject_always', 'rule']), 'the options are styled by kind');
  t.expect(await dialog.locator('[data-testid="permission-subject-text"][data-kind="path"]').textContent() === `${t.workspace}/src/hello.ts`, 'the dialog shows the path of the diff');
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+Shift+A' : 'Control+Shift+A');
  t.expect(await chat.locator('[data-testid="permission-option"]:focus').getAttribute('data-option-id') === 'allow-once', 'Ctrl+Shift+A moved the focus to the dialog\'s first option');
  await page.keyboard.press('ArrowRight');
  t.expect(await chat.locator('[data-testid="permission-option"]:focus').getAttribute('data-option-id') === 'allow-always', 'ArrowRight moves to the next option');
  await chat.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 5_000 });
  await t.screenshot('cards-permission');
  await dialog.locator('[data-option-id="allow-always"]').click();
  await chat.locator('[data-testid="agent-message"]', { hasText: '[permission] allow-always' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the agent received optionId "allow-always"');
  await chat.locator('[data-tool-call-id="tc-write"][data-status="completed"] [data-testid="permission-outcome"]').waitFor({ timeout: 10_000 });
  t.expect(true, 'the card shows the answer and the agent completed the call');
  await idle();

  // the terminal's output stays after release, coloured
  await chat.locator('[data-testid="terminal"] [data-testid="terminal-status"]', { hasText: 'exit code 0' }).waitFor({ timeout: 20_000 });
  t.expect((await terminal.locator('pre').textContent())?.includes('all 6 passed') && await terminal.locator('span.ansi-fg-yellow').count() === 1, 'the whole coloured output stays after the terminal was released');

  // every content type and the status icons
  const card = (/** @type {string} */ id) => chat.locator(`[data-tool-call-id="${id}"]`);
  t.expect((await card('tc-read').locator('[data-testid="tool-text"]').textContent())?.includes('Sample project'), 'text content');
  t.expect(await card('tc-read').locator('.codicon-eye').count() === 1 && await card('tc-run').locator('.codicon-terminal').count() >= 1, 'a codicon per kind');
  t.expect(await card('tc-read').locator('[data-testid="tool-status"] .codicon-check').count() === 1, 'completed shows ✓');
  t.expect(await card('tc-fetch').locator('[data-testid="tool-status"] .codicon-close').count() === 1, 'failed shows ✗');
  const raw = card('tc-read').locator('[data-testid="raw-input"]');
  t.expect(await raw.locator('[data-testid="raw-input-toggle"]').getAttribute('aria-expanded') === 'false' && !(await raw.locator('pre').isVisible()), 'the raw input starts collapsed');
  await raw.locator('[data-testid="raw-input-toggle"]').click();
  t.expect((await raw.locator('pre').textContent())?.includes('"limit": 20'), 'the raw input opens and shows the JSON');
  const diff = card('tc-edit').locator('[data-testid="diff"]');
  const added = diff.locator('tr.diff-line.added');
  t.expect(await added.count() === 1 && (await added.textContent())?.includes('export const sub'), 'the inline diff shows the added line');
  t.expect((await added.locator('.diff-ln.new').textContent()) === '2' && (await diff.locator('tr.diff-line.context .diff-ln.old').first().textContent()) === '1', 'with line numbers');
  t.expect(await card('tc-new').locator('.diff-badge', { hasText: 'new file' }).count() === 1 && await card('tc-new').locator('tr.diff-line.added').count() === 3, 'a new file is all added lines');
  await t.screenshot('cards-done');
  await expectGlyphs(t, chat);

  // Open Diff opens the diff editor beside the chat (the chat stays open)
  await diff.locator('[data-testid="open-diff"]').click();
  await page.locator('.tabs-container .tab', { hasText: "math.ts (agent's change)" }).first().waitFor({ timeout: 20_000 });
  await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="composer-input"]').isVisible(), 'Open Diff opened the diff editor beside the chat, which stays visible');

  // a location opens the file at its line
  // (30 s: the diff editor just opened a TypeScript file, and the language server's start can hold a loaded
  // 2-core machine for longer than the default 15 s)
  await chat.locator('[data-tool-call-id="tc-read"] [data-testid="location"]').click({ timeout: 30_000 });
  await page.locator('.tabs-container .tab', { hasText: 'README.md' }).first().waitFor({ timeout: 20_000 });
  t.expect(true, 'clicking a location opened README.md');

  // a stop reason notice, and keyboard access to the card buttons
  await sendPrompt(t, chat, 'stop now');
  await chat.locator('[data-testid="notice"][data-level="warning"]', { hasText: 'maximum number of tokens' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'max_tokens shows a warning notice');
  const openDiff = chat.locator('[data-tool-call-id="tc-new"] [data-testid="open-diff"]');
  await openDiff.focus();
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab', { hasText: "CHANGES.md (agent's new file)" }).first().waitFor({ timeout: 20_000 });
  t.expect(true, 'Open Diff works from the keyboard (Enter)');
}
