// @ts-check
// Continue in New Session sends a compact context, not a wall of text: an agent that can neither resume
// nor load answers a first question (a thought, intermediate text, an edit with a diff, the final answer),
// then crashes. Continue in New Session, from the keyboard, opens a new chat whose first message is one
// collapsed line, "Context from '<title>' (N turns, M files)"; Enter on it expands it to the user's
// messages, the final answers and the changed file, without thoughts, intermediate text or "Tool call:"
// lines. The interrupted prompt is still offered for Resend.
// Screenshots: test-results/screenshots/<version>/continue-context-{collapsed,expanded}.png
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'continueContext';
export const sharedWindow = true;
export const timeout = 150_000;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-context', 'Scripted context', 'continueContext')],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted context');
  await sendPrompt(t, chat, 'first question about the answer');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'The final answer is 42.' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  await sendPrompt(t, chat, 'do something risky');
  const continueButton = chat.locator('[data-testid="session-error"] [data-testid="notice-continue"]');
  await continueButton.waitFor({ timeout: 30_000 });

  // the user decides, from the keyboard
  await continueButton.focus();
  await page.keyboard.press('Enter');
  const next = await t.webviewByTitle(/^Continued: first question about the answer/, { timeoutMs: 30_000 });
  const context = next.locator('[data-testid="context-block"]');
  await context.waitFor({ timeout: 30_000 });
  await next.locator('[data-testid="agent-message"]', { hasText: 'carrying on' }).first().waitFor({ timeout: 30_000 });
  const summary = await context.locator('summary').innerText();
  t.expect(/^Context from 'first question about the answer' \(2 turns, 1 file\)$/.test(summary.trim()), `the first message is one line: ${JSON.stringify(summary)}`);
  t.expect(await context.getAttribute('open') === null && await context.locator('.text').isHidden(), 'collapsed: the context text is not shown');
  t.expect(await next.locator('[data-testid="user-message"]').count() === 1, 'one user message: the context block');
  await next.locator('[data-testid="notice-resend"]').waitFor({ timeout: 30_000 });
  t.expect(true, 'the interrupted prompt is still offered for Resend');
  await t.screenshot('continue-context-collapsed');

  // Enter on the disclosure expands it
  await context.locator('summary').focus();
  await page.keyboard.press('Enter');
  await context.locator('.text').waitFor({ state: 'visible', timeout: 5_000 });
  const text = await context.locator('.text').innerText();
  for (const wanted of ['<context source="switchboard"', 'User: first question about the answer', 'Agent: The final answer is 42.', 'User: do something risky', '## Changed files', '- src/app.ts', '</context>']) {
    t.expect(text.includes(wanted), `the expanded context has "${wanted}"`);
  }
  for (const chatter of ['Tool call:', 'Pondering the secret thought', 'Another hidden musing', 'Let me check the intermediate file', 'Edit src/app.ts']) {
    t.expect(!text.includes(chatter), `the expanded context has no "${chatter}"`);
  }
  t.log(`context block: ${text.length} characters`);
  await t.screenshot('continue-context-expanded');
}
