// @ts-check
// The workbench steps of the Ask Several Agents benchmark (worktreeFanOutBench.mjs): the pickers, a single session,
// the compare view's checks, a trace.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPaletteCommand, sleep } from '../harness/harness.mjs';
import { chatFrame } from './e2e/workbench.mjs';
import { summarise } from './e2e/trace.mjs';
export async function withScreenshot(w, what, error) {
  const file = path.join(os.tmpdir(), `worktreeFanOutBench-${what}-${Date.now()}.png`);
  const shot = await w.page.screenshot({ path: file }).then(() => file, () => undefined);
  const e = error instanceof Error ? error : new Error(String(error));
  if (shot) e.message += ` (the window: ${shot})`;
  return e;
}

/**
 * The content frame of the webview whose title matches `title` (the compare view: "Compare: <prompt>").
 * @param {import('playwright-core').Page} page @param {RegExp} title
 */
export async function webviewByTitle(page, title, timeoutMs = 60_000) {
  const outer = page.locator('iframe.webview.ready');
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
    const n = await outer.count();
    for (let i = 0; i < n; i++) {
      const inner = outer.nth(i).contentFrame().locator('#active-frame');
      const t = await inner.getAttribute('title', { timeout: 1000 }).catch(() => null);
      if (t !== null && title.test(t)) return inner.contentFrame();
    }
  }
  throw new Error(`no webview titled ${title} within ${timeoutMs} ms`);
}

/**
 * Waits until the compare view shows `n` checks passed, painted (the frame stamps the task after the next animation
 * frame); resolves with when (ms since the epoch). A failed check or a failed run ends the wait with an error.
 * @param {import('playwright-core').FrameLocator} compare @param {number} n
 */
export async function checksPassed(compare, n, timeoutMs = 120_000) {
  await compare.locator('body').evaluate((_el, count) => {
    const g = /** @type {any} */ (globalThis);
    g.__wtbDone = 0;
    const tick = () => {
      if (document.querySelectorAll('[data-testid="compare-check"][data-state="passed"]').length >= count) {
        requestAnimationFrame(() => setTimeout(() => { g.__wtbDone = Date.now(); }, 0));
        return;
      }
      setTimeout(tick, 20);
    };
    tick();
  }, n, { timeout: 30_000 });
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(200)) {
    const r = await compare.locator('body').evaluate(() => ({
      done: /** @type {any} */ (globalThis).__wtbDone,
      failed: document.querySelectorAll('[data-testid="compare-check"][data-state="failed"], [data-testid="compare-status"][data-status="failed"]').length,
    }), undefined, { timeout: 30_000 });
    if (r.done) return /** @type {number} */ (r.done);
    if (r.failed) throw new Error(`a run or its check failed: ${(await compare.locator('body').innerText()).replace(/\s+/g, ' ').slice(0, 600)}`);
  }
  throw new Error(`the compare view did not show ${n} checks passed within ${timeoutMs} ms`);
}

// ------------------------------------------------------------------------------------------------
// figure 1: long tasks

/** The trace categories of e2e/trace.mjs. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink.user_timing', 'disabled-by-default-v8.gc'];

/**
 * With --trace: starts a trace of the page; the function it resolves with stops it, writes it to the temp folder and
 * resolves with a line per task over 50 ms of the busiest renderer main thread (the trace events it spent its time in).
 * @param {Window} w @param {string} what
 */
export async function startTrace(w, what) {
  if (!process.argv.includes('--trace')) return async () => /** @type {string[]} */ ([]);
  await w.browser.startTracing(w.page, { categories: TRACE_CATEGORIES });
  return async () => {
    const buffer = await w.browser.stopTracing();
    const file = path.join(os.tmpdir(), `worktreeFanOutBench-${what}-${Date.now()}.json`);
    fs.writeFileSync(file, buffer);
    const t = summarise(JSON.parse(buffer.toString('utf8')));
    const f = (/** @type {number} */ x) => `${Math.round(x)} ms`;
    return [
      `trace of the ${what} (${file}): renderer main thread busy ${f(t.busy)} in ${t.tasks} tasks; ${Object.entries(t.layers).map(([k, v]) => `${k} ${f(v)}`).join(', ')}; script by source: ${Object.entries(t.urls).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`,
      ...t.long.map((x) => `  a task of ${f(x.ms)}: ${Object.entries(x.inside).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`),
    ];
  };
}

