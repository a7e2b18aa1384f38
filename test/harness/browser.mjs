// @ts-check
// Debian's Chromium through playwright-core, and running a command from the palette like a person.
import { CHROMIUM } from './base.mjs';
import { alive, cleanups, disown, killTree, own, processChildren, reaper, sleep } from './processes.mjs';

// ------------------------------------------------------------------------------------------------
// the browser

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage',
  '--disable-features=Translate,MediaRouter', '--password-store=basic',
];

/** How long one slice of a locator's wait is: under 2.5 s, Playwright's polling backs off to 100 ms, not 500 ms. */
const WAIT_SLICE_MS = 2000;

/**
 * Makes every `Locator.waitFor` of the harness see its condition within about 100 ms. Playwright polls a
 * locator's state with a backoff (at once, then after 20, 50, 100, 100 and then every 500 ms) unless the wait's
 * timeout is under 2.5 s, when the backoff stops at 100 ms: a condition met a moment after a poll was seen up to
 * half a second late, in every wait longer than a quarter of a second (a chat's page loading, an answer
 * streaming, a notification). Here a wait runs in slices of 2 s until its own timeout, so it polls every 100 ms
 * at most; a wait that runs out fails with its whole timeout in the message, as Playwright's does. Patched once,
 * on the Locator class of the page's client (playwright-core does not export the class).
 * @param {import('playwright-core').Page} page
 */
export function pollLocatorsFinely(page) {
  /** @type {any} */
  const proto = Object.getPrototypeOf(page.locator('body'));
  if (proto.__switchboardFinePolling) return;
  /** @type {(this: import('playwright-core').Locator, o?: { state?: 'attached' | 'detached' | 'visible' | 'hidden', timeout?: number }) => Promise<void>} */
  const waitFor = proto.waitFor;
  /** @param {{ state?: 'attached' | 'detached' | 'visible' | 'hidden', timeout?: number }} [o] @this {import('playwright-core').Locator} */
  proto.waitFor = async function finelyPolledWaitFor(o = {}) {
    const total = o.timeout ?? 15_000; // the harness's default timeout (runUi.mjs: page.setDefaultTimeout)
    if (total === 0 || total <= WAIT_SLICE_MS) return waitFor.call(this, o);
    const deadline = Date.now() + total;
    for (;;) {
      const left = deadline - Date.now();
      try {
        return await waitFor.call(this, { ...o, timeout: Math.max(1, Math.min(WAIT_SLICE_MS, left)) });
      } catch (e) {
        if (!(e instanceof Error) || e.name !== 'TimeoutError') throw e;
        if (deadline - Date.now() <= 0) {
          const whole = (/** @type {string} */ m) => m.replace(/Timeout \d+ms exceeded/, `Timeout ${total}ms exceeded`);
          e.message = whole(e.message);
          if (e.stack) e.stack = whole(e.stack);
          throw e;
        }
      }
    }
  };
  proto.__switchboardFinePolling = true;
}

/**
 * Launches Debian's chromium (headless) through playwright-core. The browser's process tree is owned
 * (killed if we die); close() also kills it.
 * @param {{ headless?: boolean }} [o]
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchBrowser(o = {}) {
  const { chromium } = await import('playwright-core');
  const before = new Set(processChildren().get(process.pid) ?? []);
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: o.headless ?? true, args: CHROMIUM_ARGS, timeout: 60_000,
  });
  const pids = (processChildren().get(process.pid) ?? []).filter((p) => !before.has(p) && p !== reaper?.pid);
  for (const p of pids) own(p);
  const close = browser.close.bind(browser);
  let closed = false;
  const cleanup = async () => {
    if (closed) return;
    closed = true;
    cleanups.delete(cleanup);
    await Promise.race([close().catch(() => {}), sleep(10_000)]);
    for (const p of pids) { if (alive(p)) await killTree(p, { graceMs: 500 }); disown(p); }
  };
  cleanups.add(cleanup);
  browser.close = cleanup;
  return browser;
}

/** @param {string} s */
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Waits until the keyboard focus has stayed where it is for 250 ms (2 s at most): a chat that takes the keyboard a
 * moment after the last step would close the palette, or the quick pick a command or key opens.
 * @param {import('playwright-core').Page} page
 */
export async function focusSettled(page) {
  await page.waitForFunction(() => new Promise((resolve) => {
    let el = document.activeElement;
    const start = performance.now();
    let since = start;
    const tick = () => {
      if (document.activeElement !== el) { el = document.activeElement; since = performance.now(); }
      if (performance.now() - since >= 250 || performance.now() - start > 2000) resolve(true);
      else setTimeout(tick, 25);
    };
    tick();
  }), null, { timeout: 5000 }).catch(() => {});
}

/**
 * Runs a command from the command palette by its title ("Category: Title"), like a person: F1, type, pick.
 * The palette computes its list when it opens, so a command contributed a moment later is missing until it
 * is reopened: close it, wait, and open it again (bounded by `timeoutMs`, 60 s by default).
 * @param {import('playwright-core').Page} page
 * @param {string} title
 * @param {{ timeoutMs?: number }} [o]
 */
export async function runPaletteCommand(page, title, o = {}) {
  const input = page.locator('.quick-input-widget input');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  const exact = rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRe(title)}\\s*$`) }) });
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  await focusSettled(page);
  // Escape closes a quick pick or menu left open, as a person would; with none open it is not pressed: in a
  // chat's composer it stops the running turn (and cancels its pending permission)
  const widget = page.locator('.quick-input-widget, .context-view .monaco-menu, .monaco-dialog-box').filter({ visible: true });
  const closeOpen = async () => { if (await widget.count().catch(() => 0)) await page.keyboard.press('Escape').catch(() => {}); };
  for (let attempt = 1; ; attempt++) {
    try {
      await closeOpen();
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      // a webview that takes the keyboard back a moment later closes the palette (or leaves it inert for a
      // moment): each step is bounded, and a failed one starts again
      await input.fill(`>${title}`, { timeout: 5000 });
      await exact.first().waitFor({ timeout: 2000 });
      // a quick pick that a command run before opens late replaces the palette under the click: again
      await exact.first().click({ timeout: 5000 });
      break;
    } catch (e) {
      if (attempt >= 30 || Date.now() > deadline) {
        const shown = (await rows.allTextContents().catch(() => [])).slice(0, 5);
        throw new Error(`command "${title}" not in the command palette after ${attempt} tries (${e instanceof Error ? e.message.split('\n')[0] : e}); the palette showed: ${JSON.stringify(shown)}`);
      }
      await closeOpen();
      await sleep(attempt === 1 ? 250 : 1000);
    }
  }
  // the palette closes (or the command replaced it with its own quick pick)
  await page.waitForFunction(() => {
    const i = /** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget input'));
    return !i || !i.checkVisibility() || !i.value.startsWith('>');
  }, null, { timeout: 5000 }).catch(() => {});
}
