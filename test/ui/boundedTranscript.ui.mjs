// @ts-check
// A bounded DOM on a 20,000-chunk transcript (issue 28 item 2; webview/transcript/freezer.ts). The scripted
// agent (on the official SDK) streams a long Markdown answer in 20,000 chunks (headings, paragraphs with
// emphasis and inline code, lists, tables, code), then a short second answer. Checked through the real
// workbench:
// - the chat keeps at most 25,000 DOM nodes, the parts far from the view are frozen, and the view followed
//   the answer to its end;
// - Find (Ctrl+F, VS Code's find widget over the chat) finds a word that is only in a frozen part at the
//   top, scrolls there, and the match is selected in the part as it comes back rendered;
// - a selection from there to far below (Shift+click), across frozen parts, is copied whole with Ctrl+C
//   (pasted into an editor to check);
// - the keyboard moves between the entries (Up, Home, End), and each has its accessible name (role listitem
//   in a list, "Agent: " and the start of its text, read from a frozen part); the first prompt, far above, is
//   frozen whole and comes back when Home shows it;
// - a tool call far above, frozen whole, that the agent gives a new title later shows it in its text.
// Screenshots: bounded-{end,find,copy,keys}.png
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';
import { expectFocus, mod } from './messagesAgent.mjs';
import { frameOf } from './markdownAgents.mjs';
import { composerSettled, idle, openSession, sendPrompt } from './scriptedSession.mjs';

export const name = 'boundedTranscript';
export const sharedWindow = true;
export const timeout = 240_000;

const sections = 640;
/** The long answer: about 36,000 words, so 20,000 chunks split at word boundaries. */
function longAnswer() {
  const parts = [];
  for (let i = 1; i <= sections; i++) {
    const word = i === 1 ? 'needle-early' : `marker-${i}`;
    parts.push(
      `## Section ${i}\n\nThis is section ${i} with **bold ${i}**, *emphasis*, \`code-${i}\` and the word ${word} in a longer sentence about the subject.\n\n`
      + `- first item ${i}\n- second item ${i}\n  1. nested one\n  2. nested two\n\n`
      + `| key | value |\n|---|---|\n| a${i} | b${i} |\n| c${i} | d${i} |\n\n`
      + (i % 5 === 0 ? `\`\`\`js\nconst s${i} = ${i};\n\`\`\`\n\n` : ''),
    );
  }
  return `${parts.join('')}The end of the long answer.\n`;
}

const scenarioFile = path.join(os.tmpdir(), 'switchboard-ui-bounded-transcript.json');
fs.writeFileSync(scenarioFile, JSON.stringify({
  name: 'bounded-transcript',
  description: 'A long Markdown answer in 20,000 chunks, then a short one (test/ui/boundedTranscript.ui.mjs).',
  turns: [
    {
      match: 'very long',
      steps: [
        { step: 'toolCall', toolCallId: 'early-read', title: 'Read the early notes', kind: 'read', status: 'completed' },
        { step: 'text', text: longAnswer(), chunks: 20_000 },
      ],
    },
    { match: 'short one', steps: [{ step: 'text', text: 'A short second answer.' }] },
    // an update of an entry far above, frozen whole: a tool call's late title
    { match: 'late title', steps: [{ step: 'toolCallUpdate', toolCallId: 'early-read', title: 'Read the early notes again (late-needle)' }, { step: 'text', text: 'Renamed the early read.' }] },
  ],
}));

