// @ts-check
// The UI modules that say `sharedWindow` run one after another in one window (runUi.mjs): what a window
// needs between two of them to look fresh, and the folder settings they get. See test/harness/README.md
// ("How the UI layer runs, and where its time goes").
import fs from 'node:fs';
import path from 'node:path';
import { SAMPLE_FILES, log, runPaletteCommand, sleep } from './harness.mjs';

/**
 * A window that `sharedWindow` modules pass on, with its folder.
 * @typedef {{ context: import('playwright-core').BrowserContext, page: import('playwright-core').Page, pageErrors: string[], workspace: string }} SharedWindow
 */

/**
 * Gives a folder the sample project's files again (or a module's own `files`): what else is there is removed
 * (but the folder's settings file, which writeFolderSettings writes next), a changed or missing file written
 * again, the rest left alone, so that the workbench and the extension hear of no more changes than there were.
 * @param {string} dir
 * @param {Record<string, string>} [files]
 */
export function restoreSampleProject(dir, files = SAMPLE_FILES) {
  const keep = new Set([...Object.keys(files), '.vscode/settings.json'].flatMap((rel) => rel.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  /** @param {string} rel */
  const prune = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!keep.has(r)) fs.rmSync(path.join(dir, r), { recursive: true, force: true });
      else if (e.isDirectory()) prune(r);
    }
  };
  prune('');
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    if (fs.existsSync(p) && fs.readFileSync(p, 'utf8') === content) continue;
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

/** At most this many `sharedWindow` modules run in one window, one after another. */
const SHARED_RUN = 8;

/**
 * The modules of one version by server: one server per distinct (settings, env, trust); the `sharedWindow`
 * modules of one (env, trust) share a server and a window, in runs of SHARED_RUN (so that both workers get
 * some of them).
 * @template {{ settings: unknown, env: unknown, trust: unknown, sharedWindow: boolean }} M
 * @param {M[]} mods
 * @returns {M[][]}
 */
export function serverGroups(mods) {
  /** @type {Map<string, M[]>} */
  const groups = new Map();
  for (const m of mods) {
    const key = JSON.stringify(m.sharedWindow ? ['shared', m.env, m.trust] : [m.settings, m.env, m.trust]);
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].flatMap((g) => (g[0].sharedWindow ? chunks(g, SHARED_RUN) : [g]));
}

/** @template T @param {T[]} xs @param {number} n @returns {T[][]} */
function chunks(xs, n) {
  return Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));
}

/**
 * A `sharedWindow` module's settings go in its folder's `.vscode/settings.json`, which the workbench reads
 * again when it changes. (The user settings file is not: code-server stops seeing a change of
 * User/settings.json made from outside some seconds after the window loaded, with or without Switchboard;
 * written through the settings editor instead, a reset took 5-6 s.) With them goes a mark in the window
 * title, by which {@link resetWindow} sees that they were read, and `.vscode` is hidden from the Explorer.
 * @param {string} workspace
 * @param {{ name: string, settings: Record<string, unknown> }} m
 */
export function writeFolderSettings(workspace, m) {
  const settings = {
    ...m.settings,
    'files.exclude': { '**/.vscode': true },
    'window.title': `\${activeEditorShort}\${separator}\${rootName}\${separator}\${appName} [${m.name}]`,
  };
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
}

/**
 * Makes a window that a module used look like a fresh one to the next module, without loading it again:
 * menus and quick picks closed, every editor closed without saving (a chat panel's session goes on in the
 * Sessions view, as after a person closes its tab), the notifications cleared, the panel and the secondary
 * side bar closed, the Explorer in the side bar, the folder's files as a fresh folder has them (the sample
 * project, or the next module's own `files`; what a module added is removed), and the next module's settings read (in the folder:
 * {@link writeFolderSettings}). What stays: the extension host and the extension's state (its sessions and
 * their agents, what it remembers), which is why only modules that do not count on a fresh extension state
 * say `sharedWindow`.
 * @param {import('playwright-core').Page} page
 * @param {string} workspace
 * @param {{ name: string, settings: Record<string, unknown>, files?: Record<string, string> }} next  the module that runs next (with its own files, if any)
 */
