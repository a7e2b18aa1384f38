// @ts-check
// The XSS corpus (agent text is untrusted), end to end in the real workbench: the scripted agent of
// test/fixtures/agents/scenarios/xss.json puts 52 payloads in agent text, thoughts, tool titles, raw input,
// diff paths and text, locations, terminal output, plan entries, the session title, a resource link,
// command descriptions and hints, config-option names and permission options. They render as text: no
// payload runs (the marker `window.__xss` is never set in any frame, no dialog opens), nothing is fetched
// (no request to xss.invalid, none from a webview frame to another host), and the webview's DOM holds no
// executable or fetching markup. The test also acts like a user on the rendered corpus: it hovers and
// clicks the transcript, expands every collapsible, tabs through it and opens the slash-command menu.
// Screenshots: test-results/screenshots/<version>/xss-*.png
import { frameOf, markdownSettings, openSession, sendPrompt } from './markdownAgents.mjs';

export const name = 'xss';
export const sharedWindow = true;
export const settings = markdownSettings;
export const timeout = 180_000;

const local = /^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
/** The webview's own resources (`asWebviewUri`): answered by VS Code's service worker, never the network. */
const webviewResource = /\.vscode-resource\.vscode-cdn\.net$/;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  /** @type {string[]} */
  const dialogs = [];
  /** @type {string[]} */
  const leaks = [];
  page.on('dialog', (d) => { dialogs.push(`${d.type()}: ${d.message()}`); void d.dismiss().catch(() => {}); });
  page.context().on('request', (r) => {
    const url = r.url();
    let fromWebview = false;
    try { fromWebview = /webview/i.test(r.frame().url()); } catch { /* a service worker's request */ }
    let host = '';
    try { host = new URL(url).hostname; } catch { /* data: and the like */ }
    if (url.includes('xss.invalid') || (fromWebview && /^(?:https?|wss?):/i.test(url) && !local.test(host) && !webviewResource.test(host))) leaks.push(url);
  });

  const chat = await openSession(t, 'Scripted XSS corpus');
  const frame = await frameOf(chat);
  await sendPrompt(t, chat, 'render the corpus');

  // the turn ends with a permission request whose options are payloads
  const dialog = chat.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 60_000 });
  await chat.locator('[data-testid="agent-message"]', { hasText: 'End of the corpus.' }).waitFor({ timeout: 30_000 });
  t.expect(true, 'the corpus was streamed and the permission dialog is shown');
  await t.screenshot('xss-rendered');

  // the payloads are shown as text, where they were put
  const answer = (await chat.locator('[data-testid="agent-message"]').first().textContent()) ?? '';
  t.expect(answer.includes('<script>window.__xss=1</script>') && answer.includes('<img src=x onerror="window.__xss=2">'), 'agent text shows the payloads as text');
  // a collapsed thought's text is rendered after the answer's on a loaded machine: wait for it, then read it
  const thought = chat.locator('[data-testid="thought"]');
  await thought.filter({ hasText: '<svg onload="window.__xss=3">' }).waitFor({ state: 'attached', timeout: 10_000 }).catch(() => {});
  t.expect(((await thought.textContent()) ?? '').includes('<svg onload="window.__xss=3">'), 'the thought shows the payloads as text');
  t.expect(((await chat.locator('[data-testid="tool-call"]').first().textContent()) ?? '').includes('onerror="window.__xss=2"'), 'the tool title shows its payload as text');
  await chat.locator('[data-testid="terminal"]', { hasText: 'window.__xss=54' }).first().waitFor({ timeout: 30_000 });
  t.expect(true, 'the terminal output shows its payloads as text');

  // act like a user on the corpus: expand collapsibles, hover, click text, tab around
  for (const summary of await chat.locator('#transcript summary').all()) await summary.click({ timeout: 2000 }).catch(() => {});
  const box = await chat.locator('#transcript').boundingBox();
  if (box) {
    for (let i = 0; i < 12; i++) {
      const x = box.x + 20 + ((i * 97) % Math.max(1, box.width - 40));
      const y = box.y + 20 + ((i * 61) % Math.max(1, box.height - 40));
      await page.mouse.move(x, y, { steps: 3 });
    }
    await page.mouse.click(box.x + box.width / 2, box.y + 10);
  }
  await chat.locator('[data-testid="agent-message"] p').first().click({ timeout: 5000 }).catch(() => {});
  await chat.locator('[data-testid="composer-input"]').click();
  for (let i = 0; i < 25; i++) await page.keyboard.press('Shift+Tab');
  // synthetic events on every element: an inline handler left behind would run
  await frame.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll('#transcript *, #header *'))) {
      for (const type of ['mouseover', 'mouseenter', 'focus', 'error', 'load', 'toggle', 'animationstart', 'begin']) el.dispatchEvent(new Event(type));
    }
  });
  // the slash-command menu shows the command descriptions
  await chat.locator('[data-testid="composer-input"]').click();
  await page.keyboard.type('/cmd');
  await page.waitForTimeout(1000);
  await t.screenshot('xss-commands');
  await page.keyboard.press('Escape');
  await chat.locator('[data-testid="composer-input"]').fill('');

  // answer the permission with the payload-named reject option; the turn ends
  await chat.locator('[data-testid="permission-option"][data-kind="reject_once"]').click();
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Corpus done:' }).waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500); // anything delayed (timers, image errors) would have run by now

  // nothing ran, in any frame
  /** @type {string[]} */
  const markers = [];
  for (const f of page.frames()) {
    const v = await f.evaluate(() => /** @type {{ __xss?: unknown }} */ (/** @type {unknown} */ (window)).__xss).catch(() => undefined);
    if (v !== undefined) markers.push(`${f.url().slice(0, 80)}: ${String(v)}`);
  }
  t.expect(markers.length === 0, `no payload ran: window.__xss is unset in all ${page.frames().length} frames ${JSON.stringify(markers)}`);
  t.expect(dialogs.length === 0, `no dialog opened ${JSON.stringify(dialogs)}`);
  t.expect(leaks.length === 0, `no request left the page ${JSON.stringify(leaks)}`);

  // and the webview's DOM holds nothing executable or fetching
  const audit = await frame.evaluate(() => {
    /** @type {string[]} */
    const bad = [];
    // VS Code injects its own bootstrap script into the head; the body has our bundle, inline with its nonce
    // (src/chatHost/html.ts), and nothing else
    const scripts = Array.from(document.scripts);
    if (scripts.some((s) => /__xss/.test(s.textContent ?? ''))) bad.push('a script with a payload');
    const bodyScripts = Array.from(document.body.querySelectorAll('script'));
    const bundle = bodyScripts[0];
    if (bodyScripts.length !== 1 || bundle.src || !bundle.nonce || (bundle.textContent ?? '').length < 100_000) bad.push(`body scripts: ${bodyScripts.map((s) => s.src || `inline, ${(s.textContent ?? '').length} characters${s.nonce ? ', with a nonce' : ''}`).join('; ')}`);
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      if (['iframe', 'object', 'embed', 'form', 'base', 'meta', 'link', 'audio', 'video', 'source', 'math', 'noscript', 'marquee'].includes(tag)) bad.push(`<${tag}>`);
      if (tag === 'style' && el.closest('#transcript, #header')) bad.push('<style> in the content');
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) bad.push(`<${tag} ${a.name}>`);
        if (/^(?:href|xlink:href|action|formaction|srcdoc|background|poster)$/i.test(a.name) && el.closest('#transcript, #header')) bad.push(`<${tag} ${a.name}="${a.value.slice(0, 40)}">`);
        if (a.name === 'src' && tag === 'img' && !/^data:image\/(?:png|jpe?g|gif|webp);/i.test(a.value)) bad.push(`<img src="${a.value.slice(0, 40)}">`);
        if (a.name === 'style' && /url\(/i.test(a.value)) bad.push(`<${tag} style=url()>`);
        if (a.name === 'data-href' && /^\s*(?:javascript|vbscript|data|command):/i.test(a.value)) bad.push(`<${tag} data-href="${a.value.slice(0, 40)}">`);
      }
    }
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
    return { bad: [...new Set(bad)].slice(0, 20), csp, elements: document.body.querySelectorAll('*').length };
  });
  t.expect(audit.bad.length === 0, `the webview DOM (${audit.elements} elements) has no executable or fetching markup ${JSON.stringify(audit.bad)}`);
  // images: the webview's resource roots (VS Code's cspSource) and data: only
  const img = (/img-src ([^;]*)/.exec(audit.csp)?.[1] ?? '').trim().split(/\s+/);
  const imgOk = img.includes('data:') && img.every((s) => s === 'data:' || s === "'self'" || /vscode/.test(s));
  t.expect(/default-src 'none'/.test(audit.csp) && /script-src 'nonce-[^']+'(?:;|$)/.test(audit.csp) && /connect-src 'none'/.test(audit.csp) && imgOk,
    `the CSP is strict: ${audit.csp}`);
  await t.screenshot('xss-done');
}
