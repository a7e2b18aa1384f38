// @ts-check
// An agent that can neither resume nor load crashes mid-turn (exit code 1, two stderr lines): the failure
// stays in front. 1 s and 10 s after the exit notice appears, the same chat is the active tab, no other
// chat opened, the exit notice (code and stderr) is still at the end of the transcript, the banner offers
// Continue in New Session, and the status bar says "crashed". Clicking the button is the user's decision:
// only then does a new chat open, with the interrupted prompt offered for Resend.
import { openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'crashInFront';
export const sharedWindow = true;
export const timeout = 150_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-crash', 'Scripted crash', 'crashNoResume')],
};

/**
 * What must hold while the user has not acted: the failed chat is in front, with the failure in place.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} when
 */
async function failureInFront(t, chat, when) {
  const { page } = t;
  const active = page.locator('.tabs-container .tab.active');
  t.expect((await active.count()) === 1 && /New session|Scripted crash/.test(await active.first().innerText()), `${when}: the failed chat is still the active tab`);
  t.expect(await page.locator('.tabs-container .tab').count() === 1, `${when}: no other tab opened in front of it`);
  const exit = chat.locator('[data-testid="notice"][data-level="error"]', { hasText: 'Agent exited (code 1)' });
  t.expect(await exit.isVisible(), `${when}: the exit notice is visible`);
  t.expect((await exit.innerText()).includes('panic: something went terribly wrong'), `${when}: it shows the last stderr lines`);
  t.expect(await page.locator('.statusbar-item', { hasText: 'Scripted crash: crashed' }).count() >= 1, `${when}: the status bar shows the crash`);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted crash');
  await sendPrompt(t, chat, 'do something risky');
  await chat.locator('[data-testid="notice"][data-level="error"]', { hasText: 'Agent exited (code 1)' }).waitFor({ timeout: 20_000 });
  const seenAt = Date.now();

  // the automatic restart runs; the agent cannot resume or load, so the chat offers to continue
  const banner = chat.locator('[data-testid="session-error"]');
  await banner.locator('[data-testid="notice-continue"]').waitFor({ timeout: 15_000 });
  await page.waitForTimeout(Math.max(0, seenAt + 1000 - Date.now()));
  await failureInFront(t, chat, '1 s later');
  await t.screenshot('crash-in-front-1s');
  await page.waitForTimeout(Math.max(0, seenAt + 10_000 - Date.now()));
  await failureInFront(t, chat, '10 s later');
  t.expect((await banner.innerText()).includes('cannot reopen this session'), 'the banner says why the conversation cannot go on');

  // the user decides: Continue in New Session opens the continuation, which offers the interrupted prompt
  await banner.locator('[data-testid="notice-continue"]').click();
  await page.waitForFunction(() => document.querySelectorAll('.tabs-container .tab').length === 2, undefined, { timeout: 30_000 });
  const next = await t.webview({ timeoutMs: 30_000 });
  await next.locator('[data-testid="notice-resend"]').waitFor({ timeout: 30_000 });
  t.expect(true, 'the continuation offers to resend the interrupted prompt');
  await page.locator('.statusbar-item', { hasText: 'Scripted crash' }).first().waitFor({ timeout: 10_000 });
  t.expect(await page.locator('.statusbar-item', { hasText: 'crashed' }).count() === 0, 'the status bar no longer shows the crash once the user acted');
  await t.screenshot('crash-in-front-continued');
}
