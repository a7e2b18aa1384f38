// @ts-check
// The three themes the chat is looked at in, and switching the workbench to one of them through the
// workspace's `workbench.colorTheme` (shared by the UI modules that take screenshots in each theme).
import fs from 'node:fs';
import path from 'node:path';

/** The themes, with the class the workbench's root element gets in each. */
export const colorThemes = [
  { id: 'light', theme: 'Default Light Modern', bodyClass: 'vs' },
  { id: 'dark', theme: 'Default Dark Modern', bodyClass: 'vs-dark' },
  { id: 'high-contrast', theme: 'Default High Contrast', bodyClass: 'hc-black' },
];

/** A folder's settings file before the first switch: restored by resetTheme. */
const before = new Map();

/**
 * Switches the workbench to `theme` and waits until the webviews have its variables. The folder's other
 * settings stay (a module that shares its window has its own there: sharedWindow.mjs `writeFolderSettings`).
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {(typeof colorThemes)[number]} theme
 */
export async function switchTheme(t, { theme, bodyClass }) {
  const settingsFile = path.join(t.workspace, '.vscode', 'settings.json');
  const current = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
  if (!before.has(settingsFile)) before.set(settingsFile, current);
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.writeFileSync(settingsFile, JSON.stringify({ ...(current ? JSON.parse(current) : {}), 'workbench.colorTheme': theme }, null, 2));
  await t.page.locator(`.monaco-workbench.${bodyClass}`).waitFor({ timeout: 20_000 });
  // each webview on screen gets the theme's class on its body with the theme's variables, in one message
  const webviewClass = { vs: 'vscode-light', 'vs-dark': 'vscode-dark', 'hc-black': 'vscode-high-contrast' }[bodyClass];
  const frames = t.page.locator('iframe.webview.ready').filter({ visible: true });
  for (let i = 0, n = await frames.count(); i < n; i++) {
    await frames.nth(i).contentFrame().locator('#active-frame').contentFrame().locator(`body.${webviewClass}`).waitFor({ timeout: 20_000 });
  }
}

/**
 * Back to the default theme: the folder's settings file as it was before the first switch.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export function resetTheme(t) {
  const settingsFile = path.join(t.workspace, '.vscode', 'settings.json');
  const original = before.get(settingsFile);
  before.delete(settingsFile);
  if (original === undefined) fs.rmSync(settingsFile, { force: true });
  else fs.writeFileSync(settingsFile, original);
}

/**
 * Runs `shoot(id)` in each theme, once the workbench and the webview show it; back to the default after.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {(id: string) => Promise<unknown>} shoot
 */
export async function inEachTheme(t, shoot) {
  for (const theme of colorThemes) {
    await switchTheme(t, theme);
    await shoot(theme.id);
  }
  resetTheme(t);
}
