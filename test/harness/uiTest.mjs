// @ts-check
// What a UI module's run(t) gets (test/harness/runUi.mjs runs the modules): the page, the server, and the
// steps a person takes (the command palette, a webview's content frame, a notification).
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, extensionManifest, log, runPaletteCommand, sleep } from './harness.mjs';

export const SHOTS = path.join(REPO_ROOT, 'test-results', 'screenshots');

/** @param {string} s */
export const fileSafe = (s) => s.replace(/[^\w.-]+/g, '_');

/**
 * What a UI module's run(t) gets.
 * @typedef {object} UiTest
 * @property {string} name
 * @property {string} version                     VS Code version
 * @property {import('playwright-core').Page} page
 * @property {import('./harness.mjs').Server} server
 * @property {string} workspace                   the folder that is open
 * @property {'dev' | 'link' | 'vsix'} load       how the extension was loaded
 * @property {ReturnType<typeof extensionManifest>} extension
 * @property {(cond: unknown, msg: string) => void} expect      counts an assertion; throws if cond is falsy
 * @property {(name: string) => Promise<string>} screenshot      saves test-results/screenshots/<version>/<name>.png
 * @property {(...a: unknown[]) => void} log
 * @property {(title: string, o?: { timeoutMs?: number, shows?: import('playwright-core').Locator, pick?: import('playwright-core').Locator }) => Promise<void>} runCommand
 *   F1, type the command's title ("Category: Title"), run it; retries while the command is not in the list.
 *   With `shows`, runs it again (3 tries) until that shows (a quick pick row, say); with `pick`, until a click on
 *   it went through (the quick pick the command opened may close under it before the click)
 * @property {(id: string) => string} commandTitle "Category: Title" of a command the extension contributes
 * @property {() => Promise<void>} reloadWindow
 *   Developer: Reload Window, as a person runs it; resolves when the new page has its workbench. VS Code saves
 *   the window's state (open editors, views, webview state, the extensions' workspaceState) before an orderly
 *   reload, so nothing waits for the web workbench's 5 s save timer, which a bare page reload (F5) races
 * @property {(o?: { timeoutMs?: number }) => Promise<import('playwright-core').FrameLocator>} webview
 *   the content frame of the visible webview (the only one, else the first visible)
 * @property {(title: string | RegExp, o?: { timeoutMs?: number }) => Promise<import('playwright-core').FrameLocator>} webviewByTitle
 *   the content frame of the webview with this title (panel or view title; a RegExp tests it), visible or not
 * @property {(text: string | RegExp, o?: { timeoutMs?: number }) => Promise<void>} notification
 *   waits for a notification (toast, or else in the notification center when toasts are hidden)
 * @property {(text: string | RegExp, o?: { timeoutMs?: number }) => Promise<void>} waitForText
 *   waits until the workbench (outside webviews) shows the text
 */

/**
 * @param {import('playwright-core').Page} page
 * @param {string} version
 * @param {string} name
 * @param {import('./harness.mjs').Server} server
 * @param {string} workspace
 * @param {'dev' | 'link' | 'vsix'} load
 * @param {{ assertions: number }} counter
 * @returns {UiTest}
 */
