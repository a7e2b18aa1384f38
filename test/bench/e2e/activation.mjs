// @ts-check
// Activation time as VS Code reports it: the Running Extensions editor (Developer: Show Running Extensions),
// which shows each extension's activation time from the extension host's own measurements ("Activation:
// 157ms", "Startup Activation: 73ms"). Its list is virtual and sorted slowest first: it is read page by page.
import { runPaletteCommand, sleep } from '../../harness/harness.mjs';

const OURS = 'Switchboard';

/** @param {import('playwright-core').Page} page */
export async function activationTimes(page) {
  await runPaletteCommand(page, 'Developer: Show Running Extensions');
  const rows = page.locator('.runtime-extensions-editor .monaco-list-row');
  await rows.first().waitFor({ timeout: 15_000 });
  await sleep(1000);
  /** @type {Map<string, number>} */
  const times = new Map();
  await rows.first().click();
  for (let i = 0; i < 30; i++) {
    for (const text of await rows.allInnerTexts()) {
      const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
      const m = /Activation:\s*(\d+)\s*ms/i.exec(text);
      if (lines[0] && m) times.set(lines[0], Number(m[1]));
    }
    if ([...times.keys()].some((k) => k.startsWith(OURS)) && i > 0) break;
    await page.keyboard.press('PageDown');
    await sleep(200);
  }
  await page.keyboard.press('Escape');
  const ours = [...times].find(([k]) => k.startsWith(OURS))?.[1];
  const others = [...times].filter(([k]) => !k.startsWith(OURS)).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, ms]) => ({ name, ms }));
  return { ours, others };
}
