// @ts-check
// Plans by id and subagents (issue 15; client capabilities plan and subagents).
// Plans: each plan on its own line in the header, oldest first: steps updated by id, Markdown expanded by keyboard
// (sanitized, the agent's HTML as text), a file plan whose link opens the file; a removed plan and one of an unknown
// type are not shown.
// Subagents: a card at its place in the transcript with its title and description as plain text, its status, and
// its own output (a message from the parent, a thought, streamed text, a tool call) indented inside; finished cards
// are collapsed, expanded and collapsed by keyboard; a running one streams open and is cancelled from its card;
// a permission request inside a card is reached with the review key and answered.
// After a window reload (the session is resumed from the client's store) the plans and the cards are back.
// Screenshots: test-results/screenshots/<version>/plans-*.png, subagents-*.png
import { inEachTheme } from './colorThemes.mjs';
import { idle, openSession, reloadWindowAndReopen, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'plansSubagents';
export const sharedWindow = true;
export const timeout = 300_000;
export const files = { 'PLAN.md': '# The plan\n\n1. Read the code\n2. Write the fix\n' };
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-plans', 'Scripted plans', 'plansSubagents', '1')] };

/** @param {import('playwright-core').Locator} details */
function isOpen(details) {
  return details.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open);
}

/** @param {import('playwright-core').FrameLocator} chat */
function focusedTestId(chat) {
  return chat.locator('body').evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? 'none');
}

/**
 * The plans and the cards as they must be after the first two prompts (and after the reload).
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} when
 */
