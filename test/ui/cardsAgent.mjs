// @ts-check
// The scripted "cards" agent (test/fixtures/agents/scenarios/cards.json) as a `switchboard.agents` entry,
// shared by cards.ui.mjs and themes.ui.mjs (same settings: they share one server per version).
import { openSession, scriptedAgent } from './scriptedSession.mjs';

export { sendPrompt } from './scriptedSession.mjs';

/** User settings registering the scripted cards agent. */
export const cardsSettings = { 'switchboard.agents': [scriptedAgent('scripted-cards', 'Scripted cards', 'cards')] };

/**
 * New Session with the scripted cards agent; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export const openCardsSession = (t) => openSession(t, 'Scripted cards');
