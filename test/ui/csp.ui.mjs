// @ts-check
// The chat webview's own Content Security Policy is never violated: from the chat's first load through a
// whole Demo agent `/tour` (Markdown, a plan, tool calls, a diff, a terminal, the permission dialog and its
// answer), not one `securitypolicyviolation` event fires in the chat frame, and the browser logs no
// "Refused to …" / "Content Security Policy" message from it.
//
// How the load-time violations are caught: VS Code loads a webview into a frame that first shows
// `fake.html` and then gets the chat's HTML written into it with `document.open()` / `write()`, which
// removes every event listener of the frame's window and document. An init script (run in every new frame
// before its own scripts) records violations in a window global, and re-adds its listener right after
// each `document.open()` of that frame, so it listens before the first line of the chat's HTML is parsed.
// Screenshot: test-results/screenshots/<version>/csp-tour.png

import { openDemoSession, sendSlashCommand } from './scriptedSession.mjs';

export const name = 'csp';
export const sharedWindow = true;
export const timeout = 150_000;

/** Runs in every frame of the page, before the frame's own scripts. */
function recordViolations() {
  /** @type {Window & { __sbCspViolations?: string[] }} */
  const w = window;
  if (w.__sbCspViolations) return;
  /** @type {string[]} */
  const seen = [];
  w.__sbCspViolations = seen;
  const listen = () => document.addEventListener('securitypolicyviolation', (e) => {
    seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile || e.documentURI}:${e.lineNumber}`);
  }, true);
  listen();
  // document.open() erases the listeners; listen again before anything is written
  const open = Document.prototype.open;
  Document.prototype.open = /** @type {typeof open} */ (function (/** @type {unknown[]} */ ...args) {
    const r = Reflect.apply(open, this, args);
    if (this === document) listen();
    return r;
  });
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await page.addInitScript(recordViolations);
  /** @type {string[]} */
  const logged = [];
  page.on('console', (msg) => {
    const text = msg.text();
    if (!/Content Security Policy|Refused to/i.test(text)) return;
    const url = msg.location().url ?? '';
    // the workbench's own pages are not ours: keep what the webview frames log (a violation by a script of the
    // chat is logged at its URL under dist/webview/, one by code evaluated in the frame without a URL)
    if (/vscode-cdn|vscode-resource|webview|fake\.html/i.test(url) || !url) logged.push(`${url || '(no url)'}: ${text}`);
  });

  const { chat, input } = await openDemoSession(t);
  const body = chat.locator('body');
  const violations = () => body.evaluate(() => /** @type {Window & { __sbCspViolations?: string[] }} */ (window).__sbCspViolations ?? null);
  t.expect(Array.isArray(await violations()), 'the violation recorder runs in the chat frame (installed before the chat loaded)');

  // the policy: style-src allows the nonce the toolkit reads from <meta property="csp-nonce">, never 'unsafe-inline'
  const policy = await body.evaluate(() => ({
    csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
    styleNonce: document.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') ?? '',
  }));
  const styleSrc = /style-src ([^;]*)/.exec(policy.csp)?.[1] ?? '';
  const scriptSrc = /script-src ([^;]*)/.exec(policy.csp)?.[1] ?? '';
  t.expect(policy.styleNonce.length >= 16 && styleSrc.split(/\s+/).includes(`'nonce-${policy.styleNonce}'`) && !/unsafe-inline/.test(policy.csp),
    `style-src allows the csp-nonce meta's nonce and nothing inline (${styleSrc})`);
  t.expect(!scriptSrc.includes(policy.styleNonce), 'the style nonce (readable in the DOM) is not the script nonce');

  // the recorder would see a violation: a probe the CSP blocks (an inline style without the nonce), counted
  // and then dropped from the list
  const loggedBefore = logged.length;
  const probe = await body.evaluate(async () => {
    /** @type {Window & { __sbCspViolations?: string[] }} */
    const w = window;
    const list = w.__sbCspViolations ?? [];
    const before = list.length;
    const style = document.createElement('style');
    style.textContent = '#probe{color:red}';
    document.head.append(style);
    await new Promise((r) => setTimeout(r, 200));
    style.remove();
    const caught = list.length - before;
    list.splice(before);
    return caught;
  });
  t.expect(probe === 1, `the recorder catches a violation in the chat frame (a probe without the nonce: ${probe})`);
  await page.waitForTimeout(300);
  const probeLogs = logged.splice(loggedBefore);
  t.expect(probeLogs.length >= 1, `the browser's CSP console messages of the chat frame are seen too (${probeLogs.length} for the probe)`);

  // the whole tour
  await sendSlashCommand(t, input, '/tour');
  const dialog = chat.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 15_000 }); // not in its first 300 ms
  await dialog.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  t.expect(await chat.locator('[data-testid="tool-call"]').count() >= 3, 'the tour ran to its end (tool calls shown)');
  await page.waitForTimeout(500);
  await t.screenshot('csp-tour');

  const found = await violations();
  t.expect(Array.isArray(found) && found.length === 0, `no securitypolicyviolation in the chat frame from load to the end of the tour (${JSON.stringify(found)})`);
  t.expect(logged.length === 0, `no CSP message logged by the webview (${JSON.stringify(logged)})`);
}
