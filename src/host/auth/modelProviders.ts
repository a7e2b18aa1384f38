/**
 * Model providers (`providers/list`, `providers/set`, `providers/disable`; UNSTABLE,
 * https://agentclientprotocol.com/rfds/custom-llm-endpoint): an agent that advertises `agentCapabilities.providers`
 * lets the user route its LLM requests to their own endpoint. None of these is ever sent to an agent without the
 * capability. What the user sets (protocol, base URL, optional API key) is kept in SecretStorage (src/host/auth/secrets.ts)
 * and set again at every start of the agent, before any session is created (the RFD's "configure providers before
 * creating or loading sessions"). The key is registered with the secret masker before it is sent, so the ACP trace
 * shows `***`, and travels only in `providers/set.headers` (src/host/auth/providerConfig.ts names the header).
 * docs/acp-features.md#accounts-and-model-providers.
 */
import * as vscode from 'vscode';
import { settingAnswerMs, withAnswerTimeout } from '../../acp/answerTimeout';
import type { ProviderView, ProvidersView } from '../../shared/accountModel';
import { inert } from '../../shared/inertText';
import type { AgentHost } from '../agentHost';
import { providerViews, setProviderParams } from './providerConfig';
import type { AgentSecrets, SavedProvider } from './secrets';

/** What the user answered in the Set flow. */
export interface ProviderAnswer {
  readonly apiType: string;
  readonly baseUrl: string;
  /** The key to send; absent: none, unless {@link keepSavedKey}. */
  readonly apiKey?: string;
  /** Send the key saved for this provider again. */
  readonly keepSavedKey?: boolean;
}

/** The questions of the Set flow (a VS Code input flow in the product; scripted answers in tests). */
export interface ProviderPrompter {
  /** Asks for the protocol (one of `provider.supported`), the base URL and the key; undefined: cancelled. */
  ask(agentName: string, provider: ProviderView, saved: { readonly apiType: string; readonly baseUrl: string; readonly hasKey: boolean } | undefined): Promise<ProviderAnswer | undefined>;
}

/** What the providers need from the session manager. */
export interface ModelProvidersDeps {
  readonly secrets: Pick<AgentSecrets, 'providersFor' | 'storeProvider'> | undefined;
  /** Masks a key in every log before it is sent. */
  readonly addSecret: (value: string) => void;
  readonly prompter: () => ProviderPrompter;
  /** The view of an agent changed. */
  readonly changed: (host: AgentHost) => void;
}

interface State {
  providers: ProviderView[];
  busy: boolean;
  error?: string;
}

/** True when the agent advertises `providers`. */
export function hasProviders(host: AgentHost): boolean {
  return !!host.agentCapabilities?.providers;
}

/** The model providers of the running agents. */
export class ModelProviders {
  private readonly _states = new WeakMap<AgentHost, State>();

  constructor(private readonly deps: ModelProvidersDeps) {}

  /** The chat's view, for an agent with the capability. */
  view(host: AgentHost): ProvidersView | undefined {
    if (!hasProviders(host)) return undefined;
    const s = this.state(host);
    return { providers: s.providers, ...(s.busy ? { busy: true } : {}), ...(s.error ? { error: s.error } : {}) };
  }

  private state(host: AgentHost): State {
    let s = this._states.get(host);
    if (!s) this._states.set(host, (s = { providers: [], busy: true }));
    return s;
  }

  private update(host: AgentHost, patch: Partial<State>): void {
    const s = this.state(host);
    Object.assign(s, patch);
    if ('error' in patch && patch.error === undefined) delete s.error;
    this.deps.changed(host);
  }

  /** Asks the agent for its providers (`providers/list`). */
  async refresh(host: AgentHost): Promise<void> {
    if (!hasProviders(host)) return;
    try {
      const res = await withAnswerTimeout('providers/list', settingAnswerMs, (t) => host.connection.request('providers/list', {}, t));
      this.update(host, { providers: providerViews(res.providers), busy: false });
    } catch (error) {
      this.fail(host, `Could not list the model providers of ${host.definition.name}: ${messageOf(error)}`, false);
    }
  }