export function makeT(page, version, name, server, workspace, load, counter) {
  const extension = extensionManifest();
  const say = (/** @type {unknown[]} */ ...a) => log(`[${version} ${name}]`, ...a);
  const outerFrames = page.locator('iframe.webview.ready');

  /** @type {UiTest['runCommand']} */
  const runCommand = async (title, o = {}) => {
    for (let attempt = 1; ; attempt++) {
      await runPaletteCommand(page, title, o);
      say(`ran command "${title}"`);
      if (!o.shows && !o.pick) return;
      // the quick pick the command opened may be closed under it by a chat or view that took the keyboard late
      const done = o.pick
        ? await o.pick.first().click({ timeout: 7_000 }).then(() => true, () => false)
        : await o.shows?.first().waitFor({ timeout: 7_000 }).then(() => true, () => false);
      if (done) return;
      if (attempt === 3) throw new Error(`"${title}" did not ${o.pick ? 'let the test pick' : 'show'} ${o.pick ?? o.shows} in 3 tries`);
      say(`"${title}": its quick pick closed before ${o.pick ? 'the pick' : 'it showed what the test waits for'}: again`);
    }
  };

  /** @type {UiTest['webview']} */
  const webview = async (o = {}) => {
    const visible = outerFrames.filter({ visible: true });
    await visible.first().waitFor({ timeout: o.timeoutMs ?? 30_000 });
    return visible.first().contentFrame().locator('#active-frame').contentFrame();
  };

  /** @type {UiTest['webviewByTitle']} */
  const webviewByTitle = async (title, o = {}) => {
    const deadline = Date.now() + (o.timeoutMs ?? 30_000);
    /** @type {string[]} */
    let seen = [];
    while (Date.now() < deadline) {
      seen = [];
      const n = await outerFrames.count();
      for (let i = 0; i < n; i++) {
        const inner = outerFrames.nth(i).contentFrame().locator('#active-frame');
        // a frame without its page yet (a webview still loading, or one going away) is skipped at once: waiting
        // 1 s on each such frame made one look-round take many seconds in a window that had many webviews
        if (!(await inner.count().catch(() => 0))) continue;
        const t = await inner.getAttribute('title', { timeout: 1000 }).catch(() => null);
        if (t !== null) seen.push(t);
        // a chat's title may start with its session's state mark (⟳ streaming, ‖ waiting, ✖ failed, ● unread)
        const bare = t?.replace(/^[\u27F3\u2016\u2716\u25CF] /, '');
        const matches = (/** @type {string} */ s) => (typeof title === 'string' ? s === title : title.test(s));
        if (t != null && bare != null && (matches(t) || matches(bare))) return inner.contentFrame();
      }
      await sleep(100);
    }
    throw new Error(`no webview titled "${title}"; webviews: ${JSON.stringify(seen)}`);
  };

  /** @type {UiTest['notification']} */
  const notification = async (text, o = {}) => {
    const timeout = o.timeoutMs ?? 15_000;
    const deadline = Date.now() + timeout;
    // a toast shows for some seconds, then only the notification center lists it (and the smoke-test driver
    // hides toasts): look at the toasts briefly, then in the center, which also lists new notifications live
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    const toastMs = Math.min(timeout, server.smokeTestDriver ? 1000 : 5000);
    if (await toast.waitFor({ timeout: toastMs }).then(() => true, () => false)) return;
    const center = page.locator('.notifications-center');
    if (!(await center.isVisible())) await page.locator('[id="status.notifications"]').click();
    await center.locator('.notification-list-item', { hasText: text }).first().waitFor({ timeout: Math.max(5000, deadline - Date.now()) });
    await page.locator('[id="status.notifications"]').click().catch(() => {});
  };

  return {
    name, version, page, server, workspace, load, extension,
    log: say,
    expect(cond, msg) {
      if (!cond) throw new Error(`expectation failed: ${msg}`);
      counter.assertions++;
      say(`ok - ${msg}`);
    },
    async screenshot(shot) {
      const file = path.join(SHOTS, version, `${fileSafe(shot)}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      say(`screenshot ${path.relative(REPO_ROOT, file)}`);
      return file;
    },
    runCommand,
    async reloadWindow() {
      await sleep(400); // what the extension writes on a timer (its transcript store, every 250 ms) is on disk
      const loaded = page.waitForEvent('load', { timeout: 60_000 });
      await runCommand('Developer: Reload Window');
      await loaded;
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    },
    commandTitle(id) {
      const cmds = /** @type {{ contributes?: { commands?: { command: string, title: string, category?: string }[] } }} */ (extension).contributes?.commands ?? [];
      const c = cmds.find((x) => x.command === id);
      if (!c) throw new Error(`package.json contributes no command ${id}`);
      return c.category ? `${c.category}: ${c.title}` : c.title;
    },
    webview, webviewByTitle, notification,
    async waitForText(text, o = {}) {
      await page.locator('.monaco-workbench').getByText(text).first().waitFor({ timeout: o.timeoutMs ?? 15_000 });
    },
  };
}


/**
 * The texts of a list's rows (`.monaco-list-row`) in the order they show. VS Code's lists reuse row elements, so
 * the DOM order can differ from the visual one: rows are sorted by their `data-index`.
 * @param {import('playwright-core').Locator} rows
 * @returns {Promise<string[]>}
 */
export async function rowTexts(rows) {
  const read = await rows.evaluateAll((els) => els.map((el) => ({ at: Number(el.getAttribute('data-index') ?? NaN), text: /** @type {HTMLElement} */ (el).innerText })));
  return read.map((r, i) => ({ ...r, at: Number.isNaN(r.at) ? i : r.at })).sort((a, b) => a.at - b.at).map((r) => r.text);
}
