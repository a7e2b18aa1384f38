// @ts-check
// The scripted "composer" agent (test/fixtures/agents/scenarios/composer.json) as a `switchboard.agents`
// entry, shared by the composer*.ui.mjs modules (same settings: they share one server per version).
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';

/** User settings registering the scripted composer agent. */
export const composerSettings = {
  'switchboard.agents': [{
    id: 'scripted-composer',
    name: 'Scripted composer',
    command: process.execPath,
    args: [
      path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'),
      path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'composer.json'),
    ],
    env: { SCRIPTED_AGENT_DELAY_SCALE: '1' },
  }],
};

/**
 * New Session with the scripted composer agent; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function openComposerSession(t) {
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await t.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Scripted composer' }).first().waitFor({ timeout: 15_000 });
  await t.page.keyboard.type('Scripted composer');
  await t.page.keyboard.press('Enter');
  const chat = await t.webview({ timeoutMs: 30_000 });
  await chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await idle(chat);
  return chat;
}

/**
 * Waits until the session is idle.
 * @param {import('playwright-core').FrameLocator} chat
 */
export function idle(chat) {
  return chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
}

/**
 * The text of the last agent message.
 * @param {import('playwright-core').FrameLocator} chat
 */
export async function lastAgentText(chat) {
  const all = await chat.locator('[data-testid="agent-message"]').allTextContents();
  return all[all.length - 1] ?? '';
}
