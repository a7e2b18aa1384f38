// @ts-check
// Send Now (docs/chat.md, "Send now"), by keyboard, against the scripted agent of
// test/fixtures/agents/scenarios/steering.json, which advertises steering (`_meta.steering.supported`) as
// claude-agent-acp and codex-acp do:
// - idle, the composer has Send only; while the agent works, Send Now shows beside Queue;
// - Alt+Enter sends the message into the running turn (`_session/steering`, answered `injected`): it shows where
//   the agent took it, marked "Sent while the agent worked", before the agent's answer to it, and nothing is queued;
// - a steer the agent answers `failed` leaves a notice that says why, with Queue It (Ctrl+Up, Enter, Enter), which queues it;
// - a steer answered `promptRequired` (the turn ended first) goes to the front of the queue; when the turn ends
//   both are sent as prompts, in that order;
// - after Reload Window the steered message keeps its mark.
// Screenshots: test-results/screenshots/<version>/steering-injected.png, steering-not-taken.png.
import { idle, letAgentGoOn, openSession, reloadWindowAndReopen, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'steering';
export const sharedWindow = true;
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-steering', 'Scripted steering', 'steering')] };
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  let chat = await openSession(t, 'Scripted steering');
  const sendNow = () => chat.locator('[data-testid="composer-send-now"]');
  const agentSays = (/** @type {string} */ text) => chat.locator('[data-testid="agent-message"]', { hasText: text });
  const steerKey = 'Alt+Enter'; // Option+Enter on a Mac

  // 1. Send Now only while the agent works; Alt+Enter steers
  t.expect(await sendNow().isHidden(), 'idle: the composer offers Send, not Send Now');
  await sendPrompt(t, chat, 'Plan the release');
  await agentSays('Drafting the release plan').waitFor({ timeout: 20_000 });
  await sendNow().waitFor({ state: 'visible', timeout: 5_000 });
  t.expect((await chat.locator('[data-testid="composer-send"]').textContent())?.trim() === 'Queue', 'while the agent works: Send Now beside Queue');
  t.expect(await chat.locator('[data-testid="composer-input"]:focus').count() === 1, 'the composer keeps the keyboard');
  await page.keyboard.type('bump the changelog');
  await page.keyboard.press(steerKey);
  const steered = chat.locator('[data-testid="user-message"][data-steered="injected"]', { hasText: 'bump the changelog' });
  await steered.waitFor({ timeout: 10_000 });
  await agentSays('Added to the plan: bump the changelog').waitFor({ timeout: 20_000 });
  const order = await chat.locator('#transcript [data-testid="user-message"], #transcript [data-testid="agent-message"]').allInnerTexts();
  const at = (/** @type {string} */ s) => order.findIndex((o) => o.includes(s));
  t.expect(at('Drafting the release plan') < at('bump the changelog') && at('bump the changelog') < at('Added to the plan'), `the steered message shows where the agent took it: ${JSON.stringify(order.map((o) => o.slice(0, 30)))}`);
  t.expect((await steered.locator('[data-testid="steered"]').textContent())?.trim() === 'Sent while the agent worked', 'it is marked "Sent while the agent worked"');
  t.expect(await chat.locator('[data-testid="queued-prompt"]').count() === 0, 'nothing was queued');
  await idle(chat);
  t.expect(await sendNow().isHidden(), 'idle again: no Send Now');
  await steered.scrollIntoViewIfNeeded();
  await t.screenshot('steering-injected');

  // 2. a steer the agent does not take: the notice says why and offers Queue It
  await sendPrompt(t, chat, 'Wait for the go-ahead');
  await agentSays('Waiting for the go-ahead').waitFor({ timeout: 20_000 });
  await sendNow().waitFor({ state: 'visible', timeout: 5_000 });
  await page.keyboard.type('fail this one');
  await page.keyboard.press(steerKey);
  const notice = chat.locator('[data-testid="notice"]', { hasText: '"fail this one" was not sent into the running turn (the model is busy)' });
  await notice.waitFor({ timeout: 10_000 });
  const queueIt = notice.locator('[data-testid="notice-queue"]');
  t.expect(await queueIt.isVisible(), 'the notice offers Queue It');
  t.expect(await chat.locator('[data-testid="composer-input"]:focus').count() === 1, 'the notice does not take the keyboard');
  await t.screenshot('steering-not-taken');
  // by keyboard: Ctrl+Up to the newest entry (the notice), Enter into its controls, Enter on Queue It
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+ArrowUp' : 'Control+ArrowUp');
  await page.keyboard.press('Enter');
  t.expect(await chat.locator('[data-testid="notice-queue"]:focus').count() === 1, 'Ctrl+Up, Enter: Queue It has the keyboard');
  await page.keyboard.press('Enter');
  const queued = chat.locator('[data-testid="queued-prompt"]');
  await queued.filter({ hasText: 'fail this one' }).waitFor({ timeout: 5_000 });
  await queueIt.waitFor({ state: 'detached', timeout: 5_000 });
  t.expect(true, 'Queue It queued it, and the notice no longer offers it');

  // 3. the turn ended before the message could join it (promptRequired): it goes first in the queue
  await chat.locator('[data-testid="composer-input"]').click();
  await page.keyboard.type('late addition');
  await page.keyboard.press(steerKey);
  await queued.filter({ hasText: 'late addition' }).waitFor({ timeout: 10_000 });
  const queue = (await queued.allInnerTexts()).map((q) => q.split('\n')[0]);
  t.expect(queue.length === 2 && queue[0].includes('late addition') && queue[1].includes('fail this one'), `a message the agent could not take goes first: ${JSON.stringify(queue)}`);
  letAgentGoOn(t, '.steer-go');
  await agentSays('You said: fail this one').waitFor({ timeout: 30_000 });
  const said = await chat.locator('#transcript [data-testid="agent-message"]').allInnerTexts();
  const late = said.findIndex((s) => s.includes('You said: late addition'));
  t.expect(late !== -1 && late < said.findIndex((s) => s.includes('You said: fail this one')), 'when the turn ended both were sent, in the queue\'s order');
  t.expect(await chat.locator('[data-testid="user-message"][data-steered]').count() === 1, 'only the message the agent took is marked');
  await idle(chat);

  // 4. Reload Window: the mark stays
  chat = await reloadWindowAndReopen(t, 'Scripted steering', /Plan the release/);
  await chat.locator('[data-testid="user-message"][data-steered="injected"]', { hasText: 'bump the changelog' }).waitFor({ timeout: 60_000 });
  t.expect(true, 'after Reload Window the steered message keeps its mark');
}
