// @ts-check
// The plan is compact: one line with its progress and the step in progress, expandable to the list. It
// collapses when the plan is done, and after Stop its unfinished steps show as cancelled (they stayed
// "in progress" before).
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'planCompact';
export const sharedWindow = true;
export const timeout = 150_000;
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-plan', 'Scripted plan', 'planCompact', '1')] };

/** @param {import('playwright-core').Locator} plan */
async function height(plan) {
  return (await plan.boundingBox())?.height ?? Infinity;
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const chat = await openSession(t, 'Scripted plan');
  const plan = chat.locator('[data-testid="plan"]');

  // a plan that runs to its end: one line, "3/3 done", collapsed
  await sendPrompt(t, chat, 'finish the small plan');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'All three steps are done.' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  await chat.locator('[data-testid="plan"][data-finished="true"]').waitFor({ timeout: 10_000 });
  t.expect((await plan.locator('[data-testid="plan-summary"]').innerText()).includes('3/3 done'), 'the line says 3/3 done');
  t.expect(!(await plan.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open)), 'a finished plan is collapsed');
  const doneHeight = await height(plan);
  t.expect(doneHeight <= 32, `a finished plan takes one line (${doneHeight} px)`);

  // a plan cancelled half-way: the line names the step in progress; Stop marks unfinished steps cancelled
  await sendPrompt(t, chat, 'migrate the payment service');
  await chat.locator('[data-testid="plan-current"]', { hasText: 'Migrate the retry logic' }).waitFor({ timeout: 20_000 });
  const runningHeight = await height(plan);
  t.expect(runningHeight <= 32, `a running plan takes one line (${runningHeight} px)`);
  await plan.locator('[data-testid="plan-summary"]').click();
  await plan.locator('[data-testid="plan-entry"]').nth(2).waitFor({ state: 'visible', timeout: 5000 });
  t.expect(true, 'the line expands to the list');
  await t.screenshot('plan-compact-expanded');
  await chat.locator('[data-testid="composer-input"]').click();
  await t.page.keyboard.press('Escape');
  await idle(chat);
  await chat.locator('[data-testid="plan-entry"][data-status="cancelled"]').first().waitFor({ state: 'attached', timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="plan-entry"][data-status="cancelled"]').count() === 2, 'the step in progress and the pending one show as cancelled');
  t.expect(await chat.locator('[data-testid="plan-entry"][data-status="in_progress"]').count() === 0, 'no step stays "in progress"');
  t.expect((await plan.locator('[data-testid="plan-summary"]').innerText()).includes('cancelled'), 'the line says the plan was cancelled');
  t.expect(!(await plan.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open)), 'and it collapsed again');
  await t.screenshot('plan-compact-cancelled');
}
