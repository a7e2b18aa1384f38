/**
 * Registers the `@vscode/webview-ui-toolkit` elements the chat uses, once. The toolkit is deprecated
 * upstream (archived 2025-01); only `webview/components/*` may import it, so that a move to its
 * replacement (`@vscode-elements/elements`) touches this folder alone (docs/chat.md). It is
 * bundled into `dist/webview/main.js` (loaded by nonce) and styles itself with constructable style sheets,
 * which the CSP allows.
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeCheckbox, vsCodeDropdown, vsCodeOption } from '@vscode/webview-ui-toolkit';

let registered = false;

/** Defines the toolkit's custom elements (idempotent). */
export function ensureToolkit(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeCheckbox(), vsCodeDropdown(), vsCodeOption());
}
