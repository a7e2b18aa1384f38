// @ts-check
// The scripted "cards" agent (test/fixtures/agents/scenarios/cards.json) as a `switchboard.agents` entry,
// shared by cards.ui.mjs and themes.ui.mjs (same settings: they share one server per version).
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';

/** User settings registering the scripted cards agent. */
export const cardsSettings = {
  'switchboard.agents': [{
    id: 'scripted-cards',
    name: 'Scripted cards',
    command: process.execPath,
    args: [
      path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'),
      path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'cards.json'),
    ],
    env: { SCRIPTED_AGENT_DELAY_SCALE: '0' },
  }],
};

/**
 * New Session with the scripted cards agent; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function openCardsSession(t) {
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await t.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Scripted cards' }).first().waitFor({ timeout: 15_000 });
  await t.page.keyboard.type('Scripted cards');
  await t.page.keyboard.press('Enter');
  const chat = await t.webview({ timeoutMs: 30_000 });
  await chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  return chat;
}

/**
 * Types a prompt into the composer and sends it with Enter.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} text
 */
export async function sendPrompt(t, chat, text) {
  await chat.locator('[data-testid="composer-input"]').click();
  await t.page.keyboard.type(text);
  await t.page.keyboard.press('Enter');
}
