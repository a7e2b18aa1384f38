// @ts-check
// A page that runs the real chat webview bundle (dist/webview/main.js + main.css) outside VS Code, in
// headless Chromium: the same HTML skeleton and CSP as src/chatHost/html.ts, a fake
// `acquireVsCodeApi` that records what the webview posts, and the host's wire messages (snapshot + deltas)
// posted to the window as VS Code delivers them. Used by the render benchmark and the webview tests.
// Files are served from a made-up origin through request interception; every other request is recorded and
// aborted, so nothing leaves the machine (and a test can assert that nothing tried).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const ORIGIN = 'http://webview.test';
const DIST = path.join(REPO_ROOT, 'dist', 'webview');

const types = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json', '.html': 'text/html' };

/** The naive baseline bundled for the browser (esbuild, once per process). */
let naiveBundle;
async function naiveScript() {
  if (naiveBundle) return naiveBundle;
  const esbuild = await import('esbuild');
  const r = await esbuild.build({
    entryPoints: [path.join(REPO_ROOT, 'test', 'bench', 'render', 'naiveRenderer.mjs')],
    bundle: true, write: false, format: 'iife', platform: 'browser', target: 'es2022', minify: true,
    loader: { '.css': 'empty' }, logLevel: 'warning',
  });
  naiveBundle = r.outputFiles[0].text;
  return naiveBundle;
}

/** A minimal thread state (the header and composer need one). */
export function benchState(status = 'working') {
  return { sessionId: 'bench', title: 'Render benchmark', agentName: 'Bench agent', status, following: false, plan: [], commands: [] };
}

/**
 * Opens the webview in a new page of `browser`.
 * @param {import('playwright-core').Browser} browser
 * @param {{ script?: 'main' | 'naive', viewport?: { width: number, height: number } }} [o]
 */
export async function openWebview(browser, o = {}) {
  const context = await browser.newContext({ viewport: o.viewport ?? { width: 900, height: 800 } });
  const page = await context.newPage();
  /** @type {string[]} */
  const blocked = [];
  /** @type {string[]} */
  const errors = [];
  /** @type {string[]} */
  const dialogs = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => { dialogs.push(`${d.type()}: ${d.message()}`); void d.dismiss().catch(() => {}); });
  const nonce = 'bench' + Math.random().toString(36).slice(2);
  const styleNonce = 'benchstyle' + Math.random().toString(36).slice(2);
  const naive = o.script === 'naive' ? await naiveScript() : '';
  const csp = [
    "default-src 'none'", `style-src ${ORIGIN} 'nonce-${styleNonce}'`, `font-src ${ORIGIN}`, `img-src ${ORIGIN} data:`, `script-src 'nonce-${nonce}'`,
    "connect-src 'none'", "media-src 'none'", "object-src 'none'", "worker-src 'none'", "frame-src 'none'", "form-action 'none'", "base-uri 'none'",
  ].join('; ');
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta property="csp-nonce" content="${styleNonce}">
<link rel="stylesheet" href="${ORIGIN}/main.css"><title>webview</title></head>
<body><div id="app">
<header id="header"></header>
<main id="transcript" aria-label="Conversation"></main>
<div id="live" class="sr-only" aria-live="polite" aria-atomic="false" aria-relevant="additions" data-testid="live-region"></div>
<footer id="composer"></footer>
</div>
<script nonce="${nonce}">
window.__sent = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => { window.__sent.push(m); }, getState: () => undefined, setState: () => {} });
</script>
${naive ? `<script nonce="${nonce}">${naive}</script>` : `<script nonce="${nonce}" src="${ORIGIN}/main.js"></script>`}
</body></html>`;
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === `${ORIGIN}/index.html`) return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    if (url.startsWith(`${ORIGIN}/`)) {
      const file = path.join(DIST, decodeURIComponent(new URL(url).pathname.slice(1)));
      if (file.startsWith(DIST + path.sep) && fs.existsSync(file)) {
        return route.fulfill({ status: 200, contentType: types[/** @type {keyof types} */ (path.extname(file))] ?? 'application/octet-stream', body: fs.readFileSync(file) });
      }
      return route.fulfill({ status: 404, body: '' });
    }
    blocked.push(url);
    return route.abort();
  });
  await page.goto(`${ORIGIN}/index.html`);
  return { page, context, blocked, errors, dialogs, close: () => context.close() };
}
