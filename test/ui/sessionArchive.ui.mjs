// @ts-check
// Archive and Unarchive Session from the Sessions view, with an agent that advertises session/archive: archiving
// an open session closes its chat and hides it; the Archived filter in the view's title bar shows archived
// sessions (this one and one the agent had archived already), marked; Unarchive brings it back.
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { contextMenu, row, sessionsView, titleAction } from './organizeSteps.mjs';

export const name = 'sessionArchive';
export const sharedWindow = true;
export const timeout = 180_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-organize', 'Scripted organize', 'organize')],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted organize');
  await sendPrompt(t, chat, 'Archive this one');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Answer 1' }).waitFor({ timeout: 20_000 });
  await idle(chat);

  const view = await sessionsView(t);
  await row(view, 'Archive this one').waitFor({ timeout: 15_000 });
  await row(view, 'Review the release plan').waitFor({ timeout: 15_000 });
  t.expect(await row(view, 'Old spike on caching').count() === 0, 'a session the agent archived is hidden');
  await t.screenshot('sessionArchive-before');

  await contextMenu(t, row(view, 'Archive this one'), 'Archive Session');
  await row(view, 'Archive this one').waitFor({ state: 'detached', timeout: 15_000 });
  await page.locator('.tabs-container .tab', { hasText: 'Archive this one' }).waitFor({ state: 'detached', timeout: 15_000 });
  t.expect(true, 'archiving closed the chat and hid the session');

  await titleAction(t, 'Show Archived Sessions');
  await row(view, 'Archive this one').waitFor({ timeout: 15_000 });
  await row(view, 'Old spike on caching').waitFor({ timeout: 15_000 });
  t.expect((await row(view, 'Archive this one').innerText()).includes('archived'), 'the filter shows it, marked archived');
  t.expect((await row(view, 'Old spike on caching').innerText()).includes('archived'), 'with the one the agent archived');
  t.expect(!(await row(view, 'Review the release plan').innerText()).includes('archived'), 'the others are not marked');
  await t.screenshot('sessionArchive-filter');

  await contextMenu(t, row(view, 'Archive this one'), 'Unarchive Session');
  await page.waitForFunction(() => true);
  await row(view, /Archive this one/).filter({ hasNotText: 'archived' }).waitFor({ timeout: 15_000 });
  t.expect(true, 'Unarchive takes the mark away');
  await titleAction(t, 'Hide Archived Sessions');
  await row(view, 'Old spike on caching').waitFor({ state: 'detached', timeout: 15_000 });
  await row(view, 'Archive this one').waitFor({ timeout: 15_000 });
  t.expect(true, 'without the filter the unarchived session stays, the archived one goes');
  await t.screenshot('sessionArchive-after');

  // it opens again, and answers
  await row(view, 'Archive this one').click();
  const again = await t.webviewByTitle('Archive this one · Scripted organize', { timeoutMs: 30_000 });
  await idle(again);
  await sendPrompt(t, again, 'Back again');
  await again.locator('[data-testid="agent-message"]', { hasText: 'Back again' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the unarchived session reopens and answers');
}
