/**
 * Switchboard's entry point: activation registers and returns; the rest of the extension (src/core.ts,
 * bundled as dist/core.js) is loaded on first use (docs/performance.md, "Start fast, ship small").
 *
 * At activation this file only
 * - registers every command of package.json as a stub: the first call loads the core, which registers the
 *   real commands in their place, and the call is passed on to it;
 * - creates the Sessions view and registers the Chat view's provider and the chat panels' serializer, each
 *   forwarding to the core (loaded when VS Code first asks them for something);
 * - sets the two context keys that package.json's `when` clauses read before any use.
 *
 * After activation the core loads at idle (src/coreLoader.ts: once the extension host's event loop has been on
 * time for a moment, a second or so after activation), so that the first command finds it loaded; whatever
 * comes first, a use or idle, loads it. An untrusted workspace's notice about ignored agent settings
 * (src/workbench/agents/workspaceTrust.ts) shows when it loads. The returned API loads the core when read.
 * Imports here stay tiny: `vscode`, the constants, the loader, the inert-text helpers for its one error, and
 * types.
 */
import * as vscode from 'vscode';
import type { SwitchboardApi } from './api';
import type * as CoreModule from './core';
import { chatViewId, chatViewType, promptSentKey, sessionsViewId } from './constants';
import { showPlacedChatView } from './chatHost/chatViewPlacement';
import { CoreLoader } from './coreLoader';
import { inert } from './shared/inertText';
import type { PreRegistered } from './workbench/sessions/sessionsFeature';

let loader: CoreLoader<typeof CoreModule, SwitchboardApi> | undefined;

/** Activates the extension: stubs and forwarding providers only (see the file header). */
export function activate(context: vscode.ExtensionContext): SwitchboardApi {
  const stubs: vscode.Disposable[] = [];
  const tree = new ForwardingTree();
  const chatView = new Forwarding<vscode.WebviewViewProvider>();
  const serializer = new Forwarding<vscode.WebviewPanelSerializer>();
  const sessionsView = vscode.window.createTreeView(sessionsViewId, { treeDataProvider: tree, showCollapseAll: true });
  const surfaces: PreRegistered = {
    sessionsView,
    adoptSessionsTree: (provider) => tree.adopt(provider),
    adoptChatView: (provider) => chatView.adopt(provider),
    adoptChatPanelSerializer: (s) => serializer.adopt(s),
  };
  const commands = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
  const registerStubs = () => {
    for (const { command } of commands) {
      try {
        stubs.push(vscode.commands.registerCommand(command, (...args: unknown[]) => {
          load(`for the command ${command}`);
          return vscode.commands.executeCommand(command, ...args);
        }));
      } catch {
        // a core that failed half-way registered this one: it stays
      }
    }
  };
  const coreLoader = new CoreLoader<typeof CoreModule, SwitchboardApi>({
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use or at idle, as its own bundle (esbuild.mjs, lazyModules)
    require: () => require('./core') as typeof CoreModule,
    activate: (module, how) => {
      // the core registers the same command ids: the stubs go first (synchronously, so no call falls between)
      for (const d of stubs.splice(0)) d.dispose();
      return module.activateCore(context, surfaces, how);
    },
    failed: (error) => {
      // the commands stay (each call tries again) and say what went wrong
      if (!stubs.length) registerStubs();
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(inert.message`Switchboard could not start: ${message}`);
    },
  });
  loader = coreLoader;
  const load = (how: string): SwitchboardApi => coreLoader.load(how);
  tree.load = () => load('for the Sessions view');
  chatView.load = () => load('for the Chat view');
  serializer.load = () => load('to restore a chat panel');
  registerStubs();
  context.subscriptions.push(
    sessionsView,
    tree,
    vscode.window.registerWebviewViewProvider(chatViewId, {
      resolveWebviewView: (view, ctx, token) => chatView.target().resolveWebviewView(view, ctx, token),
    }, { webviewOptions: { retainContextWhenHidden: false } }),
    vscode.window.registerWebviewPanelSerializer(chatViewType, {
      deserializeWebviewPanel: (panel, state) => serializer.target().deserializeWebviewPanel(panel, state),
    }),
    { dispose: () => stubs.splice(0).forEach((d) => d.dispose()) },
    coreLoader,
  );
  // read by package.json `when` clauses before anything is used: the Chat view's place, the walkthrough's last step
  showPlacedChatView(context.globalState);
  void vscode.commands.executeCommand('setContext', promptSentKey, context.globalState.get(promptSentKey, false));
  // the core loads at idle after activation, so that the first command finds it loaded; a use before that
  // loads it at once (an untrusted workspace's notice about ignored settings shows when it loads)
  coreLoader.loadAtIdle();

  // the API loads the core when a member is read; `then` is not a member (VS Code resolves the result)
  return new Proxy({} as SwitchboardApi, {
    get: (_target, key) => (key === 'then' ? undefined : Reflect.get(load('for the API'), key)),
    has: (_target, key) => key in load('for the API'),
  });
}

/** Deactivates (reload, window closed): the core stops every agent, when it was loaded. */
export function deactivate(): Promise<void> | undefined {
  return loader?.api ? loader.module?.deactivate() : undefined;
}

/** A provider registered at activation whose calls go to the core's, loading it first. */
class Forwarding<T> {
  load: () => void = () => undefined;
  private _target: T | undefined;

  adopt(target: T): void {
    this._target = target;
  }

  target(): T {
    if (!this._target) this.load();
    if (!this._target) throw new Error('Switchboard could not load: see the Switchboard output channel');
    return this._target;
  }
}

/** The Sessions view's provider: the core's, once loaded; the view loads the core when it is first shown. */
class ForwardingTree implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  load: () => void = () => undefined;
  private _target: vscode.TreeDataProvider<unknown> | undefined;
  private _subscription: vscode.Disposable | undefined;
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  adopt(target: vscode.TreeDataProvider<unknown>): void {
    this._target = target;
    this._subscription = target.onDidChangeTreeData?.((e) => this._onDidChangeTreeData.fire(e));
  }

  getChildren(element?: unknown): vscode.ProviderResult<unknown[]> {
    if (!this._target) this.load();
    return this._target?.getChildren(element) ?? [];
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (!this._target) throw new Error('the Sessions view asked for an item before it had any');
    return this._target.getTreeItem(element);
  }

  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this._target?.getParent?.(element);
  }

  dispose(): void {
    this._subscription?.dispose();
    this._onDidChangeTreeData.dispose();
  }
}
