/**
 * The compare view's panel (the host side of webview/compare/main.ts): one editor tab per fan-out, keyed by its
 * id. It posts the latest `CompareView` whole (again when the page says it is ready: a hidden panel's page is
 * reloaded, `retainContextWhenHidden: false`), and hands each `CompareAction` the page sends to its owner once
 * it passed the zod schema below; anything else is logged and ignored. The page is strict: a fresh nonce per
 * render, no inline script or style, assets only from dist/webview (docs/security.md). Its title comes from
 * the caller as inert text and is never part of the HTML. After a window reload the serializer finds the
 * fan-out in the page's saved state (`state.view.id`) and lets the owner attach to the panel.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { messageHtml, nonce, webviewCsp } from '../../chatHost/html';
import { compareViewType, type CompareAction, type CompareMessage, type CompareView } from '../../shared/compareView';

const runId = z.string().check(z.minLength(1), z.maxLength(256));

/** Every message the page may send; the output is exactly a `CompareAction`. */
const compareActionSchema: z.ZodMiniType<CompareAction> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('open'), runId }),
  z.strictObject({ type: z.literal('review'), runId }),
  z.strictObject({ type: z.literal('merge'), runId }),
  z.strictObject({ type: z.literal('discard'), runId }),
  z.strictObject({ type: z.literal('discardOthers'), runId }),
  z.strictObject({ type: z.literal('rerunCheck'), runId }),
]);

/** The page's saved state, as far as the serializer reads it. */
const savedStateSchema = z.object({ view: z.object({ id: z.string().check(z.minLength(1), z.maxLength(256)) }) });

/** The folder the page may load from: the bundles, nothing else. */
function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [webviewRoot(extensionUri)] };
}

/** The page: its script and stylesheet, and an empty `#app` the script fills. */
export function compareHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const scriptNonce = nonce();
  const styleNonce = nonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot(extensionUri), 'compare.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot(extensionUri), 'compare.css'));
  const csp = webviewCsp(webview, scriptNonce, styleNonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Compare runs</title>
</head>
<body>
<main id="app" aria-label="Compare runs"></main>
<script nonce="${scriptNonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** The compare view of one fan-out, in an editor tab. */
export class ComparePanel implements vscode.Disposable {
  static readonly viewType = compareViewType;
  private static readonly _open = new Map<string, ComparePanel>();

  private readonly _onDidDispose = new vscode.EventEmitter<void>();
  /** Fires when the panel was closed (or disposed). */
  readonly onDidDispose: vscode.Event<void> = this._onDidDispose.event;
  private readonly _subscriptions: vscode.Disposable[] = [];
  private _latest: CompareView | undefined;
  private _disposed = false;

  /** Opens (or reveals) the panel of fan-out `id`. */
  static show(extensionUri: vscode.Uri, id: string, title: string, onAction: (a: CompareAction) => void, column?: vscode.ViewColumn): ComparePanel {
    const open = ComparePanel._open.get(id);
    if (open) {
      open._onAction = onAction;
      open.panel.title = title;
      open.panel.reveal(column);
      return open;
    }
    const panel = vscode.window.createWebviewPanel(ComparePanel.viewType, title, column ?? vscode.ViewColumn.Active, {
      ...webviewOptions(extensionUri),
      retainContextWhenHidden: false,
      // Find in the diffs and check output
      enableFindWidget: true,
    });
    return new ComparePanel(panel, extensionUri, id, onAction);
  }

  /** The open panel of fan-out `id`. */
  static get(id: string): ComparePanel | undefined {
    return ComparePanel._open.get(id);
  }

  /** Adopts a panel VS Code restored after a window reload ({@link deserializeCompare}). */
  static adopt(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, id: string, onAction: (a: CompareAction) => void): ComparePanel {
    const open = ComparePanel._open.get(id);
    if (open) {
      open._onAction = onAction;
      if (open.panel !== panel) panel.dispose(); // the fan-out is already shown in another panel
      return open;
    }
    return new ComparePanel(panel, extensionUri, id, onAction);
  }

  private constructor(readonly panel: vscode.WebviewPanel, extensionUri: vscode.Uri, readonly id: string, private _onAction: (a: CompareAction) => void) {
    ComparePanel._open.set(id, this);
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = compareHtml(panel.webview, extensionUri);
    this._subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Shows `view` (the whole view, each time something changed); kept, and posted again when the page reloads. */
  update(view: CompareView): void {
    if (this._disposed) return;
    if (view.id !== this.id) {
      console.warn(`Switchboard: the compare view of ${this.id} was given the view of ${view.id}; ignored`);
      return;
    }
    this._latest = view;
    this.post();
  }

  private post(): void {
    if (!this._latest || this._disposed) return;
    const message: CompareMessage = { type: 'view', view: this._latest };
    // a page that is hidden or still loading misses it: it says 'ready' when it comes back, and gets it then
    this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  private receive(message: unknown): void {
    const parsed = compareActionSchema.safeParse(message);
    if (!parsed.success) {
      console.warn(`Switchboard: the compare view sent an invalid message, ignored: ${z.prettifyError(parsed.error)}`);
      return;
    }
    const action = parsed.data;
    // a page back from hidden gets the view it had; only a page with none yet (a restored panel) asks the owner
    if (action.type === 'ready' && this._latest) return this.post();
    if (action.type !== 'ready' && this._latest && !this._latest.runs.some((r) => r.id === action.runId)) {
      console.warn(`Switchboard: the compare view asked to ${action.type} a run it does not show, ignored`);
      return;
    }
    try {
      this._onAction(action);
    } catch (error) {
      console.error(`Switchboard: the compare view's ${action.type} failed:`, error);
    }
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    if (ComparePanel._open.get(this.id) === this) ComparePanel._open.delete(this.id);
    this._subscriptions.splice(0).forEach((d) => d.dispose());
    this.panel.dispose();
    this._onDidDispose.fire();
    this._onDidDispose.dispose();
  }
}

/** The fan-out id a restored page's state names (`state.view.id`, saved by webview/compare/main.ts). */
export function fanOutIdOfState(state: unknown): string | undefined {
  const parsed = savedStateSchema.safeParse(state);
  return parsed.success ? parsed.data.view.id : undefined;
}

/**
 * Restores a panel after a window reload (the worktrees' serializer, src/workbench/worktrees/worktreeRegistration.ts):
 * reads the fan-out id from the page's saved state and calls `restore(id, attach)`; the owner calls
 * `attach(onAction)` (at once or later) to bring the panel back, and until then the panel says it is restoring. A
 * panel whose state names no fan-out says so; one of a fan-out already shown elsewhere is closed.
 */
export function deserializeCompare(extensionUri: vscode.Uri, panel: vscode.WebviewPanel, state: unknown, restore: (id: string, attach: (onAction: (a: CompareAction) => void) => ComparePanel) => void): void {
  const id = fanOutIdOfState(state);
  panel.webview.options = { enableScripts: false };
  if (!id) {
    panel.webview.html = messageHtml('This comparison could not be restored: it does not say which one it showed. Close it, and open the comparison again.');
    return;
  }
  if (ComparePanel.get(id)) {
    panel.dispose();
    return;
  }
  panel.webview.html = messageHtml('Restoring the comparison…');
  try {
    restore(id, (onAction) => ComparePanel.adopt(panel, extensionUri, id, onAction));
  } catch (error) {
    console.error('Switchboard: a compare view could not be restored:', error);
    panel.webview.html = messageHtml('This comparison could not be restored.');
  }
}
