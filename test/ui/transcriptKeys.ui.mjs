// @ts-check
// Keyboard navigation of the transcript (issue 13 item 13): the transcript is one Tab stop. Shift+Tab from
// the composer lands on ONE message (the newest), Up/Down/Home/End move between messages, Enter enters a
// message's controls (its toolbar, a link, a code block's buttons), Tab walks them and leaves for the
// composer after the last, Esc returns to the message; Ctrl+Up / Ctrl+Down jump between the composer and the
// newest message. Screenshots: transcriptKeys-{dark,light,high-contrast}.png (a focused message).
import { colorThemes, resetTheme, switchTheme } from './colorThemes.mjs';
import { expectFocus, focused, idle, messagesSettings, mod, openMessagesSession, sendPrompt } from './messagesAgent.mjs';

export const name = 'transcriptKeys';
export const sharedWindow = true;
export const settings = messagesSettings;
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openMessagesSession(t);
  await sendPrompt(t, chat, 'first question');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Answer 1' }).waitFor({ timeout: 20_000 });
  await idle(chat);
  await sendPrompt(t, chat, 'controls please');
  await chat.locator('[data-testid="agent-message"] [data-testid="code-block"]').waitFor({ timeout: 20_000 });
  await idle(chat);
  const composer = chat.locator('[data-testid="composer-input"]');

  // one Shift+Tab from the composer: the newest message, and it is the only stop in the transcript
  await composer.focus();
  await page.keyboard.press('Shift+Tab');
  const newest = await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message' && f.label.startsWith('Agent: See the docs'),
    'one Shift+Tab from the composer lands on the newest message');
  t.expect(newest.stops === 1, `exactly one entry of the transcript is a Tab stop (${newest.stops})`);
  // the next Shift+Tab leaves the transcript (to the header): its links and buttons are not Tab stops of the page
  await page.keyboard.press('Shift+Tab');
  await expectFocus(t, chat, (f) => !f.inTranscript && f.testId !== 'composer-input', 'Shift+Tab from the message leaves the transcript backward');
  await page.keyboard.press('Tab');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message', 'Tab from before the transcript lands on the same message');

  // Up, Down, Home, End
  await page.keyboard.press('ArrowUp');
  await expectFocus(t, chat, (f) => f.isItem && f.label === 'You: controls please', 'Up moves to the previous message (named "You: …")');
  await page.keyboard.press('ArrowUp');
  await expectFocus(t, chat, (f) => f.isItem && f.label.startsWith('Agent: Answer 1'), 'Up again: the first answer');
  await page.keyboard.press('ArrowDown');
  await expectFocus(t, chat, (f) => f.isItem && f.label === 'You: controls please', 'Down moves back');
  await page.keyboard.press('Home');
  await expectFocus(t, chat, (f) => f.isItem && f.label === 'You: first question', 'Home: the first message');
  t.expect((await focused(chat)).stops === 1, 'still one Tab stop after moving');
  await page.keyboard.press('End');
  await expectFocus(t, chat, (f) => f.isItem && f.label.startsWith('Agent: See the docs'), 'End: the newest message');
  await t.screenshot('transcriptKeys-focused');

  // Enter enters the controls; Tab walks them and leaves for the composer; Esc returns to the message
  await page.keyboard.press('Enter');
  await expectFocus(t, chat, (f) => f.tag === 'a' && f.text === 'the docs', 'Enter enters the message\'s controls at its first (the link)');
  const walk = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(chat);
    walk.push(f.testId || f.tag);
    if (!f.inTranscript) break;
  }
  t.expect(JSON.stringify(walk) === JSON.stringify(['code-copy', 'code-insert', 'message-copy', 'message-retry', 'composer-input']),
    `Tab walks the code block's buttons, Copy and Retry, then leaves for the composer (${walk.join(' → ')})`);
  await page.keyboard.press('Shift+Tab');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message', 'Shift+Tab from the composer comes back to the message, not to its last control');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expectFocus(t, chat, (f) => f.testId === 'code-copy', 'Tab, Tab: the code block\'s Copy');
  await page.keyboard.press('Escape');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message', 'Esc returns to the message');
  t.expect(await chat.locator('[data-testid="agent-message"]').count() === 2, 'moving and entering did not press any button');

  // a letter typed on a message is not lost: it goes to the composer, with the focus
  await page.keyboard.type('x');
  await expectFocus(t, chat, (f) => f.testId === 'composer-input', 'a letter typed on a message moves the focus to the composer');
  t.expect(await composer.inputValue() === 'x', `and is typed there (${JSON.stringify(await composer.inputValue())})`);
  await page.keyboard.press('Backspace');

  // the jump keys
  await page.keyboard.press(`${mod}+ArrowUp`);
  await expectFocus(t, chat, (f) => f.isItem && f.label.startsWith('Agent: See the docs'), 'Ctrl+Up from the composer: the newest message');
  await page.keyboard.press(`${mod}+ArrowDown`);
  await expectFocus(t, chat, (f) => f.testId === 'composer-input', 'Ctrl+Down goes to the composer');
  await page.keyboard.press(`${mod}+ArrowUp`);
  await expectFocus(t, chat, (f) => f.isItem && f.label.startsWith('Agent: See the docs'), 'Ctrl+Up from the composer: the newest message');

  // a tool card with a pending permission request: Enter on the card moves into it but answers nothing
  await composer.focus();
  await sendPrompt(t, chat, 'permission please');
  const dialog = chat.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500); // armed: from now on a deliberate Enter on an option would answer it
  await composer.focus();
  await page.keyboard.press(`${mod}+ArrowUp`);
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'tool-call' && f.label.startsWith('Tool call'), 'Ctrl+Up: the tool card with the request');
  await page.keyboard.press('Enter');
  const inCard = await expectFocus(t, chat, (f) => f.inTranscript && !f.isItem, 'Enter on the card enters its controls');
  t.log(`Enter on the card focused ${inCard.testId || inCard.tag} "${inCard.text}"`);
  await page.waitForTimeout(700);
  t.expect(await dialog.count() === 1 && await chat.locator('[data-testid="permission-outcome"]').count() === 0, 'the Enter that entered the card did not answer the request');
  await composer.focus();
  await page.keyboard.press('Escape'); // Stop: the request is answered cancelled
  await idle(chat);

  // how a focused message and its toolbar look in each theme
  for (const theme of colorThemes) {
    await switchTheme(t, theme);
    await chat.locator('[data-testid="user-message"]').last().hover();
    await t.screenshot(`transcriptKeys-${theme.id}`);
  }
  resetTheme(t);
}
