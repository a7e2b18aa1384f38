// @ts-check
// A turn always ends (docs/errors-and-cancellation.md#a-turn-always-ends), against the scripted agent of
// test/fixtures/agents/scenarios/stubbornCancel.json, which ignores session/cancel: after Stop the chat is
// usable again within the grace period (3 s) + 1 s, the running tool call shows cancelled, a notice says the
// agent did not confirm; the agent's late text is not shown, and the next message is sent, not queued. A
// second Esc ends the wait at once. Screenshots: stubborn-cancel-*.png
import fs from 'node:fs';
import path from 'node:path';
import { idle, letAgentGoOn, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'stubborn-cancel';
export const sharedWindow = true;
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-stubborn', 'Scripted stubborn', 'stubbornCancel', '1')] };
export const timeout = 120_000;

/** The client's grace period after Stop (src/host/prompts/turnEnd.ts `cancelGraceMs`). */
const graceMs = 3000;

/**
 * Sends a prompt the agent will not stop, and waits until its tool call runs.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 */
async function startStubbornTurn(t, chat) {
  await sendPrompt(t, chat, 'stubborn');
  await chat.locator('[data-testid="session-status"][data-status="working"]').waitFor({ timeout: 10_000 });
  await chat.locator('[data-testid="tool-call"][data-status="in_progress"]').last().waitFor({ timeout: 10_000 });
  await chat.locator('[data-testid="agent-message"]', { hasText: 'nothing will stop me' }).last().waitFor({ timeout: 10_000 });
}

/**
 * Starts timing inside the chat's webview: when the next click on `stopSelector` (or keydown of Escape)
 * happens, and when the session status then becomes idle. Read it with {@link readTiming}.
 * @param {import('playwright-core').FrameLocator} chat
 */
function startTiming(chat) {
  return chat.locator('body').evaluate((body) => {
    /** @type {{ startAt?: number, idleAt?: number }} */
    const timing = {};
    Object.assign(window, { stubbornTiming: timing });
    const start = () => { timing.startAt ??= performance.now(); };
    body.ownerDocument.addEventListener('click', (e) => { if (e.target instanceof Element && e.target.closest('[data-testid="composer-stop"]')) start(); }, true);
    body.ownerDocument.addEventListener('keydown', (e) => { if (e.key === 'Escape') start(); }, true);
    const observer = new MutationObserver(() => {
      if (timing.startAt !== undefined && body.querySelector('[data-testid="session-status"][data-status="idle"]')) {
        timing.idleAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

/**
 * Milliseconds from the click (or Escape) to the idle status, measured in the webview.
 * @param {import('playwright-core').FrameLocator} chat
 */
async function readTiming(chat) {
  const timing = await chat.locator('body').evaluate(() => /** @type {{ startAt?: number, idleAt?: number }} */ (Reflect.get(window, 'stubbornTiming')));
  if (timing.startAt === undefined || timing.idleAt === undefined) throw new Error(`no timing: ${JSON.stringify(timing)}`);
  return Math.round(timing.idleAt - timing.startAt);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted stubborn');
  const input = chat.locator('[data-testid="composer-input"]');
  const send = chat.locator('[data-testid="composer-send"]');
  const status = chat.locator('[data-testid="session-status"]');

  // Stop, and the agent never confirms: the chat ends the turn itself after the grace period. The agent works
  // on until the test writes .stubborn-go, however slow the machine, so its late answer comes after the grace.
  await startStubbornTurn(t, chat);
  t.expect((await send.textContent())?.trim() === 'Queue', 'while the agent works, Send queues');
  await startTiming(chat);
  await chat.locator('[data-testid="composer-stop"]').click();
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: graceMs + 3000 });
  const waited = await readTiming(chat);
  t.log(`Stop → idle in the webview: ${waited} ms (grace ${graceMs} ms)`);
  t.expect(waited <= graceMs + 1000, `the chat is usable within the grace period + 1 s (${waited} ms)`);
  t.expect(waited >= graceMs - 500, `the client waited for the agent's answer first (${waited} ms)`);
  t.expect(await chat.locator('[data-testid="tool-call"]').first().getAttribute('data-status') === 'cancelled', 'the running tool call shows as cancelled');
  const notice = chat.locator('[data-testid="notice"]', { hasText: 'did not confirm the cancel within 3 s' });
  await notice.waitFor({ timeout: 5_000 });
  t.expect(await notice.isVisible(), 'a notice says the agent did not confirm the cancel');
  t.expect((await send.textContent())?.trim() === 'Send', 'Send is Send again');
  t.expect(await chat.locator('[data-testid="composer-stop"]').isHidden(), 'Stop is gone');
  await t.screenshot('stubborn-cancel-ended');

  // the agent's late text and its late "completed" for the tool call are not shown
  letAgentGoOn(t, '.stubborn-go');
  await page.waitForTimeout(2_000);
  const transcript = (await chat.locator('#transcript').textContent()) ?? '';
  t.expect(!transcript.includes('LATE TEXT OF THE ABANDONED TURN'), 'late text of the abandoned turn is not shown');
  t.expect(await chat.locator('[data-testid="tool-call"]').first().getAttribute('data-status') === 'cancelled', 'the tool call stays cancelled');
  t.expect(await status.getAttribute('data-status') === 'idle', 'the late answer changed nothing');

  // the next message is sent at once, not queued, and answered
  await sendPrompt(t, chat, 'hello again');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'You said: hello again' }).waitFor({ timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="queued-prompt"]').count() === 0, 'the message was sent, not queued');
  await idle(chat);

  // Esc, then Esc again: the turn ends at once
  fs.rmSync(path.join(t.workspace, '.stubborn-go'), { force: true });
  await startStubbornTurn(t, chat);
  await input.click();
  await startTiming(chat);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: graceMs + 3000 });
  const escWaited = await readTiming(chat);
  t.log(`Esc, Esc → idle in the webview: ${escWaited} ms`);
  t.expect(escWaited < graceMs - 1000, `a second Esc ends the turn at once, not after the grace period (${escWaited} ms)`);
  await chat.locator('[data-testid="notice"]', { hasText: 'without waiting for' }).waitFor({ timeout: 5_000 });
  t.expect(await chat.locator('[data-testid="tool-call"]').last().getAttribute('data-status') === 'cancelled', 'its tool call shows as cancelled');
  await t.screenshot('stubborn-cancel-esc');
}
