// @ts-check
// New Session opens the chat at once, while the agent starts (src/chatHost/startingChat.ts): with an agent that
// starts only when the test lets it (a file in its folder), the tab and its page are there after the pick, say
// "Starting the agent…", and the composer has the keyboard; a prompt typed and sent then reaches the session
// once it exists, and is answered.
// Screenshot: startingChat-starting.png
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';
import { idle, letAgentGoOn, pickAgent } from './scriptedSession.mjs';

export const name = 'startingChat';
export const sharedWindow = true;
export const timeout = 120_000;

const script = path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js');
const scenario = path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'historyPaging.json');
export const settings = {
  'switchboard.agents': [{
    id: 'slow-start', name: 'Slow starter', command: '/bin/sh',
    // it waits (60 s at most) for the test to write .starting-go into its folder
    args: ['-c', 'i=0; while [ ! -e .starting-go ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; exec "$0" "$@"', process.execPath, script, scenario],
    env: { SCRIPTED_AGENT_DELAY_SCALE: '0' },
  }],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await pickAgent(t, 'Slow starter', 'Slow starter');
  const pickedAt = Date.now();
  const tab = page.locator('.tabs-container .tab', { hasText: 'Slow starter · starting…' }).first();
  await tab.waitFor({ timeout: 10_000 });
  const chat = await t.webviewByTitle('Slow starter · starting…', { timeoutMs: 30_000 });
  await chat.locator('[data-testid="chat-starting"]', { hasText: 'Starting the agent…' }).waitFor({ timeout: 30_000 });
  t.expect(true, `the chat's tab and page are there ${Date.now() - pickedAt} ms after the pick, saying the agent is starting`);
  const input = chat.locator('[data-testid="composer-input"]');
  for (const start = Date.now(); Date.now() - start < 2000; await page.waitForTimeout(50)) {
    if (await input.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus()).catch(() => false)) break;
  }
  await page.keyboard.type('written while it starts');
  t.expect(await input.inputValue() === 'written while it starts', 'the composer has the keyboard while the agent starts');
  await t.screenshot('startingChat-starting');
  await page.keyboard.press('Enter');
  t.expect(await chat.locator('[data-testid="chat-starting"]').count() === 1, 'sent before the agent was up (it still says so)');
  letAgentGoOn(t, '.starting-go');

  await chat.locator('[data-testid="user-message"]', { hasText: 'written while it starts' }).waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="agent-message"]', { hasText: /end-of-/ }).first().waitFor({ timeout: 30_000 });
  await idle(chat);
  t.expect(await chat.locator('[data-testid="chat-starting"]').count() === 0, 'once started, the chat no longer says it is starting');
  t.expect(await page.locator('.tabs-container .tab', { hasText: 'Slow starter' }).count() === 1, 'one tab: the one opened at the pick became the session\'s chat');
  t.expect(true, 'the prompt sent while the agent started was answered');
}
