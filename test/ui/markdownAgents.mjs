// @ts-check
// The scripted agents of the Markdown UI tests (streaming.ui.mjs, xss.ui.mjs) as `switchboard.agents`
// entries. Both modules use the same settings, so they share one server per VS Code version.
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';

/** @param {string} id @param {string} name @param {string} scenario @param {string} delayScale */
function scripted(id, name, scenario, delayScale) {
  return {
    id, name, command: process.execPath,
    args: [
      path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'),
      path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', `${scenario}.json`),
    ],
    env: { SCRIPTED_AGENT_DELAY_SCALE: delayScale },
  };
}

/** User settings registering the scripted Markdown agents. */
export const markdownSettings = {
  'switchboard.agents': [
    scripted('scripted-markdown', 'Scripted markdown', 'markdownStreaming', '1'),
    scripted('scripted-xss', 'Scripted XSS corpus', 'xss', '0'),
  ],
};

/**
 * New Session with the agent named `agentName`; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} agentName
 */
export async function openSession(t, agentName) {
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await t.page.locator('.quick-input-list .monaco-list-row', { hasText: agentName }).first().waitFor({ timeout: 15_000 });
  await t.page.keyboard.type(agentName);
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

/**
 * The Playwright Frame of a webview's content (for evaluate), from its FrameLocator.
 * @param {import('playwright-core').FrameLocator} chat
 */
export async function frameOf(chat) {
  const handle = await chat.locator('body').elementHandle();
  const frame = await handle?.ownerFrame();
  if (!frame) throw new Error('the webview frame is gone');
  return frame;
}
