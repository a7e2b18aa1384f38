// @ts-check
// The scripted "composer" agent (test/fixtures/agents/scenarios/composer.json) as a `switchboard.agents`
// entry, shared by the composer*.ui.mjs modules (same settings: they share one server per version).
import { openSession, scriptedAgent } from './scriptedSession.mjs';

export { idle } from './scriptedSession.mjs';

/** User settings registering the scripted composer agent. */
export const composerSettings = { 'switchboard.agents': [scriptedAgent('scripted-composer', 'Scripted composer', 'composer', '1')] };

/**
 * New Session with the scripted composer agent; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export const openComposerSession = (t) => openSession(t, 'Scripted composer');

/**
 * The text of the last agent message.
 * @param {import('playwright-core').FrameLocator} chat
 */
export async function lastAgentText(chat) {
  const all = await chat.locator('[data-testid="agent-message"]').allTextContents();
  return all[all.length - 1] ?? '';
}
