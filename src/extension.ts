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
 * An untrusted workspace loads the core right after activation: it says whether the workspace's agent
 * settings are ignored (src/workbench/agents/workspaceTrust.ts). The returned API loads the core when read.
 * Imports here stay tiny: `vscode`, the constants, the inert-text helpers for its one error, and types.
 */
import * as vscode from 'vscode';
import type { SwitchboardApi } from './api';
import type * as CoreModule from './core';
import { chatViewId, chatViewType, promptSentKey, sessionsViewId } from './constants';
import { showPlacedChatView } from './chatHost/chatViewPlacement';
import { inert } from './shared/inertText';
import type { PreRegistered } from './workbench/sessions/sessionsFeature';

let core: { readonly module: typeof CoreModule; readonly api: SwitchboardApi } | undefined;

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
      stubs.push(vscode.commands.registerCommand(command, (...args: unknown[]) => {
        load();
        return vscode.commands.executeCommand(command, ...args);
      }));
    }
  };
  const load = (): SwitchboardApi => {
    if (core) return core.api;
    // the core registers the same command ids: the stubs go first (synchronously, so no call falls between)
    for (const d of stubs.splice(0)) d.dispose();
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, as its own bundle (esbuild.mjs, lazyModules)
      const module = require('./core') as typeof CoreModule;
      core = { module, api: module.activateCore(context, surfaces) };
      return core.api;
    } catch (error) {
      // the commands stay (each call tries again) and say what went wrong
      registerStubs();
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(inert.message`Switchboard could not start: ${message}`);
      throw error;
    }
  };
  tree.load = chatView.load = serializer.load = load;
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
  );
  // read by package.json `when` clauses before anything is used: the Chat view's place, the walkthrough's last step
  showPlacedChatView(context.globalState);
  void vscode.commands.executeCommand('setContext', promptSentKey, context.globalState.get(promptSentKey, false));
  if (!vscode.workspace.isTrusted) {
    setTimeout(() => {
      try { load(); } catch { /* load showed the error; the stubs try again on use */ }
    }, 0);
  }

  // the API loads the core when a member is read; `then` is not a member (VS Code resolves the result)
  return new Proxy({} as SwitchboardApi, {
    get: (_target, key) => (key === 'then' ? undefined : Reflect.get(load(), key)),
    has: (_target, key) => key in load(),
  });
}

/** Deactivates (reload, window closed): the core stops every agent, when it was loaded. */
export function deactivate(): Promise<void> | undefined {
  return core?.module.deactivate();
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
