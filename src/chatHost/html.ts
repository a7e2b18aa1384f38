/**
 * The chat webview's HTML: a strict CSP with a fresh nonce per render, no inline handlers or styles,
 * `connect-src 'none'`, and every asset through `asWebviewUri` (docs/chat.md).
 * Images load only from the webview's resource roots (`cspSource`) and `data:` (pasted images); agent
 * Markdown never makes the webview fetch anything (webview/views/markdown.ts), and the CSP would stop it if
 * it tried.
 *
 * Styles: the stylesheet from the resource roots, plus `<style>` elements that carry the style nonce. The
 * only one is the webview toolkit's: FAST's focus-visible probe (`canUseFocusVisible()` in
 * `@microsoft/fast-web-utilities`) inserts an empty `<style>` once, with the nonce it reads from
 * `<meta property="csp-nonce">`; without that meta every chat load logged a CSP violation. The style nonce
 * is not the script nonce: the meta's content is plain DOM (the browser hides only `nonce` attributes), so
 * what it gives away must not let a script in.
 * The toolkit's own styles are constructable style sheets, which the CSP does not govern.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';

/** A new nonce for one render. */
export function nonce(): string {
  return randomBytes(18).toString('base64');
}

/** The Content Security Policy of Switchboard's webviews (the chat, the compare view): nothing but its own assets. */
export function webviewCsp(webview: vscode.Webview, scriptNonce: string, styleNonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'nonce-${styleNonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${scriptNonce}'`,
    "connect-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "worker-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The folders the webview may load from. */
export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** The chat's script and stylesheet as put in its page, by the webview URI of their folder (they do not change while it runs). */
const inlineAssets = new Map<string, { readonly script: string; readonly style: string }>();

/**
 * The chat's script and stylesheet as text, to go inside its page. A webview loads an asset it links through the
 * workbench: in VS Code for the Web (code-server) each one is a request from the webview's service worker to the
 * workbench's busy main thread, then to the server, and in a window that is starting they took 0.4-2 s (measured
 * after Reload Window: docs/performance.md, "A chat shows fast"). Inside the page, they cost nothing to fetch. What
 * they refer to by a relative URL (the codicon font, the source maps) gets its webview URI.
 */
function chatAssets(webview: vscode.Webview, extensionUri: vscode.Uri): { readonly script: string; readonly style: string } {
  const dir = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const base = webview.asWebviewUri(dir).toString();
  const known = inlineAssets.get(base);
  if (known) return known;
  const read = (name: string) => fs.readFileSync(vscode.Uri.joinPath(dir, name).fsPath, 'utf8');
  const script = read('main.js');
  // an inline script ends at the first "</script" in it: the bundle has none (esbuild escapes it in strings and
  // the package check looks), and one that did would be refused here rather than cut short
  if (/<\/script/i.test(script)) throw new Error('dist/webview/main.js contains "</script", so it cannot go inside the chat\'s page');
  const style = read('main.css');
  if (/<\/style/i.test(style)) throw new Error('dist/webview/main.css contains "</style", so it cannot go inside the chat\'s page');
  const assets = {
    script: script.replace(/(\/\/# sourceMappingURL=)([\w.-]+\.map)\s*$/, (_m, key: string, file: string) => `${key}${base}/${file}`),
    style: style
      .replace(/url\("\.\/([\w.?-]+)"\)/g, (_m, file: string) => `url("${base}/${file}")`)
      .replace(/(\/\*# sourceMappingURL=)([\w.-]+\.map)/, (_m, key: string, file: string) => `${key}${base}/${file}`),
  };
  inlineAssets.set(base, assets);
  return assets;
}

/**
 * The page of the chat. `restore` (session, agent, cwd) is kept by the webview in its state, so the panel
 * serializer can bring the session back after a window reload. Without it the page belongs to a chat whose
 * agent is starting (startingChat.ts): its status line says so until the session's first snapshot. Its script
 * and stylesheet are inside it, each with its nonce (see {@link chatAssets}).
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, restore?: object): string {
  const n = nonce();
  const styleNonce = nonce();
  const { script, style } = chatAssets(webview, extensionUri);
  const csp = webviewCsp(webview, n, styleNonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta property="csp-nonce" content="${styleNonce}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${styleNonce}">${style}</style>
<title>${escapeHtml(title)}</title>
</head>
<body${restore ? ` data-restore="${escapeHtml(JSON.stringify(restore))}"` : ''}>
<div id="app">
  <header id="header"></header>
  ${restore ? '' : '<p class="status chat-starting" role="status" data-testid="chat-starting">Starting the agent…</p>'}
  <main id="transcript" aria-label="Conversation"></main>
  <div id="live" class="sr-only" aria-live="polite" aria-atomic="false" aria-relevant="additions" data-testid="live-region"></div>
  <footer id="composer"></footer>
</div>
<script nonce="${n}">${script}</script>
</body>
</html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page with one line of text and no script (a chat that is reconnecting, could not be restored, or is empty). */
export function messageHtml(text: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"></head><body><p style="font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 1em">${escapeHtml(text)}</p></body></html>`;
}
