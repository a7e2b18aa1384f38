/**
 * AgentSecrets: the values a user gave for an agent's `env_var` login method
 * (https://agentclientprotocol.com/protocol/initialization), kept only in VS Code's SecretStorage (the OS
 * keychain), one JSON entry per agent. They reach the agent as environment variables when it is spawned, and
 * are registered with the {@link Redactor} before that, so they never appear in a log. They are never written
 * to settings.
 */
import type * as vscode from 'vscode';
import { z } from 'zod';
import type { Redactor } from './redactor';

const storedSchema = z.record(z.string(), z.string());

/** Per-agent secret environment variables. */
export class AgentSecrets {
  constructor(private readonly storage: vscode.SecretStorage, private readonly redactor: Redactor) {}

  private key(agentId: string): string {
    return `switchboard.agentEnv.${agentId}`;
  }

  /** The stored variables of an agent (empty when none); they are masked in logs from now on. */
  async envFor(agentId: string): Promise<Record<string, string>> {
    const raw = await this.storage.get(this.key(agentId));
    if (!raw) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return {};
    }
    const result = storedSchema.safeParse(parsed);
    if (!result.success) return {};
    this.redactor.addNamed(agentId, result.data);
    return result.data;
  }

  /** Stores (merges) variables of an agent; empty values remove that variable. */
  async store(agentId: string, values: Readonly<Record<string, string>>): Promise<void> {
    const current = await this.envFor(agentId);
    for (const [name, value] of Object.entries(values)) {
      if (value) current[name] = value;
      else delete current[name];
    }
    this.redactor.addNamed(agentId, current);
    await this.storage.store(this.key(agentId), JSON.stringify(current));
  }

  /** Forgets every stored variable of an agent (Log Out). Returns whether there were any. */
  async clear(agentId: string): Promise<boolean> {
    const current = await this.envFor(agentId);
    await this.storage.delete(this.key(agentId));
    return Object.keys(current).length > 0;
  }
}