export async function resetWindow(page, workspace, next) {
  const t0 = Date.now();
  /** @type {string[]} */
  const steps = [];
  const step = (/** @type {string} */ what) => steps.push(`${what} ${Date.now() - t0}`);
  // closed: a menu or quick pick, also one that the last module's command opens late (none for 300 ms)
  const quickInput = page.locator('.quick-input-widget, .context-view .monaco-menu, .monaco-dialog-box').filter({ visible: true });
  for (let i = 0, quiet = 0; i < 60 && quiet < 3; i++) {
    if (await quickInput.count()) {
      await page.keyboard.press('Escape');
      quiet = 0;
    } else quiet++;
    await sleep(100);
  }
  step('menus');
  restoreSampleProject(workspace, next.files);
  writeFolderSettings(workspace, next);
  // one key runs the commands (RESET_KEYBINDINGS); the command palette is the way back if it did not reach them
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Don't Save$/ });
  await page.keyboard.press(RESET_KEY);
  let fresh = false;
  for (const deadline = Date.now() + 3000; Date.now() < deadline; await sleep(50)) {
    const state = await page.evaluate(() => {
      const shown = (/** @type {string} */ sel) => Array.from(document.querySelectorAll(sel)).some((e) => e instanceof HTMLElement && e.checkVisibility());
      if (shown('.monaco-dialog-box')) return 'dialog';
      return !shown('.part.editor .tab') && !shown('.notifications-toasts .notification-toast') && !shown('.part.panel')
        && !shown('.part.auxiliarybar') && shown('.explorer-folders-view') ? 'fresh' : 'not yet';
    }).catch(() => 'not yet');
    if (state === 'fresh') {
      fresh = true;
      break;
    }
    // a dirty editor asks whether to save: no
    if (state === 'dialog' && await dontSave.first().isVisible()) await dontSave.first().click().catch(() => {});
  }
  step(fresh ? 'key' : 'key (not enough)');
  if (!fresh) await resetByPalette(page, dontSave);
  // the first top-level entry the explorer shows (the folder settings hide dot folders such as .vscode)
  const first = Object.keys(next.files ?? SAMPLE_FILES).map((rel) => rel.split('/')[0]).filter((n) => !n.startsWith('.')).sort()[0];
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: first }).first().waitFor({ timeout: 30_000 });
  step('explorer');
  await page.waitForFunction((mark) => document.title.endsWith(mark), `[${next.name}]`, { timeout: 30_000 });
  step('title');
  log(`reset the shared window for ${next.name} in ${Date.now() - t0} ms (${steps.join(', ')})`);
}

/**
 * The key that opens New Session's agent picker in the UI tests (`pickAgent` in test/ui/scriptedSession.mjs), bound
 * in their user keybindings ({@link TEST_KEYBINDINGS}): about 100 New Sessions a run skip the command palette (F1,
 * typing, the filtered list: 0.5-1 s each under load). The tests that are about the palette's path run it there.
 * Not the product's default key (Ctrl+Alt+Shift+N), which VS Code for the Web binds to New Window until the
 * extension's keybindings are registered.
 */
export const NEW_SESSION_KEY = 'Control+Alt+Shift+F10';

/** The key that {@link resetWindow} presses, bound in the UI tests' user keybindings ({@link RESET_KEYBINDINGS}). */
const RESET_KEY = 'Control+Alt+Shift+F11';

/**
 * The reset key's binding in the UI tests' User/keybindings.json ({@link TEST_KEYBINDINGS}): {@link RESET_KEY} runs what a reset of a shared window needs
 * in one go, where the command palette took 2-3 s for the same commands. Terminals pass it on to the workbench
 * (`terminal.integrated.commandsToSkipShell` in the UI tests' settings).
 */
export const RESET_KEYBINDINGS = [{
  key: 'ctrl+alt+shift+f11',
  command: 'runCommands',
  args: {
    commands: [
      'workbench.action.closeAllEditors', 'notifications.clearAll', 'workbench.action.closePanel',
      'workbench.action.closeAuxiliaryBar', 'workbench.view.explorer',
      // the folder's files as restoreSampleProject left them, without waiting for the file watcher
      'workbench.files.action.refreshFilesExplorer',
      // the keyboard where closing every editor leaves it (showing the Explorer focused it)
      'workbench.action.focusActiveEditorGroup',
    ],
  },
}];

/** The UI tests' User/keybindings.json (runUi.mjs): the reset key, and {@link NEW_SESSION_KEY}. */
export const TEST_KEYBINDINGS = [...RESET_KEYBINDINGS, { key: 'ctrl+alt+shift+f10', command: 'switchboard.newSession' }];

/**
 * The reset's commands through the command palette, as a person would run them: when the key did not reach
 * them (a window where something kept it).
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} dontSave  a dirty editor's "Don't Save"
 */
async function resetByPalette(page, dontSave) {
  await runPaletteCommand(page, 'View: Close All Editors');
  for (let i = 0; i < 5 && await dontSave.first().isVisible(); i++) await dontSave.first().click();
  await runPaletteCommand(page, 'Notifications: Clear All Notifications');
  if (await page.locator('.part.panel').isVisible().catch(() => false)) await runPaletteCommand(page, 'View: Toggle Panel Visibility', { timeoutMs: 10_000 });
  if (await page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await runPaletteCommand(page, 'View: Toggle Secondary Side Bar Visibility', { timeoutMs: 10_000 });
  if (!(await page.locator('.explorer-folders-view').isVisible())) await runPaletteCommand(page, 'View: Show Explorer');
}
