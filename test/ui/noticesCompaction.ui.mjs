// @ts-check
// The agent's live notices and context compactions (issue 15; session.notices and session.compaction).
// Notices: shown above the composer, newest on top, at most three (the oldest expired), styled by severity
// (an extension severity as info), plain text, announced politely, never taking the focus; closed from the
// keyboard (the focus goes to the next one's close button); gone after a window reload.
// Compaction: an entry at its place in the timeline, in progress with a spinner and its summary streaming
// (open), completed and collapsed, expanded and collapsed again by keyboard; a failed one shows its error;
// both are back after a window reload (the session is resumed, the transcript comes from the client's store).
// Screenshots: test-results/screenshots/<version>/notices-*.png, compaction-*.png
import { idle, openSession, reloadWindowAndReopen, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'noticesCompaction';
export const sharedWindow = true;
export const timeout = 240_000;
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-notices', 'Scripted notices', 'noticesCompaction')] };

/** @param {import('playwright-core').FrameLocator} chat */
function focusedTestId(chat) {
  return chat.locator('body').evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? 'none');
}

/** @param {import('playwright-core').Locator} compaction */
function isOpen(compaction) {
  return compaction.locator('details').evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted notices');
  const notices = chat.locator('[data-testid="agent-notice"]');

  // 1. four notices: three shown, newest on top, by severity
  await sendPrompt(t, chat, 'notices');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Notices sent.' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  await notices.nth(2).waitFor({ timeout: 10_000 });
  const titles = await notices.locator('[data-testid="agent-notice-title"]').allInnerTexts();
  t.expect(JSON.stringify(titles) === JSON.stringify(['Custom severity', 'Tool server unreachable', 'Rate limited']), `newest on top, the oldest expired: ${JSON.stringify(titles)}`);
  const severities = await notices.evaluateAll((ns) => ns.map((n) => n.getAttribute('data-severity')));
  t.expect(JSON.stringify(severities) === JSON.stringify(['info', 'error', 'warning']), `styled by severity, an extension one as info: ${JSON.stringify(severities)}`);
  const errorNotice = notices.filter({ hasText: 'Tool server unreachable' });
  t.expect(await errorNotice.locator('[data-testid="agent-notice-description"]').innerText() === '<b>not bold</b> [not a link](command:workbench.action.reloadWindow)', 'the description is plain text');
  t.expect(await errorNotice.locator('b, a').count() === 0, 'no markup from the agent');
  const colors = await notices.evaluateAll((ns) => ns.map((n) => getComputedStyle(n).borderLeftColor));
  t.expect(new Set(colors).size === 3, `each severity has its own accent: ${JSON.stringify(colors)}`);
  t.expect(await focusedTestId(chat) === 'composer-input', 'the notices did not take the focus from the composer');
  await chat.locator('[data-testid="live-region"] p', { hasText: 'Warning from the agent: Rate limited' }).waitFor({ state: 'attached', timeout: 10_000 });
  t.expect(true, 'a notice is announced in the polite live region');
  t.expect(await chat.locator('#transcript [data-testid="agent-notice"]').count() === 0, 'notices are not transcript entries');
  await t.screenshot('notices-shown');

  // 2. closed from the keyboard: the close button has a tooltip; the focus goes to the next notice
  const close = notices.filter({ hasText: 'Tool server unreachable' }).locator('[data-testid="agent-notice-close"]');
  t.expect(await close.getAttribute('title') === 'Close notice', 'the close button has a tooltip');
  await close.focus();
  await page.keyboard.press('Enter');
  await notices.filter({ hasText: 'Tool server unreachable' }).waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(await notices.count() === 2, 'Enter on the close button closed that notice');
  t.expect(await focusedTestId(chat) === 'agent-notice-close', 'the focus moved to the next close button');
  await page.keyboard.press('Space');
  await notices.nth(1).waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(await notices.count() === 1, 'Space closes the next one');

  // 3. a compaction in progress: its place in the timeline, a spinner, the summary streaming (open)
  await sendPrompt(t, chat, 'compact');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Still compacting.' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  const c1 = chat.locator('[data-testid="compaction"]').first();
  await c1.waitFor({ timeout: 10_000 });
  t.expect(await c1.getAttribute('data-status') === 'in_progress', 'the compaction is in progress');
  t.expect(await c1.locator('[data-testid="spinner"][role="progressbar"]').count() === 1, 'with a spinner');
  t.expect(await c1.locator('[data-testid="compaction-title"]').innerText() === 'Compacting context…', 'titled "Compacting context…"');
  t.expect(await isOpen(c1), 'its summary is open while it streams');
  await c1.locator('[data-testid="compaction-summary"] strong', { hasText: 'tests' }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the summary is rendered as Markdown');
  const order = await chat.locator('#transcript').evaluate((root) => Array.from(root.querySelectorAll('[data-testid="user-message"], [data-testid="agent-message"], [data-testid="compaction"]'))
    .map((n) => (n.getAttribute('data-testid') === 'compaction' ? 'compaction' : (n.textContent ?? '').trim())));
  const at = order.indexOf('compaction');
  t.expect(at > 0 && order[at - 1] === 'Compacting the context.' && order[at + 1] === 'Still compacting.', `in the timeline where it started: ${JSON.stringify(order)}`);
  await t.screenshot('compaction-in-progress');

  // 4. completed: collapsed; a failed one shows its error
  await sendPrompt(t, chat, 'finish');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Compaction finished.' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  await chat.locator('[data-testid="compaction"][data-status="completed"]').waitFor({ timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="compaction"]').count() === 2, 'two compactions: the completed one was upserted, not repeated');
  t.expect(await c1.locator('[data-testid="compaction-title"]').innerText() === 'Context compacted', 'titled "Context compacted"');
  t.expect(await c1.locator('[data-testid="spinner"]').count() === 0, 'no spinner once completed');
  t.expect(!(await isOpen(c1)), 'collapsed once completed');
  const c2 = chat.locator('[data-testid="compaction"][data-status="failed"]');
  t.expect(await c2.locator('[data-testid="compaction-error"]').innerText() === 'The summary model timed out.', 'the failed one shows its error');

  // 5. expand and collapse by keyboard
  await c1.locator('[data-testid="compaction-toggle"]').focus();
  await page.keyboard.press('Enter');
  await c1.locator('[data-testid="compaction-summary"]', { hasText: 'Notices are live only' }).waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(await isOpen(c1), 'Enter expands it, with the whole streamed summary');
  await t.screenshot('compaction-expanded');
  await page.keyboard.press('Space');
  await c1.locator('[data-testid="compaction-summary"]').waitFor({ state: 'hidden', timeout: 5_000 });
  t.expect(!(await isOpen(c1)), 'Space collapses it');

  // 6. a window reload: the compactions are back, the notices are not
  const back = await reloadWindowAndReopen(t, 'Scripted notices', 'notices · Scripted notices');
  await back.locator('[data-testid="agent-message"]', { hasText: 'Compaction finished.' }).waitFor({ timeout: 60_000 });
  const b1 = back.locator('[data-testid="compaction"][data-status="completed"]');
  await b1.waitFor({ timeout: 10_000 });
  t.expect(!(await isOpen(b1)), 'the completed compaction is back, collapsed');
  await b1.locator('[data-testid="compaction-toggle"]').focus();
  await page.keyboard.press('Enter');
  await b1.locator('[data-testid="compaction-summary"] strong', { hasText: 'tests' }).waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(true, 'with its summary');
  t.expect(await back.locator('[data-testid="compaction"][data-status="failed"] [data-testid="compaction-error"]').innerText() === 'The summary model timed out.', 'the failed one is back with its error');
  t.expect(await back.locator('[data-testid="agent-notice"]').count() === 0, 'the notice is gone after the reload');
  await t.screenshot('compaction-after-reload');
}
