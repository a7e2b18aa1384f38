/**
 * The roots of one session (https://agentclientprotocol.com/protocol/session-setup): its `cwd`, its
 * `additionalDirectories` and the workspace folders on disk, each resolved to its real path. Computed once and
 * again whenever the workspace folders change.
 */
import * as vscode from 'vscode';
import { isInside, realRoots } from './pathPolicy';
import type { SessionContext } from '../sessionContext';

/** The folders a session may use without asking. */
export class SessionRoots implements vscode.Disposable {
  private _roots: Promise<string[]> | undefined;
  private readonly _subscription: vscode.Disposable;

  constructor(private readonly ctx: Pick<SessionContext, 'cwd' | 'additionalDirectories'>) {
    this._subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => { this._roots = undefined; });
  }

  /** The roots as given (absolute paths), before symlinks are resolved. */
  get declared(): string[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    return [this.ctx.cwd, ...this.ctx.additionalDirectories, ...folders];
  }

  /** The real paths of the roots, deduplicated. */
  real(): Promise<string[]> {
    this._roots ??= realRoots(this.declared).catch((error: unknown) => {
      this._roots = undefined;
      throw error;
    });
    return this._roots;
  }

  /** True when a real path is one of the roots or inside one. */
  async contains(realPath: string): Promise<boolean> {
    return isInside(realPath, await this.real());
  }

  dispose(): void {
    this._subscription.dispose();
  }
}
