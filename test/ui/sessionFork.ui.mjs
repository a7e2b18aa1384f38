// @ts-check
// Fork Session from the chat header (session/fork, an agent that advertises it): the button forks the session
// into a new chat that shows the transcript so far under "Forked from …", is named "<title> (fork)", and answers
// a new prompt as its own session; the source chat is unchanged. The command palette forks the active chat too.
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { activeTab } from './organizeSteps.mjs';
import { inEachTheme } from './colorThemes.mjs';

export const name = 'sessionFork';
export const sharedWindow = true;
export const timeout = 180_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-organize', 'Scripted organize', 'organize')],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const source = await openSession(t, 'Scripted organize');
  await sendPrompt(t, source, 'Plan the release');
  // the agent's process (and its counters of sessions and answers) outlives the chats of a window shared with
  // other modules: the session's id is read, not assumed
  const planned = /Answer \d+ from (org-\d+) \(fast\): Plan the release/;
  const answer = source.locator('[data-testid="agent-message"]', { hasText: planned });
  await answer.waitFor({ timeout: 20_000 });
  const sourceId = planned.exec(await answer.innerText())?.[1];
  await idle(source);
  const fork = source.locator('[data-testid="fork-session"]');
  await fork.waitFor({ timeout: 10_000 });
  t.expect((await fork.getAttribute('title'))?.startsWith('Fork Session'), 'the header\'s Fork button has a tooltip');
  await t.screenshot('sessionFork-source');
  await fork.click();

  const forked = await t.webviewByTitle('Plan the release (fork) · Scripted organize', { timeoutMs: 30_000 });
  await forked.locator('[data-testid="fork-marker"]', { hasText: 'Forked from "Plan the release"' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the fork starts with a "Forked from" marker');
  await forked.locator('[data-testid="user-message"]', { hasText: 'Plan the release' }).waitFor({ timeout: 10_000 });
  await forked.locator('[data-testid="agent-message"]', { hasText: planned }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the fork shows the transcript so far');
  t.expect(await forked.locator('[data-testid="session-title"]').innerText() === 'Plan the release (fork)', 'its header says "(fork)"');
  await activeTab(t, 'Plan the release (fork)');
  await idle(forked);
  await sendPrompt(t, forked, 'Take two');
  const second = forked.locator('[data-testid="agent-message"]', { hasText: /Answer \d+ from org-\d+ \(fast\): Take two/ });
  await second.waitFor({ timeout: 20_000 });
  const forkId = /from (org-\d+)/.exec(await second.innerText())?.[1];
  t.expect(forkId !== undefined && forkId !== sourceId, `the fork answers a new prompt as its own session (${forkId} after ${sourceId})`);
  await idle(forked);
  // the header's Fork button and the marker in each theme
  await inEachTheme(t, (id) => t.screenshot(`sessionFork-fork-${id}`).then(() => undefined));

  // the source chat is unchanged
  await t.page.locator('.tabs-container .tab', { hasText: 'Plan the release · Scripted organize' }).first().click();
  const back = await t.webviewByTitle('Plan the release · Scripted organize', { timeoutMs: 30_000 });
  await back.locator('[data-testid="agent-message"]').first().waitFor({ timeout: 20_000 });
  t.expect(await back.locator('[data-testid="agent-message"]').count() === 1, 'the source still has its one answer');
  t.expect(await back.locator('[data-testid="fork-marker"]').count() === 0 && await back.locator('[data-testid="user-message"]', { hasText: 'Take two' }).count() === 0, 'and nothing of the fork');
  await t.screenshot('sessionFork-source-after');

  // the command palette forks the active chat
  await t.runCommand(t.commandTitle('switchboard.forkSession'));
  await t.webviewByTitle('Plan the release (fork) · Scripted organize', { timeoutMs: 30_000 });
  await t.page.locator('.tabs-container .tab', { hasText: 'Plan the release (fork)' }).nth(1).waitFor({ timeout: 30_000 });
  t.expect(true, 'ACP: Fork Session forks the active chat into a second fork');
}