async function expectPlans(t, chat, when) {
  const ids = await chat.locator('#header [data-plan-id]').evaluateAll((ns) => ns.map((n) => `${n.getAttribute('data-plan-id')}:${n.getAttribute('data-plan-type')}`));
  t.expect(JSON.stringify(ids) === JSON.stringify(['p-steps:items', 'p-notes:markdown', 'p-file:file']), `${when}: the plans by id, oldest first, the removed and the unknown one absent: ${JSON.stringify(ids)}`);
  const steps = chat.locator('[data-plan-id="p-steps"]');
  t.expect((await steps.locator('[data-testid="plan-summary"]').innerText()).includes('1/3 done'), `${when}: the steps plan shows its second update`);
  t.expect(await steps.locator('[data-testid="plan-current"]').innerText() === 'Write the fix', `${when}: with the step in progress`);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted plans');

  // 1. plans by id
  await sendPrompt(t, chat, 'plans');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Plans ready.' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  await expectPlans(t, chat, 'live');
  const notes = chat.locator('[data-plan-id="p-notes"]');
  t.expect(!(await isOpen(notes)), 'the Markdown plan starts as one line');
  t.expect((await notes.locator('[data-testid="plan-summary"]').innerText()).includes('Release notes draft'), 'named by its first line');
  await notes.locator('[data-testid="plan-summary"]').focus();
  await page.keyboard.press('Enter');
  await notes.locator('[data-testid="plan-markdown"] strong', { hasText: 'Faster' }).waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(await isOpen(notes), 'Enter expands the Markdown plan, rendered');
  const markdown = notes.locator('[data-testid="plan-markdown"]');
  t.expect((await markdown.innerText()).includes('<b>not bold</b>') && await markdown.locator('b, a[href]').count() === 0, 'the agent\'s HTML is text, its link has no href');
  await t.screenshot('plans-header');
  await page.keyboard.press('Space');
  t.expect(!(await isOpen(notes)), 'Space collapses it');
  const link = chat.locator('[data-plan-id="p-file"] [data-testid="plan-file-link"]');
  t.expect(await link.innerText() === 'PLAN.md', 'the file plan links its file');
  await link.click();
  await page.locator('.tabs-container .tab', { hasText: 'PLAN.md' }).first().waitFor({ timeout: 20_000 });
  t.expect(true, 'the link opened the file in the editor');
  await page.locator('.tabs-container .tab', { hasText: 'Scripted plans' }).first().click();

  // 2. subagents: one done, one failed; finished cards are collapsed
  await sendPrompt(t, chat, 'subagents');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Both subagents reported back.' }).waitFor({ timeout: 30_000 });
  await idle(chat);
  const cards = chat.locator('#transcript > [data-testid="subagent"]');
  t.expect(await cards.count() === 2, 'two subagent cards');
  const explore = cards.nth(0);
  const tests = cards.nth(1);
  t.expect(await explore.locator('[data-testid="subagent-title"]').innerText() === 'Explore <b>the</b> code', 'the title is plain text');
  t.expect((await explore.locator('[data-testid="subagent-description"]').innerText()).includes('[not a link](command:workbench.action.reloadWindow)'), 'the description is plain text');
  t.expect(await explore.locator('[data-testid="subagent-toggle"] b, [data-testid="subagent-toggle"] a').count() === 0, 'no markup from the agent in the line');
  t.expect(await explore.getAttribute('data-status') === 'done' && (await explore.locator('[data-testid="subagent-status"]').innerText()).includes('Done'), 'done');
  t.expect(await tests.getAttribute('data-status') === 'failed', 'the second one failed');
  t.expect(!(await isOpen(explore.locator('details').first())) && !(await isOpen(tests.locator('details').first())), 'finished cards are collapsed');
  const order = await chat.locator('#transcript').evaluate((root) => Array.from(root.children).map((n) => n.getAttribute('data-testid')));
  t.expect(JSON.stringify(order.slice(-4)) === JSON.stringify(['agent-message', 'subagent', 'subagent', 'agent-message']), `the cards at their place: ${JSON.stringify(order)}`);

  // 3. expand and collapse by keyboard: the subagent's own output, indented inside
  await explore.locator('[data-testid="subagent-toggle"]').focus();
  await page.keyboard.press('Enter');
  const inside = explore.locator('[data-testid="subagent-entries"]');
  await inside.locator('[data-testid="agent-message"]', { hasText: 'Found 3 call sites.' }).waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(await isOpen(explore.locator('details').first()), 'Enter expands the card');
  t.expect(await inside.locator('[data-testid="session-message"]', { hasText: 'Find every call of' }).count() === 1, 'the parent\'s message to it');
  t.expect(await inside.locator('[data-testid="thought"]').count() === 1, 'its thought');
  t.expect(await inside.locator('[data-testid="agent-message"] strong', { hasText: 'src/net' }).count() === 1, 'its streamed text, as Markdown');
  t.expect(await inside.locator('[data-testid="tool-call"][data-status="completed"]', { hasText: 'Search for retry(' }).count() === 1, 'its tool call, with the card of the transcript');
  t.expect(await inside.locator('.msg-actions').count() === 0, 'no message toolbar inside a card');
  const indent = await inside.evaluate((n) => n.getBoundingClientRect().left - (n.closest('#transcript')?.getBoundingClientRect().left ?? 0));
  t.expect(indent >= 16, `indented (${indent} px)`);
  t.expect(await focusedTestId(chat) === 'subagent-toggle', 'the line kept the focus');
  await tests.locator('[data-testid="subagent-toggle"]').click();
  await tests.locator('[data-testid="subagent-detail"]', { hasText: 'The test runner crashed.' }).waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(true, 'the failed one says why');
  await inEachTheme(t, async (id) => { await t.screenshot(`subagents-${id}`); });
  await explore.locator('[data-testid="subagent-toggle"]').focus();
  await page.keyboard.press('Space');
  await inside.waitFor({ state: 'hidden', timeout: 5_000 });
  t.expect(!(await isOpen(explore.locator('details').first())), 'Space collapses it');

  // 4. a subagent at work: open, streaming, with a spinner and Cancel; cancelled from its card
  await sendPrompt(t, chat, 'slow');
  const slow = chat.locator('#transcript > [data-testid="subagent"]').nth(2);
  await slow.locator('[data-testid="agent-message"]', { hasText: 'Working slowly.' }).waitFor({ state: 'visible', timeout: 20_000 });
  t.expect(await slow.getAttribute('data-status') === 'running', 'running');
  t.expect(await slow.locator('[data-testid="spinner"][role="progressbar"]').count() === 1, 'with a spinner');
  t.expect(await isOpen(slow.locator('details').first()), 'open while it works');
  const cancel = slow.locator('[data-testid="subagent-cancel"]');
  t.expect(await cancel.isVisible() && await cancel.getAttribute('title') !== null, 'a Cancel button with a tooltip');
  await t.screenshot('subagent-running');
  await cancel.click();
  await chat.locator('#transcript > [data-testid="subagent"][data-status="cancelled"]').waitFor({ timeout: 20_000 });
  t.expect(!(await cancel.isVisible()), 'no Cancel once it stopped');
  t.expect(!(await isOpen(slow.locator('details').first())), 'collapsed once it stopped');
  await chat.locator('[data-testid="live-region"] p', { hasText: 'Subagent Slow worker: Cancelled' }).waitFor({ state: 'attached', timeout: 10_000 });
  t.expect(true, 'its end is announced in the polite live region');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'The slow worker stopped.' }).waitFor({ timeout: 20_000 });
  await idle(chat);

  // 5. a subagent's permission request: in its card, reached and answered from the keyboard like any other
  await sendPrompt(t, chat, 'permission');
  const writer = chat.locator('#transcript > [data-testid="subagent"]').nth(3);
  const dialog = writer.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 20_000 });
  t.expect(await isOpen(writer.locator('details').first()), 'the card is open on its request');
  await page.waitForTimeout(700); // the buttons act once the request was on screen for a moment (permissionGuard.ts)
  await page.keyboard.press(`${process.platform === 'darwin' ? 'Meta' : 'Control'}+Shift+A`);
  t.expect(await focusedTestId(chat) === 'permission-option', 'the review key reaches the request in the card');
  await t.screenshot('subagent-permission');
  await page.keyboard.press('Enter');
  await writer.locator('[data-testid="agent-message"]', { hasText: '[permission] allow' }).waitFor({ state: 'attached', timeout: 20_000 });
  t.expect(true, 'the answer reached the subagent');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'The writer is done.' }).waitFor({ timeout: 20_000 });
  await idle(chat);

  // 6. a window reload: the session is resumed; plans and cards come back from the client's store
  const back = await reloadWindowAndReopen(t, 'Scripted plans', 'plans · Scripted plans');
  await back.locator('[data-testid="agent-message"]', { hasText: 'The writer is done.' }).waitFor({ timeout: 60_000 });
  await expectPlans(t, back, 'after the reload');
  const again = back.locator('#transcript > [data-testid="subagent"]');
  const statuses = await again.evaluateAll((ns) => ns.map((n) => n.getAttribute('data-status')));
  t.expect(JSON.stringify(statuses) === JSON.stringify(['done', 'failed', 'cancelled', 'done']), `the cards are back with their status: ${JSON.stringify(statuses)}`);
  await again.nth(0).locator('[data-testid="subagent-toggle"]').focus();
  await page.keyboard.press('Enter');
  await again.nth(0).locator('[data-testid="agent-message"]', { hasText: 'Found 3 call sites.' }).waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(await again.nth(0).locator('[data-testid="tool-call"]').count() === 1, 'with their output');
  await t.screenshot('subagents-after-reload');
}
