// @ts-check
// Per-message actions, from the keyboard (issue 13 item 8): on an answer, Copy puts its Markdown on the
// clipboard (pasted into an editor to check) and Retry sends its prompt again (a second answer arrives);
// on the latest user message, Edit & Resend while a turn runs cancels that turn and sends the edited text,
// and Esc abandons an edit. Screenshots: messageActions-toolbar.png, messageActions-edit.png.
import { expectFocus, idle, messagesSettings, mod, openMessagesSession, sendPrompt } from './messagesAgent.mjs';

export const name = 'messageActions';
export const sharedWindow = true;
export const settings = messagesSettings;
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openMessagesSession(t);
  const answers = chat.locator('[data-testid="agent-message"]');
  const users = chat.locator('[data-testid="user-message"]');

  await sendPrompt(t, chat, 'first question');
  await answers.filter({ hasText: 'Answer 1 with bold' }).waitFor({ timeout: 20_000 });
  await idle(chat);

  // Copy: from the composer to the answer (the jump key), into its toolbar, Enter
  await page.keyboard.press(`${mod}+ArrowUp`);
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message' && f.label.startsWith('Agent: Answer 1'), 'Ctrl+Up from the composer focuses the newest answer, named by author and text');
  await page.keyboard.press('Tab');
  await expectFocus(t, chat, (f) => f.testId === 'message-copy' && f.label === 'Copy', 'Tab enters the answer\'s toolbar at Copy');
  t.expect(await answers.first().locator('.msg-actions').evaluate((el) => getComputedStyle(el).visibility) === 'visible', 'the toolbar shows while the message has the focus');
  await t.screenshot('messageActions-toolbar');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="message-copy"][aria-label="Copied"]').waitFor({ timeout: 5000 });

  // Retry: the next button; a second answer arrives for the same prompt
  await page.keyboard.press('Tab');
  await expectFocus(t, chat, (f) => f.testId === 'message-retry', 'Tab goes on to Retry');
  await page.keyboard.press('Enter');
  await answers.filter({ hasText: 'Answer 2 with bold' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  t.expect(await answers.count() === 2, `Retry brought a second answer (${await answers.count()} answers)`);
  t.expect((await users.nth(1).innerText()).includes('first question'), 'Retry sent the prompt of that answer again');

  // Edit & Resend on the latest user message while its answer streams
  await sendPrompt(t, chat, 'slow question');
  const slow = answers.filter({ hasText: 'A slow answer' });
  await slow.waitFor({ timeout: 20_000 });
  await chat.locator('[data-testid="session-status"][data-status="working"]').waitFor({ timeout: 5000 });
  t.expect(await users.locator('[data-testid="message-editor"]').count() === 0, 'no editor before Edit');
  await users.nth(0).hover();
  // an earlier message offers it only with a checkpoint before it (it then restores and goes on in a new session: checkpoints.ui.mjs)
  t.expect(await users.nth(2).getAttribute('data-latest') === 'true' && await users.nth(0).locator('[data-testid="message-edit"]').isVisible() === (await users.nth(0).getAttribute('data-checkpoint') === 'true'),
    'the latest user message offers Edit & Resend; an earlier one only when a checkpoint was taken before it');
  await page.keyboard.press(`${mod}+ArrowUp`);
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message', 'Ctrl+Up lands on the streaming answer');
  await page.keyboard.press('ArrowUp');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'user-message' && f.label === 'You: slow question', 'Up moves to the user message');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expectFocus(t, chat, (f) => f.testId === 'message-edit' && f.label === 'Edit and Resend', 'the latest user message has Edit and Resend after Copy');
  await page.keyboard.press('Enter');
  const input = chat.locator('[data-testid="message-edit-input"]');
  await expectFocus(t, chat, (f) => f.testId === 'message-edit-input', 'Edit opens an inline editor with the focus');
  t.expect(await input.inputValue() === 'slow question', `the editor holds the message's text (${await input.inputValue()})`);
  // Esc abandons the edit: the message is back, with the focus
  await page.keyboard.press('Escape');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'user-message', 'Esc abandons the edit and returns to the message');
  t.expect(await input.count() === 0, 'the editor is gone');
  t.expect(await chat.locator('[data-testid="session-status"][data-status="working"]').count() === 1, 'abandoning the edit did not stop the turn');
  // again, and send this time
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await input.waitFor({ timeout: 5000 });
  await expectFocus(t, chat, (f) => f.testId === 'message-edit-input', 'the editor has the focus again');
  await page.keyboard.press(`${mod}+A`);
  // a person looks before typing: the workbench also runs its Select All in the webview, a moment later
  await page.waitForTimeout(500);
  await page.keyboard.type('edited question');
  t.expect(await input.inputValue() === 'edited question', `the editor holds what was typed (${await input.inputValue()})`);
  await t.screenshot('messageActions-edit');
  await page.keyboard.press('Enter');
  await slow.filter({ hasText: '[cancelled]' }).waitFor({ timeout: 15_000 });
  t.expect(!(await slow.innerText()).includes('not reached'), 'the running turn was cancelled');
  await users.filter({ hasText: 'edited question' }).waitFor({ timeout: 15_000 });
  await answers.filter({ hasText: 'Answer 4 with bold' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  t.expect(await users.count() === 4, `the edited text was sent as a new turn (${await users.count()} user messages)`);

  // what Copy put on the clipboard, pasted into a new editor
  await t.runCommand('File: New Untitled Text File');
  const editor = page.locator('.editor-instance .monaco-editor').last();
  await editor.locator('textarea').first().waitFor({ state: 'attached', timeout: 15_000 });
  await page.keyboard.press(`${mod}+V`);
  let pasted = '';
  for (const start = Date.now(); Date.now() - start < 5000 && !pasted.includes('Answer'); await page.waitForTimeout(100)) {
    pasted = (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  }
  t.expect(pasted.trim() === 'Answer 1 with **bold** text and `code`.', `Copy put the answer's Markdown on the clipboard (pasted: ${JSON.stringify(pasted)})`);
}
