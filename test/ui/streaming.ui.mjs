// @ts-check
// Streaming text and thoughts, end to end against the scripted "markdown" agent (scenario
// markdownStreaming.json, with its real delays): the thought is open while the agent thinks and collapses
// once the answer starts; the answer streams in as Markdown (heading, list, code block with its language,
// Copy and Insert at Cursor, links without href); a block rendered early is the same element at the end
// (only the last block is rendered again); the live region gets the answer; a web link asks before it opens
// the browser; a file link opens the file beside the chat; Insert at Cursor edits that editor.
// Screenshots: test-results/screenshots/<version>/streaming-*.png
import { frameOf, markdownSettings, openSession, sendPrompt } from './markdownAgents.mjs';
import { expectGlyphs } from './scriptedSession.mjs';

export const name = 'streaming';
export const sharedWindow = true;
export const settings = markdownSettings;
export const timeout = 150_000;

/**
 * Polls `get` until it is truthy.
 * @param {() => Promise<unknown>} get
 * @param {string} what
 */
async function until(get, what, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await get().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted markdown');
  const frame = await frameOf(chat);
  // the region keeps its last few announcements only, and a slow machine makes more of them: record them all
  await frame.evaluate(() => {
    const region = document.querySelector('[data-testid="live-region"]');
    const seen = /** @type {string[]} */ ([]);
    Object.assign(window, { liveSeen: seen });
    if (region) new MutationObserver((records) => {
      for (const r of records) for (const n of Array.from(r.addedNodes)) seen.push(n.textContent ?? '');
    }).observe(region, { childList: true });
  });
  await sendPrompt(t, chat, 'explain the parser');

  // thinking: the thought streams in, open, marked as streaming
  const thought = chat.locator('[data-testid="thought"]');
  await thought.waitFor({ timeout: 20_000 });
  await until(async () => (await thought.textContent())?.includes('the parser'), 'the thought streams');
  t.expect(await thought.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open), 'the thought is open while the agent thinks');
  t.expect(await thought.getAttribute('data-streaming') === 'true', 'its summary says it is still thinking');
  t.expect(await chat.locator('[data-testid="agent-message"]').count() === 0, 'no answer yet');
  await t.screenshot('streaming-thinking');

  // the answer starts: the thought collapses
  const answer = chat.locator('[data-testid="agent-message"]').last();
  await answer.waitFor({ timeout: 20_000 });
  await until(() => thought.evaluate((d) => !(/** @type {HTMLDetailsElement} */ (d).open)), 'the thought collapses');
  t.expect(true, 'the thought collapsed once the answer started');

  // while it streams, the first block is kept: mark it, and find the same element at the end
  const kept = answer.locator('.md-seg h2');
  await kept.waitFor({ timeout: 20_000 });
  t.expect(await chat.locator('[data-testid="session-status"]').getAttribute('data-status') === 'working', 'the answer is still streaming');
  await kept.evaluate((h) => { /** @type {HTMLElement} */ (h).dataset.probe = 'kept'; });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  t.expect(await answer.locator('h2[data-probe="kept"]').count() === 1, 'the heading rendered early is the same element at the end (only the tail is rendered again)');
  t.expect(await thought.getAttribute('data-streaming') === null, 'the thought is no longer marked as streaming');

  // Markdown, rendered
  t.expect((await answer.locator('h2').textContent())?.trim() === 'The parser', 'the heading is rendered');
  t.expect(await answer.locator('li').count() === 3 && await answer.locator('strong').count() === 1 && await answer.locator(':not(pre) > code').count() >= 1, 'the list, bold text and inline code are rendered');
  const block = answer.locator('[data-testid="code-block"]');
  t.expect(await block.count() === 1, 'one code block');
  t.expect((await block.locator('[data-testid="code-lang"]').textContent()) === 'ts', 'the code block shows its language');
  t.expect((await block.locator('pre code').textContent())?.includes('const answer = input.split'), 'the code block holds the code as text');
  t.expect(await block.locator('[data-testid="code-copy"]').count() === 1 && await block.locator('[data-testid="code-insert"]').count() === 1, 'the code block has Copy and Insert at Cursor');
  t.expect(await chat.locator('#transcript a[href]').count() === 0, 'no link in the transcript has an href (links go through the host)');
  t.expect(await answer.locator('.md-link[data-href="https://example.com/parser"]').count() === 1, 'the web link keeps its target in data-href');
  t.expect((await answer.textContent())?.includes('It was written for explain the parser'), 'the whole answer arrived');
  // the webview decodes entities with the browser's parser (webview/lib/entityDecode.ts), not a table
  const entities = (await answer.textContent()) ?? '';
  t.expect(entities.includes('That is all \u00a9 AB &bogus; <b>'), `named and numeric entities are decoded, unknown ones and markup kept as text (${entities.slice(-40)})`);
  await expectGlyphs(t, chat);
  const liveText = await frame.evaluate(() => /** @type {{ liveSeen?: string[] }} */ (/** @type {unknown} */ (window)).liveSeen?.join(' ') ?? '');
  t.expect(liveText?.includes('reads the input') && liveText.includes('That is all'), `the live region announced the answer (${liveText?.slice(0, 80)}…)`);
  t.expect(await chat.locator('#transcript[aria-live]').count() === 0, 'the transcript itself is not a live region');
  await t.screenshot('streaming-answer');

  // a web link asks first; cancelling opens nothing
  await answer.locator('.md-link[data-href="https://example.com/parser"]').click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10_000 });
  t.expect((await dialog.textContent())?.includes('https://example.com/parser'), 'a web link asks before it opens the browser, showing the address');
  await t.screenshot('streaming-link-confirm');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(page.context().pages().length === 1, 'cancelled: no browser page was opened');

  // a file link opens the file beside the chat, at the line
  await answer.locator('.md-link[data-href="README.md#L1"]').click();
  await page.locator('.tabs-container .tab', { hasText: 'README.md' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the file link opened README.md in an editor');

  // Insert at Cursor: into the last active editor (the README that just opened)
  await block.locator('[data-testid="code-insert"]').click();
  await page.locator('.monaco-editor .view-line', { hasText: 'const answer = input.split' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'Insert at Cursor put the code into the README editor');
  await block.locator('[data-testid="code-copy"]').click();
  await block.locator('[data-testid="code-copy"]', { hasText: 'Copied' }).waitFor({ timeout: 5000 });
  t.expect(true, 'Copy confirms on the button');
  t.expect(await frame.evaluate(() => document.querySelectorAll('.md-seg').length) >= 1, 'kept blocks sit in lazily rendered segments');
  await t.screenshot('streaming-inserted');
}
