// @ts-check
// A long text of a tool call (docs/chat.md "Long tool output"), against the scripted agent on largeToolText.json:
// two tool calls print 400 KB each, one as its content, one only as rawOutput.stdout. The content's card shows the
// head and the tail of the text as plain text, a line between them that says how much is not shown, and Open full
// output, which opens all of it in a read-only editor (its middle line is there); the raw output's card shows its
// tail under a truncation line with Open full output too. The chat holds a bounded part of the 800 KB.
// Screenshots: test-results/screenshots/<version>/largeToolText-*.png
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'largeToolText';
export const sharedWindow = true;
export const timeout = 180_000;
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-large-tool-text', 'Scripted large tool text', 'largeToolText', '0')] };

/** A numbered line of the scripted agent's huge text (src/demoAgent/stepRunner.ts `hugeText`). @param {number} i */
const lineNo = (i) => String(i).padStart(10, '0');

/**
 * Opens the whole text from `button` and checks the editor: its tab, read-only, and the line `middle` in it.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').Locator} button
 * @param {string} tabTitle
 */
async function expectOpensWhole(t, button, tabTitle) {
  await button.click();
  const tab = t.page.locator('.tabs-container .tab', { hasText: tabTitle }).first();
  await tab.waitFor({ timeout: 20_000 });
  t.expect(true, `Open full output opened "${tabTitle}"`);
  const editor = t.page.locator('.editor-instance .monaco-editor').filter({ visible: true }).first();
  await editor.locator('.view-lines').waitFor({ timeout: 10_000 });
  await editor.locator('.view-lines').click();
  // the middle of the text, which the card does not show: Go to Line
  await t.page.keyboard.press('Control+G');
  await t.page.keyboard.type('3201');
  await t.page.keyboard.press('Enter');
  await editor.locator('.view-line', { hasText: `${lineNo(3200)} ` }).first().waitFor({ timeout: 10_000 });
  t.expect(true, `the editor has the middle of the text (line ${lineNo(3200)}), which the card left out`);
  await t.page.keyboard.type('typed');
  await t.page.waitForTimeout(300);
  t.expect(!(await editor.locator('.view-line', { hasText: 'typed' }).count()), 'the editor is read-only');
  await t.runCommand('View: Close All Editors in Group');
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const chat = await openSession(t, 'Scripted large tool text');
  await sendPrompt(t, chat, 'print 800 KB');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Both tools printed' }).waitFor({ timeout: 60_000 });
  await idle(chat);

  const content = chat.locator('[data-testid="tool-call"][data-tool-call-id="content-1"]');
  const text = (await content.locator('[data-testid="tool-text"]').textContent()) ?? '';
  t.expect(text.includes(`${lineNo(0)} `) && text.includes(`${lineNo(6399)} `), 'the content card shows the head and the tail of the text');
  t.expect(!text.includes(`${lineNo(3200)} `), 'and not its middle');
  t.expect(text.length < 64 * 1024, `the content card holds a bounded preview (${text.length} characters of 409,600)`);
  const note = content.locator('[data-testid="tool-text-omitted"]');
  t.expect(await note.isVisible(), 'a line between head and tail says what is not shown');
  const noteText = (await note.textContent()) ?? '';
  t.expect(/KB not shown/.test(noteText) && /400 KB in all/.test(noteText), `it says how much ("${noteText.trim()}")`);
  await t.screenshot('largeToolText-content');

  const raw = chat.locator('[data-testid="tool-call"][data-tool-call-id="raw-1"]');
  const rawNote = raw.locator('[data-testid="raw-output-truncated"]');
  t.expect(await rawNote.isVisible(), 'the raw output card says its earlier output is truncated');
  t.expect(((await raw.locator('[data-testid="raw-output-text"]').textContent()) ?? '').includes(`${lineNo(6399)} `), 'the raw output card shows the last line');

  await expectOpensWhole(t, note.locator('[data-testid="tool-output-open"]'), 'Tool call output.txt');
  await expectOpensWhole(t, rawNote.locator('[data-testid="tool-output-open"]'), 'Tool call stdout.txt');
}
