// @ts-check
// The scripted agents of the Markdown UI tests (streaming.ui.mjs, xss.ui.mjs) as `switchboard.agents`
// entries. Both modules use the same settings, so they share one server per VS Code version.
import { scriptedAgent } from './scriptedSession.mjs';

export { openSession, sendPrompt } from './scriptedSession.mjs';

/** User settings registering the scripted Markdown agents. */
export const markdownSettings = {
  'switchboard.agents': [
    scriptedAgent('scripted-markdown', 'Scripted markdown', 'markdownStreaming', '1'),
    scriptedAgent('scripted-xss', 'Scripted XSS corpus', 'xss', '0'),
  ],
};

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