export const settings = {
  'switchboard.agents': [{
    id: 'scripted-bounded', name: 'Scripted bounded', command: process.execPath,
    args: [path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'), scenarioFile],
  }],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted bounded');
  let frame = await frameOf(chat);
  const started = Date.now();
  await sendPrompt(t, chat, 'a very long answer please');
  const answer = chat.locator('[data-testid="agent-message"]').first();
  await answer.filter({ hasText: 'The end of the long answer.' }).waitFor({ timeout: 150_000 });
  await idle(chat);
  const streamed = (Date.now() - started) / 1000;
  await page.waitForTimeout(500);

  /** The chat's DOM: elements and text nodes, the frozen parts, where the view is. */
  const dom = () => frame.evaluate(() => {
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let nodes = 0;
    while (walker.nextNode()) nodes++;
    const el = /** @type {HTMLElement} */ (document.getElementById('transcript'));
    return {
      nodes,
      frozen: document.querySelectorAll('.md-frozen').length,
      parts: document.querySelectorAll('.md-seg').length,
      // a part of white space alone is 0 px tall and a line tall frozen: it froze and thawed forever
      blank: Array.from(document.querySelectorAll('.md-seg')).filter((p) => (p.classList.contains('md-frozen') ? !p.textContent?.trim() : !p.firstElementChild)).length,
      fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
      needleFrozen: Array.from(document.querySelectorAll('.md-frozen')).some((p) => p.textContent?.includes('needle-early')),
    };
  });
  const end = await dom();
  t.expect(end.nodes <= 25_000, `the chat keeps at most 25,000 DOM nodes after 20,000 chunks (${end.nodes}; ${end.frozen} of ${end.parts} parts frozen; streamed in ${streamed.toFixed(1)} s)`);
  t.expect(end.frozen > end.parts / 2, `most parts far from the view are frozen (${end.frozen} of ${end.parts})`);
  t.expect(end.fromBottom < 40, `the view followed the answer to its end (${Math.round(end.fromBottom)} px from the bottom)`);
  t.expect(end.blank === 0, `every part of the answer holds a block (${end.blank} hold white space alone)`);
  t.expect(end.needleFrozen, 'the word to find is only in a frozen part (far above the view)');
  await t.screenshot('bounded-end');

  // the view settles: parts coming back or going away near the view move nothing once the answer ended
  /** @type {string[]} */
  const samples = [];
  let settledAfter = NaN;
  for (const t0 = Date.now(); Date.now() - t0 < 20_000; await page.waitForTimeout(100)) {
    const v = await frame.evaluate(() => { const el = /** @type {HTMLElement} */ (document.getElementById('transcript')); return `${Math.round(el.scrollTop)}/${Math.round(el.scrollHeight)}/${document.querySelectorAll('.md-frozen').length}`; });
    samples.push(v);
    if (samples.length >= 6 && samples.slice(-6).every((x) => x === v)) { settledAfter = Date.now() - t0; break; }
  }
  t.expect(Number.isFinite(settledAfter), `the view settles once the answer ended (${Number.isFinite(settledAfter) ? `after ${settledAfter} ms` : `still moving: ${samples.slice(-8).join(', ')}`})`);

  // Find: VS Code's find widget over the chat (Ctrl+F with the chat focused)
  // (force: Playwright's own stability check can starve on a loaded machine; the view is settled, above)
  await chat.locator('[data-testid="agent-message"] h2').last().click({ force: true });
  await page.keyboard.press(`${mod}+F`);
  const findInput = page.locator('.simple-find-part input, .simple-find-part textarea').first();
  await findInput.waitFor({ timeout: 10_000 });
  await findInput.fill('needle-early');
  await page.keyboard.press('Enter');
  /** The selection in the chat: its text, whether it is in rendered (not frozen) Markdown, and whether it shows. */
  const selection = () => frame.evaluate(() => {
    const s = document.getSelection();
    const node = s?.anchorNode;
    const el = node instanceof Element ? node : node?.parentElement;
    const box = s && s.rangeCount ? s.getRangeAt(0).getBoundingClientRect() : undefined;
    const view = /** @type {HTMLElement} */ (document.getElementById('transcript')).getBoundingClientRect();
    return {
      text: s?.toString() ?? '',
      rendered: !!el && !el.closest('.md-frozen') && !!el.closest('.md-seg p'),
      shown: !!box && box.top >= view.top && box.bottom <= view.bottom,
    };
  });
  let found = await selection();
  for (const t0 = Date.now(); Date.now() - t0 < 10_000 && !(found.text.toLowerCase() === 'needle-early' && found.rendered && found.shown); await page.waitForTimeout(100)) {
    found = await selection();
  }
  t.expect(found.text.toLowerCase() === 'needle-early', `Find selected the word in the chat (selection ${JSON.stringify(found.text.slice(0, 60))})`);
  t.expect(found.rendered && found.shown, `the match is shown, in its part rendered again (rendered ${found.rendered}, in view ${found.shown})`);
  await t.screenshot('bounded-find');
  await page.keyboard.press('Escape');

  // Copy: from the start of section 1 (a click; closing Find cleared its selection) to section 60 (Shift+click),
  // across frozen parts
  await chat.locator('[data-testid="agent-message"] h2', { hasText: /^Section 1$/ }).click({ position: { x: 1, y: 4 }, force: true });
  const target = chat.locator('[data-testid="agent-message"] h2', { hasText: /^Section 60$/ });
  await frame.evaluate(() => {
    const h = Array.from(document.querySelectorAll('.md-seg h2, .md-frozen')).find((e) => e.textContent?.includes('Section 60'));
    h?.scrollIntoView({ block: 'center' });
  });
  await target.waitFor({ timeout: 10_000 });
  await target.click({ modifiers: ['Shift'], force: true });
  const spanned = await frame.evaluate(() => {
    const s = document.getSelection();
    if (!s || !s.rangeCount) return { frozen: 0, text: '' };
    const range = s.getRangeAt(0);
    return { frozen: Array.from(document.querySelectorAll('.md-frozen')).filter((p) => range.intersectsNode(p)).length, text: s.toString() };
  });
  t.expect(spanned.frozen > 0, `the selection spans frozen parts (${spanned.frozen})`);
  await page.keyboard.press(`${mod}+C`);
  await t.runCommand('File: New Untitled Text File');
  const editor = page.locator('.editor-instance .monaco-editor').last();
  await editor.locator('textarea').first().waitFor({ state: 'attached', timeout: 15_000 });
  await page.keyboard.press(`${mod}+V`);
  const lines = () => editor.locator('.view-lines').innerText().then((s) => s.replace(/\u00a0/g, ' '));
  let bottom = '';
  for (const t0 = Date.now(); Date.now() - t0 < 5000 && !bottom.includes('Section 60'); await page.waitForTimeout(100)) bottom = await lines();
  await page.keyboard.press(`${mod}+Home`);
  let top = '';
  for (const t0 = Date.now(); Date.now() - t0 < 5000 && !top.includes('needle-early'); await page.waitForTimeout(100)) top = await lines();
  const middle = spanned.text.includes('marker-30') && spanned.text.includes('b30') && spanned.text.includes('nested two');
  t.expect(/^S?ection 1\b/.test(top) && top.includes('needle-early') && bottom.includes('Section 60') && middle,
    `Copy put the whole selection on the clipboard, the frozen parts' text included (pasted from ${JSON.stringify(top.slice(0, 40))} to ${JSON.stringify(bottom.slice(-40))}; section 30 in it: ${middle})`);
  await t.screenshot('bounded-copy');
  await t.runCommand('View: Revert and Close Editor');
  // back in the chat (its webview made again from the host's snapshot): the end of the answer shows, bounded
  const back = Date.now();
  await chat.locator('[data-testid="agent-message"]').filter({ hasText: 'The end of the long answer.' }).waitFor({ timeout: 30_000 });
  await composerSettled(t, chat);
  frame = await frameOf(chat);
  const reopened = await dom();
  t.expect(reopened.nodes <= 25_000 && reopened.fromBottom < 40,
    `back in the chat, its end shows (${Math.round(reopened.fromBottom)} px from the bottom, after ${((Date.now() - back) / 1000).toFixed(1)} s) and the DOM stays bounded (${reopened.nodes} nodes)`);

  // the keyboard between the entries, and their accessible names
  await sendPrompt(t, chat, 'and a short one');
  await t.screenshot('bounded-second');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'A short second answer.' }).waitFor({ timeout: 30_000 });
  await idle(chat);
  await chat.locator('[data-testid="composer-input"]').focus();
  await page.keyboard.press('Shift+Tab');
  await expectFocus(t, chat, (f) => f.isItem && f.label.startsWith('Agent: A short second answer'), 'Shift+Tab from the composer lands on the newest answer');
  await page.keyboard.press('ArrowUp');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'user-message', 'Up moves to the prompt before it');
  await page.keyboard.press('ArrowUp');
  const long = await expectFocus(t, chat, (f) => f.isItem && f.testId === 'agent-message' && /^Agent: Section 1\b/.test(f.label),
    'Up moves to the long answer, named by the start of its text (in a frozen part)');
  const roles = await frame.evaluate(() => ({
    list: document.getElementById('transcript')?.getAttribute('role'),
    item: document.activeElement?.getAttribute('role'),
    firstFrozen: !!document.activeElement?.querySelector('.md-seg')?.classList.contains('md-frozen'),
  }));
  t.expect(roles.list === 'list' && roles.item === 'listitem', `the transcript is a list of list items for screen readers (${JSON.stringify(roles)}; label ${JSON.stringify(long.label.slice(0, 60))})`);
  // the first prompt, far above, is frozen whole (an entry far from the view); Home brings it back
  let firstFrozen = false;
  for (const t0 = Date.now(); Date.now() - t0 < 6000 && !firstFrozen; await page.waitForTimeout(200)) {
    firstFrozen = await frame.evaluate(() => !!document.querySelector('#transcript > .entry')?.classList.contains('entry-frozen'));
  }
  t.expect(firstFrozen, 'the first prompt, far above the view, is frozen whole');
  await page.keyboard.press('Home');
  await expectFocus(t, chat, (f) => f.isItem && f.testId === 'user-message' && f.text.includes('a very long answer please'), 'Home moves to the first entry');
  let firstBack = false;
  for (const t0 = Date.now(); Date.now() - t0 < 5000 && !firstBack; await page.waitForTimeout(100)) {
    firstBack = await frame.evaluate(() => { const e = document.querySelector('#transcript > .entry'); return !!e && !e.classList.contains('entry-frozen') && !!e.querySelector('*'); });
  }
  t.expect(firstBack, 'it is rendered again once it is in view');
  await page.keyboard.press('End');
  await expectFocus(t, chat, (f) => f.isItem && f.label.startsWith('Agent: A short second answer'), 'End moves to the last entry');
  const after = await dom();
  t.expect(after.nodes <= 25_000, `still at most 25,000 DOM nodes after Find, Copy and the keys (${after.nodes})`);
  await t.screenshot('bounded-keys');

  // an entry frozen whole that the agent updates shows the update in its text (Find, Copy, a screen reader)
  const early = () => frame.evaluate(() => {
    const e = document.querySelector('#transcript > [data-testid="tool-call"]');
    return { frozen: !!e?.classList.contains('entry-frozen'), text: e?.textContent ?? '' };
  });
  let before = await early();
  for (const t0 = Date.now(); Date.now() - t0 < 6000 && !before.frozen; await page.waitForTimeout(200)) before = await early();
  t.expect(before.frozen && before.text.includes('Read the early notes'), `the early tool call, far above, is frozen whole (${JSON.stringify(before).slice(0, 120)})`);
  await sendPrompt(t, chat, 'a late title please');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Renamed the early read.' }).waitFor({ timeout: 30_000 });
  let updated = await early();
  for (const t0 = Date.now(); Date.now() - t0 < 5000 && !updated.text.includes('late-needle'); await page.waitForTimeout(100)) updated = await early();
  t.expect(updated.text.includes('late-needle'), `its late title is in its text, frozen or not (${JSON.stringify(updated).slice(0, 160)})`);
}
