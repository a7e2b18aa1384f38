/**
 * AgentAccounts: what the chat and Switch Session show of an agent beyond its sessions, and what the user can
 * do about it (docs/acp-features.md#accounts-and-model-providers):
 * - its sign-in state (`auth/status`, UNSTABLE): asked once the agent is initialized and after every login or
 *   logout, only when it advertises `agentCapabilities.auth.status`; `auth/status_update` arrives through
 *   src/host/auth/authFeature.ts. Log In runs the login flow of src/host/auth/auth.ts with the agent's `authMethods`;
 * - its model providers (src/host/auth/modelProviders.ts), only when it advertises `agentCapabilities.providers`.
 * Agents without those capabilities get no new request, and the view has no part for them.
 */
import * as vscode from 'vscode';
import { settingAnswerMs, withAnswerTimeout } from '../../acp/answerTimeout';
import type { AgentAccountView } from '../../shared/accountModel';
import { inert } from '../../shared/inertText';
import type { AgentHost } from '../agentHost';
import { AuthCancelledError, parseAuthMethods } from './auth';
import { ModelProviders } from './modelProviders';
import type { ModelProvidersDeps, ProviderPrompter } from './modelProviders';

/** What the accounts need from the session manager. */
export interface AgentAccountsDeps extends Omit<ModelProvidersDeps, 'changed' | 'prompter'> {
  /** Runs the login flow (auth.ts); resolves with the host to use afterwards (a login may restart the agent). */
  readonly login: (host: AgentHost) => Promise<AgentHost>;
  /** The Set flow of model providers (VS Code's input flow in the product). */
  readonly providerPrompter: ProviderPrompter;
}

/** True when the agent advertises `auth.status`. */
export function hasAuthStatus(host: AgentHost): boolean {
  return !!host.agentCapabilities?.auth?.status;
}

/** The accounts and model providers of the running agents. */
export class AgentAccounts implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<AgentHost>();
  /** Fires with the host whose view changed. */
  readonly onDidChange = this._onDidChange.event;
  /** The model providers of the agents that advertise them. */
  readonly providers: ModelProviders;
  private _prompter: ProviderPrompter | undefined;

  constructor(private readonly deps: AgentAccountsDeps) {
    this.providers = new ModelProviders({ ...deps, prompter: () => this._prompter ?? deps.providerPrompter, changed: (h) => this._onDidChange.fire(h) });
  }

  /** Replaces the questions of the Set flow (tests answer them); undefined restores VS Code's input flow. */
  setProviderPrompter(prompter: ProviderPrompter | undefined): void {
    this._prompter = prompter;
  }

  /**
   * Runs when an agent answered `initialize`, before any session is created on it: its saved providers are set
   * again (awaited: the sessions must use them); its sign-in state and provider list are asked without waiting.
   */
  async initialized(host: AgentHost, token?: vscode.CancellationToken): Promise<void> {
    host.onDidChangeAuthStatus(() => this._onDidChange.fire(host));
    try {
      await this.providers.reapply(host, token);
    } catch (error) {
      host.log.warn(`could not set the saved model providers again: ${error instanceof Error ? error.message : String(error)}`);
    }
    void this.refreshAuthStatus(host);
    void this.providers.refresh(host);
  }

  /** The chat's view of an agent (no part for a capability it does not advertise). */
  view(host: AgentHost): AgentAccountView {
    const status = host.authStatus;
    const auth = hasAuthStatus(host) && status ? {
      ...status,
      canLogIn: parseAuthMethods(host.initializeResponse?.authMethods).length > 0,
      canLogOut: !!host.agentCapabilities?.auth?.logout,
    } : undefined;
    const providers = this.providers.view(host);
    return { ...(auth ? { auth } : {}), ...(providers ? { providers } : {}) };
  }

  /** Asks the agent for its sign-in state (`auth/status`), when it advertises `auth.status`. */
  async refreshAuthStatus(host: AgentHost): Promise<void> {
    if (!hasAuthStatus(host) || host.state === 'exited') return;
    try {
      host.setAuthStatus(await withAnswerTimeout('auth/status', settingAnswerMs, (t) => host.connection.request('auth/status', {}, t)));
    } catch (error) {
      host.log.warn(`auth/status failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Log In from the chat: the agent's login methods, then its sign-in state again (the login refreshes it). */
  async logIn(host: AgentHost): Promise<void> {
    try {
      await this.deps.login(host);
    } catch (error) {
      if (AuthCancelledError.is(error)) return;
      const message = error instanceof Error ? error.message : String(error);
      host.log.warn(`login failed: ${message}`);
      void vscode.window.showErrorMessage(inert.message`Could not log in to ${host.definition.name}: ${message}`);
    }
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
