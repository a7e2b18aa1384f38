// @ts-check
// Installing agents offline: the New Session picker ends with "Install Agent from Registry…"; with the
// registry unreachable (nothing listens on its URL, and there is no saved copy) that entry says so plainly,
// with Retry, and no raw network error (ECONNREFUSED, getaddrinfo, fetch failed) reaches the toast.
import fs from 'node:fs';
import path from 'node:path';

export const name = 'registryOffline';
export const sharedWindow = true;
export const timeout = 120_000;
export const settings = { 'switchboard.registry.url': 'http://127.0.0.1:59999/registry.json' };

/**
 * How often the extension logged a failed registry load (its output channel is a file under the logs).
 * @param {string} userData
 */
function failedLoads(userData) {
  const dir = path.join(userData, 'logs');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.log'))
    .map((f) => (fs.readFileSync(path.join(dir, f), 'utf8').match(/ACP Registry: could not fetch/g) ?? []).length)
    .reduce((a, b) => a + b, 0);
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  const install = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Install Agent from Registry…' });
  await install.first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the agent picker offers Install Agent from Registry…');
  await t.screenshot('registry-offline-picker');
  await page.keyboard.type('Install Agent');
  await page.keyboard.press('Enter');

  const toast = page.locator('.notification-toast', { hasText: 'The ACP Registry cannot be reached' }).first();
  await toast.waitFor({ timeout: 30_000 });
  const text = await toast.innerText();
  t.expect(!/ECONNREFUSED|getaddrinfo|ENOTFOUND|fetch failed/i.test(text), `the message is plain (${JSON.stringify(text.slice(0, 160))})`);
  t.expect(/Demo agent still work|installed agents still work/.test(text), 'it says which agents still work');
  await t.screenshot('registry-offline-toast');
  const retry = toast.locator('.monaco-button', { hasText: 'Retry' });
  t.expect(await retry.count() === 1, 'the toast offers Retry');
  const before = failedLoads(t.server.dirs.userData);
  await retry.click();
  // Retry tries again: still offline, the same plain message comes back
  let after = before;
  for (const start = Date.now(); after <= before && Date.now() - start < 15_000; await page.waitForTimeout(250)) after = failedLoads(t.server.dirs.userData);
  t.expect(after > before, `Retry loaded the registry again (failed loads logged: ${before} before, ${after} after)`);
  await page.locator('.notification-toast', { hasText: 'The ACP Registry cannot be reached' }).first().waitFor({ timeout: 30_000 });
  t.expect(true, 'and says so again while it is unreachable');
}
