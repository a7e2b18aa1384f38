// @ts-check
// Following a streamed answer, end to end against the scripted "long answer" agent (scenario
// longAnswer.json: about 20 KB of Markdown in 300 chunks, in three parts, the next one once the test has
// scrolled up and once it has clicked Jump to latest): the chat stays at the bottom while the answer streams;
// a wheel scroll up stops the following and the view stays where the user put it while text goes on arriving
// below, and a Jump to latest button shows; the button goes back to the bottom and the view follows again,
// to the end of the answer.
// Screenshots: test-results/screenshots/<version>/scroll-follow-*.png
import { letAgentGoOn, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { frameOf } from './markdownAgents.mjs';

export const name = 'scrollFollow';
export const sharedWindow = true;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-long', 'Scripted long answer', 'longAnswer', '1')],
};
export const timeout = 120_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted long answer');
  const frame = await frameOf(chat);
  /** Where the transcript is: its scroll position and the distance of its view from the bottom. */
  const view = () => frame.evaluate(() => {
    const el = /** @type {HTMLElement} */ (document.getElementById('transcript'));
    return { top: el.scrollTop, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight, height: el.scrollHeight };
  });
  const working = () => chat.locator('[data-testid="session-status"]').getAttribute('data-status').then((s) => s === 'working');

  await sendPrompt(t, chat, 'write a long answer');
  const answer = chat.locator('[data-testid="agent-message"]').last();
  await answer.locator('h2', { hasText: 'Part 12' }).waitFor({ timeout: 30_000 });
  t.expect(await working(), 'the answer is still streaming');

  // following: sampled between frames while the answer grows
  /** @type {number[]} */
  const distances = [];
  let grew = false;
  for (let i = 0, h0 = (await view()).height; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 150));
    const v = await view();
    distances.push(Math.round(v.fromBottom));
    grew ||= v.height > h0;
  }
  t.expect(grew && distances.every((d) => d < 40), `the view follows the growing answer at the bottom (distances ${distances.join(', ')} px)`);

  // the user scrolls up with the wheel: the following stops, the view stays put as text arrives below
  const box = await chat.locator('#transcript').boundingBox();
  if (!box) throw new Error('the transcript has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  letAgentGoOn(t, '.scrolled-up');
  await new Promise((r) => setTimeout(r, 300));
  const up = await view();
  const heightBefore = up.height;
  await new Promise((r) => setTimeout(r, 800));
  let later = await view();
  for (const start = Date.now(); Date.now() - start < 10_000 && later.height <= heightBefore; await page.waitForTimeout(100)) later = await view();
  t.expect(await working(), 'still streaming after the scroll');
  t.expect(up.fromBottom > 100 && later.height > heightBefore, `scrolled up while the answer grows (${Math.round(up.fromBottom)} px from the bottom)`);
  t.expect(Math.abs(later.top - up.top) < 4 && later.fromBottom > up.fromBottom, `the view stays where the user put it (top ${Math.round(up.top)} -> ${Math.round(later.top)})`);
  await t.screenshot('scroll-follow-scrolled-up');

  // Jump to latest: back to the bottom, following again while the answer goes on, to its end
  const jump = chat.locator('[data-testid="jump-latest"]');
  t.expect(await jump.isVisible(), 'a Jump to latest button shows while the view does not follow');
  await jump.click();
  letAgentGoOn(t, '.jumped');
  // at the bottom, and still there once more of the answer arrived (however slowly the machine streams it)
  let back = await view();
  for (const start = Date.now(); Date.now() - start < 10_000 && !(back.fromBottom < 40 && back.height > later.height); await page.waitForTimeout(100)) back = await view();
  t.expect(back.fromBottom < 40 && back.height > later.height, `Jump to latest goes to the bottom and follows the growing answer again (${Math.round(back.fromBottom)} px from the bottom, ${Math.round(back.height - later.height)} px of new text)`);
  t.expect(!(await jump.isVisible()), 'the button is gone while the view follows');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await new Promise((r) => setTimeout(r, 300));
  const end = await view();
  t.expect((await answer.textContent())?.includes('The end of the long answer.'), 'the whole answer arrived');
  t.expect(end.fromBottom < 40, `the view followed to the end (${Math.round(end.fromBottom)} px from the bottom)`);
  await t.screenshot('scroll-follow-end');
}