/**
 * ACP: Ask Several Agents… by keyboard, as test/ui/worktrees.ui.mjs drives it; resolves with the time of the last
 * Enter (the check's command line). `beforeSend` runs right before that Enter.
 * @param {import('playwright-core').Page} page @param {string[]} agents @param {string} prompt @param {string} check
 * @param {() => Promise<unknown>} beforeSend
 */
export async function askSeveralAgents(page, agents, prompt, check, beforeSend) {
  await runPaletteCommand(page, 'ACP: Ask Several Agents…');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 15_000 });
  for (const a of agents) {
    await input.fill(a);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: a }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]', { hasText: a }).first().waitFor({ timeout: 5_000 });
  }
  await input.fill('');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'The prompt every run gets' }).waitFor({ timeout: 10_000 });
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No check' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.type('Command Line');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'The command line to run in each worktree' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(check);
  await sleep(1000); // the window is idle before the measurement starts
  await beforeSend();
  const sentAt = Date.now();
  await page.keyboard.press('Enter');
  return sentAt;
}

/**
 * The baseline: ACP: New Session… with `agent`, then the prompt typed into the chat and sent. Resolves with the two
 * phases a user waits for: the Enter on the agent (`beforeOpen` runs right before it) until the chat showed the
 * session idle; the Enter on the prompt (frameProbe's stamp) until the answer's end had been painted and the session
 * was idle again, painted. The typing in between is not measured.
 * @param {import('playwright-core').Page} page @param {string} agent @param {string} prompt
 * @param {() => Promise<unknown>} beforeOpen
 */
export async function singleSession(page, agent, prompt, beforeOpen) {
  let openAt = 0;
  for (let attempt = 1; ; attempt++) {
    await runPaletteCommand(page, 'ACP: New Session…');
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: agent }).first().waitFor({ timeout: 15_000 });
      await page.locator('.quick-input-widget input').fill(agent, { timeout: 5000 });
      await sleep(1000); // idle before the measurement
      await beforeOpen();
      openAt = Date.now();
      await page.keyboard.press('Enter');
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  const frame = await chatFrame(page);
  await frame.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  const readyAt = Date.now();
  await frame.locator('[data-testid="composer-input"]').click();
  await page.keyboard.type(prompt);
  await frame.evaluate(() => /** @type {any} */ (globalThis).__e2e.reset(false));
  await sleep(1000); // idle before the measurement
  await page.keyboard.press('Enter');
  await frame.evaluate(() => {
    const g = /** @type {any} */ (globalThis);
    g.__wtbIdle = 0;
    const tick = () => {
      const s = g.__e2e;
      if (s.sendAt && s.endAt && document.querySelector('[data-testid="session-status"][data-status="idle"]')) {
        requestAnimationFrame(() => setTimeout(() => { g.__wtbIdle = Date.now(); }, 0));
        return;
      }
      setTimeout(tick, 20);
    };
    tick();
  });
  for (const end = Date.now() + 120_000; Date.now() < end; await sleep(200)) {
    const r = await frame.evaluate(() => { const g = /** @type {any} */ (globalThis); return { sendAt: g.__e2e.sendAt, idleAt: g.__wtbIdle }; });
    if (r.idleAt) return { openAt, readyAt, sendAt: /** @type {number} */ (r.sendAt), idleAt: /** @type {number} */ (r.idleAt) };
  }
  throw new Error('the single session\'s answer was not painted, or the session not idle, within 120 s');
}

/** One fresh window: the fan-out of 3, then the single session. @param {string} extRoot */