  /**
   * Sets the saved providers again on a freshly started agent (before its sessions are created). A failure is
   * shown and logged; the agent starts anyway, with its own defaults for that provider.
   */
  async reapply(host: AgentHost, token?: vscode.CancellationToken): Promise<void> {
    if (!hasProviders(host) || !this.deps.secrets) return;
    const saved = await this.deps.secrets.providersFor(host.definition.id);
    for (const [providerId, p] of Object.entries(saved)) {
      if (token?.isCancellationRequested) return;
      try {
        await this.send(host, providerId, p);
        host.log.info(`model provider '${providerId}' set again: ${p.apiType} ${p.baseUrl}${p.apiKey ? ' (with the saved key)' : ''}`);
      } catch (error) {
        this.fail(host, `Could not set the model provider '${providerId}' of ${host.definition.name} again: ${messageOf(error)}`, true);
      }
    }
  }

  /** Set: asks the user (protocol, base URL, key), sends `providers/set`, keeps it; resolves true when set. */
  async set(host: AgentHost, providerId: string): Promise<boolean> {
    const provider = this.known(host, providerId);
    if (!provider) return false;
    const stored = (await this.deps.secrets?.providersFor(host.definition.id))?.[providerId];
    const saved = stored ?? (provider.current && { ...provider.current });
    const answer = await this.deps.prompter().ask(host.definition.name, provider, saved && { apiType: saved.apiType, baseUrl: saved.baseUrl, hasKey: !!stored?.apiKey });
    if (!answer) return false;
    const apiKey = answer.keepSavedKey ? stored?.apiKey : answer.apiKey || undefined;
    const config: SavedProvider = { apiType: answer.apiType, baseUrl: answer.baseUrl.trim(), ...(apiKey ? { apiKey } : {}) };
    this.update(host, { busy: true, error: undefined });
    try {
      await this.send(host, providerId, config);
    } catch (error) {
      this.fail(host, `Could not set the model provider '${providerId}' of ${host.definition.name}: ${messageOf(error)}`, true);
      return false;
    }
    host.log.info(`model provider '${providerId}' set: ${config.apiType} ${config.baseUrl}${apiKey ? ' (with an API key)' : ''}`);
    await this.keep(host, providerId, config);
    await this.refresh(host);
    return true;
  }

  /** Disable (`providers/disable`), never for a provider the agent marks `required`; forgets the saved one. */
  async disable(host: AgentHost, providerId: string): Promise<boolean> {
    const provider = this.known(host, providerId);
    if (!provider) return false;
    if (provider.required) {
      this.fail(host, `The model provider '${providerId}' of ${host.definition.name} is required and cannot be disabled.`, true);
      return false;
    }
    this.update(host, { busy: true, error: undefined });
    try {
      await withAnswerTimeout('providers/disable', settingAnswerMs, (t) => host.connection.request('providers/disable', { providerId }, t));
    } catch (error) {
      this.fail(host, `Could not disable the model provider '${providerId}' of ${host.definition.name}: ${messageOf(error)}`, true);
      return false;
    }
    host.log.info(`model provider '${providerId}' disabled`);
    await this.keep(host, providerId, undefined);
    await this.refresh(host);
    return true;
  }

  private known(host: AgentHost, providerId: string): ProviderView | undefined {
    if (!hasProviders(host)) {
      this.fail(host, `${host.definition.name} does not let you configure model providers.`, true);
      return undefined;
    }
    const provider = this.state(host).providers.find((p) => p.providerId === providerId);
    if (!provider) this.fail(host, `${host.definition.name} has no model provider '${providerId}'.`, true);
    return provider;
  }

  private send(host: AgentHost, providerId: string, p: SavedProvider): Promise<unknown> {
    if (p.apiKey) this.deps.addSecret(p.apiKey);
    const params = setProviderParams(providerId, p.apiType, p.baseUrl, p.apiKey);
    return withAnswerTimeout('providers/set', settingAnswerMs, (t) => host.connection.request('providers/set', params, t));
  }

  private async keep(host: AgentHost, providerId: string, p: SavedProvider | undefined): Promise<void> {
    try {
      await this.deps.secrets?.storeProvider(host.definition.id, providerId, p);
    } catch (error) {
      this.fail(host, `The model provider '${providerId}' is set, but could not be kept for the next start: ${messageOf(error)}`, true);
    }
  }

  private fail(host: AgentHost, message: string, notify: boolean): void {
    host.log.warn(message);
    this.update(host, { busy: false, error: message });
    if (notify) void vscode.window.showErrorMessage(inert.message`${message}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
