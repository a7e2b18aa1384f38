// @ts-check
// The scripted "message actions" agent (test/fixtures/agents/scenarios/messageActions.json) as a
// `switchboard.agents` entry, shared by messageActions.ui.mjs and transcriptKeys.ui.mjs (same settings: they
// share one server per version), and a look at what has the keyboard focus in the chat.
import { openSession, scriptedAgent } from './scriptedSession.mjs';

export { idle, sendPrompt } from './scriptedSession.mjs';

/** The modifier of the jump keys and of Select All / Paste: Ctrl, Cmd on macOS. */
export const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

/** User settings registering the scripted agent (real delays: its slow answer must still run when edited). */
export const messagesSettings = { 'switchboard.agents': [scriptedAgent('scripted-messages', 'Scripted messages', 'messageActions', '1')] };

/**
 * New Session with the scripted agent; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export const openMessagesSession = (t) => openSession(t, 'Scripted messages');

/**
 * What has the keyboard focus in the chat.
 * @param {import('playwright-core').FrameLocator} chat
 */
export function focused(chat) {
  return chat.locator('body').evaluate(() => {
    const a = document.activeElement;
    return {
      testId: a?.getAttribute('data-testid') ?? '',
      tag: a?.tagName.toLowerCase() ?? '',
      label: a?.getAttribute('aria-label') ?? '',
      /** An entry of the transcript (one of its list items) has the focus itself. */
      isItem: a?.parentElement?.id === 'transcript',
      inTranscript: !!a?.closest('#transcript'),
      text: (a?.textContent ?? '').trim().slice(0, 120),
      stops: document.querySelectorAll('#transcript > [tabindex="0"]').length,
    };
  });
}

/**
 * Waits until `check` holds for what has the focus (the focus moves in the webview's own task).
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {(f: Awaited<ReturnType<typeof focused>>) => boolean} check
 * @param {string} what
 */
export async function expectFocus(t, chat, check, what) {
  let f = await focused(chat);
  for (const start = Date.now(); !check(f) && Date.now() - start < 3000; f = await focused(chat)) await t.page.waitForTimeout(50);
  t.expect(check(f), `${what} (the focus is on ${JSON.stringify(f)})`);
  return f;
}
