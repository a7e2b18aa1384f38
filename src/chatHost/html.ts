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

/**
 * The page of the chat. `restore` (session, agent, cwd) is kept by the webview in its state, so the panel
 * serializer can bring the session back after a window reload.
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, restore?: object): string {
  const n = nonce();
  const styleNonce = nonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'main.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'main.css'));
  const csp = webviewCsp(webview, n, styleNonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta property="csp-nonce" content="${styleNonce}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(title)}</title>
</head>
<body${restore ? ` data-restore="${escapeHtml(JSON.stringify(restore))}"` : ''}>
<div id="app">
  <header id="header"></header>
  <main id="transcript" aria-label="Conversation"></main>
  <div id="live" class="sr-only" aria-live="polite" aria-atomic="false" aria-relevant="additions" data-testid="live-region"></div>
  <footer id="composer"></footer>
</div>
<script nonce="${n}" src="${script.toString()}"></script>
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
