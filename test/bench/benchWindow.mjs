// @ts-check
// A fresh workbench for the benches that drive one (sessionSwitchBench.mjs, largeToolBench.mjs): code-server with
// `settings`, the extension at `root` loaded as the UI tests load it, and Chromium on a new page with `init` as an
// init script, opened on a new workspace and settled (the Explorer lists it).
import path from 'node:path';
import {
  EXTENSION_ROOT, launchBrowser, linkExtension, makeTmp, makeWorkspace, payloadNeedsSmokeTestDriver, startServer,
} from '../harness/harness.mjs';

/**
 * @template A
 * @param {{ version: string, settings: Record<string, unknown>, root?: string, viewport: { width: number, height: number },
 *   init: (arg: A) => void, initArg: A, tmpPrefix: string }} o
 */
export async function openBenchWindow(o) {
  const root = o.root ?? EXTENSION_ROOT;
  const tmp = makeTmp(o.tmpPrefix);
  const load = payloadNeedsSmokeTestDriver(o.version) ? 'link' : 'dev';
  const extensionsDir = path.join(tmp, 'extensions');
  if (load === 'link') linkExtension(extensionsDir, root);
  const server = await startServer({ version: o.version, forPayload: load === 'dev', settings: o.settings, extensionsDir, quiet: true });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: o.viewport });
    await context.addInitScript(o.init, o.initArg);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const workspace = makeWorkspace(path.join(tmp, 'workspace'));
    const payload = /** @type {[string, string][]} */ (load === 'dev' ? [['extensionDevelopmentPath', server.remote(root)]] : []);
    await page.goto(server.url({ payload, folder: workspace }), { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 30_000 }).catch(() => {});
    return { tmp, server, browser, page, close: async () => { await browser.close(); await server.stop(); } };
  } catch (error) {
    await browser.close();
    await server.stop();
    throw error;
  }
}
