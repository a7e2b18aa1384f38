/**
 * AgentSecrets: what the user gave Switchboard for an agent that must stay secret, kept only in VS Code's
 * SecretStorage (the OS keychain), one JSON entry per agent and kind, never in settings:
 * - the values of its `env_var` login method (https://agentclientprotocol.com/protocol/initialization), which
 *   reach the agent as environment variables when it is spawned;
 * - the values of the headers of an agent served over WebSocket or HTTP (`transport.headers`: docs/remote-agents.md),
 *   sent at every connection;
 * - the model providers the user set (`providers/set`, UNSTABLE: docs/acp-features.md#accounts-and-model-providers)
 *   with their API keys, set again at every start of the agent.
 * Every value read or stored is registered with the {@link Redactor} first, so it never appears in a log.
 */
import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { Redactor } from './redactor';

const envSchema = z.record(z.string(), z.string());
const providerSchema = z.object({ apiType: z.string().check(z.minLength(1)), baseUrl: z.string().check(z.minLength(1)), apiKey: z.optional(z.string().check(z.minLength(1))) });
const providersSchema = z.record(z.string(), providerSchema);

/** A model provider the user set, kept to be set again at every start of the agent. */
export type SavedProvider = z.infer<typeof providerSchema>;

/** Per-agent secrets. */
export class AgentSecrets {
  constructor(private readonly storage: vscode.SecretStorage, private readonly redactor: Redactor) {}

  private async read<T>(key: string, schema: z.ZodMiniType<T>): Promise<T | undefined> {
    const raw = await this.storage.get(key);
    if (!raw) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const result = schema.safeParse(parsed);
    return result.success ? result.data : undefined;
  }

  private envKey(agentId: string): string {
    return `switchboard.agentEnv.${agentId}`;
  }

  private headersKey(agentId: string): string {
    return `switchboard.agentHeaders.${agentId}`;
  }

  private providersKey(agentId: string): string {
    return `switchboard.providers.${agentId}`;
  }

  /** The name → value map under `key` (empty when none); its values are masked in logs from now on. */
  private async namedValues(agentId: string, key: string): Promise<Record<string, string>> {
    const values = (await this.read(key, envSchema)) ?? {};
    this.redactor.addNamed(agentId, values);
    return values;
  }

  /** Merges `values` into the map under `key`; an empty value removes its name. */
  private async mergeNamedValues(agentId: string, key: string, values: Readonly<Record<string, string>>): Promise<void> {
    const current = await this.namedValues(agentId, key);
    for (const [name, value] of Object.entries(values)) {
      if (value) current[name] = value;
      else delete current[name];
    }
    this.redactor.addNamed(agentId, current);
    await this.storage.store(key, JSON.stringify(current));
  }

  /** The stored variables of an agent (empty when none); they are masked in logs from now on. */
  envFor(agentId: string): Promise<Record<string, string>> {
    return this.namedValues(agentId, this.envKey(agentId));
  }

  /** Stores (merges) variables of an agent; empty values remove that variable. */
  store(agentId: string, values: Readonly<Record<string, string>>): Promise<void> {
    return this.mergeNamedValues(agentId, this.envKey(agentId), values);
  }

  /** The stored header values of an agent served elsewhere (empty when none); masked in logs from now on. */
  headersFor(agentId: string): Promise<Record<string, string>> {
    return this.namedValues(agentId, this.headersKey(agentId));
  }

  /** Stores (merges) header values of an agent; an empty value removes that header. */
  storeHeaders(agentId: string, values: Readonly<Record<string, string>>): Promise<void> {
    return this.mergeNamedValues(agentId, this.headersKey(agentId), values);
  }

  /** Forgets the header values of an agent (the server refused them: they are asked for again). */
  async forgetHeaders(agentId: string): Promise<void> {
    await this.storage.delete(this.headersKey(agentId));
  }

  /** Forgets every stored variable of an agent (Log Out). Returns whether there were any. */
  async clear(agentId: string): Promise<boolean> {
    const current = await this.envFor(agentId);
    await this.storage.delete(this.envKey(agentId));
    return Object.keys(current).length > 0;
  }

  /** The model providers set for an agent, by provider id; their keys are masked in logs from now on. */
  async providersFor(agentId: string): Promise<Record<string, SavedProvider>> {
    const saved = (await this.read(this.providersKey(agentId), providersSchema)) ?? {};
    for (const p of Object.values(saved)) if (p.apiKey) this.redactor.add(p.apiKey);
    return saved;
  }

  /** Keeps (or, with undefined, forgets) the provider `providerId` of an agent. */
  async storeProvider(agentId: string, providerId: string, provider: SavedProvider | undefined): Promise<void> {
    const saved = await this.providersFor(agentId);
    if (provider) {
      if (provider.apiKey) this.redactor.add(provider.apiKey);
      saved[providerId] = provider;
    } else {
      delete saved[providerId];
    }
    if (Object.keys(saved).length) await this.storage.store(this.providersKey(agentId), JSON.stringify(saved));
    else await this.storage.delete(this.providersKey(agentId));
  }
}
