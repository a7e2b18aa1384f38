// @ts-check
// The three themes the screenshots are taken in, and a loop that switches the workbench to each through the
// workspace's `workbench.colorTheme` (shared by themes.ui.mjs and changedFiles.ui.mjs).
import fs from 'node:fs';
import path from 'node:path';

export const themes = [
  { id: 'light', theme: 'Default Light Modern', bodyClass: 'vs' },
  { id: 'dark', theme: 'Default Dark Modern', bodyClass: 'vs-dark' },
  { id: 'high-contrast', theme: 'Default High Contrast', bodyClass: 'hc-black' },
];

/**
 * Runs `shoot(id)` in each theme, once the workbench and the webview show it; removes the setting after.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {(id: string) => Promise<void>} shoot
 */
export async function inEachTheme(t, shoot) {
  const settingsFile = path.join(t.workspace, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  for (const { id, theme, bodyClass } of themes) {
    fs.writeFileSync(settingsFile, JSON.stringify({ 'workbench.colorTheme': theme }, null, 2));
    await t.page.locator(`.monaco-workbench.${bodyClass}`).waitFor({ timeout: 20_000 });
    await t.page.waitForTimeout(1_000); // the webview gets the new theme variables
    await shoot(id);
  }
  fs.rmSync(settingsFile);
}
