/**
 * The host side of the chat's account chip (header) and model providers (settings popover): posts the view of
 * the session's agent (src/host/auth/agentAccounts.ts) on the webview's ready and whenever it changes, including
 * after a restart moved the session to a new agent process, and runs Log In, Log Out, Set and Disable.
 * docs/acp-features.md#accounts-and-model-providers.
 */
import * as vscode from 'vscode';
import { commandIds } from '../constants';
import { DidChangeAccountNotification, DisableProviderCommand, LogInAccountCommand, LogOutAccountCommand, SetProviderCommand } from '../shared/chatProtocol';
import type { PostNotification } from '../shared/chatProtocol';
import type { AgentAccounts } from '../host/auth/agentAccounts';
import type { AgentSession } from '../host/agentSession';
import type { IpcDispatcher } from './ipc';

/** The account chip and the providers of one chat. */
export class AccountController implements vscode.Disposable {
  private readonly _disposables: vscode.Disposable[] = [];
  /** What was posted last (the same view is not posted twice). */
  private _last = '';

  constructor(
    private readonly session: AgentSession,
    private readonly accounts: AgentAccounts | undefined,
    private readonly post: PostNotification,
  ) {
    if (accounts) this._disposables.push(accounts.onDidChange((host) => { if (host === session.host) this.sendState(); }));
    // a restart moves the session to a new process and always ends with a status change
    this._disposables.push(session.thread.onDidChange((c) => { if (c.type === 'status') this.sendState(); }));
  }

  /** Handles the chip's and the popover's commands (the dispatcher validated their params). */
  register(ipc: IpcDispatcher): void {
    const accounts = this.accounts;
    if (!accounts) return;
    ipc.on(LogInAccountCommand, () => accounts.logIn(this.session.host));
    ipc.on(LogOutAccountCommand, () => { void vscode.commands.executeCommand(commandIds.logOut, this.session.key); });
    ipc.on(SetProviderCommand, async ({ providerId }) => { await accounts.providers.set(this.session.host, providerId); });
    ipc.on(DisableProviderCommand, async ({ providerId }) => { await accounts.providers.disable(this.session.host, providerId); });
  }

  /** Posts the view (`force`: even when unchanged, for a webview that just loaded). */
  sendState(force = false): void {
    const view = this.accounts?.view(this.session.host) ?? {};
    const key = JSON.stringify(view);
    if (!force && key === this._last) return;
    this._last = key;
    this.post(DidChangeAccountNotification, view);
  }

  dispose(): void {
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}
