/**
 * Whether reopening a stored chat needs its agent at all. SessionManager.open reopens a session with
 * `session/resume` or `session/load` (https://agentclientprotocol.com/protocol/session-setup) and falls
 * back to a read-only transcript when the agent can do neither; learning that takes an agent process.
 * This remembers, per agent (as configured: its command and arguments), what it advertised when it last
 * started, so a chat restored after a reload opens read-only without starting an agent that is known to
 * be unable to reopen it (docs/chat.md). No `vscode` import: unit-tested.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import type { AgentCapabilities } from '../../acp/schema/types.gen';
import type { AgentDefinition } from '../../agents/agentDefinition';

/** Where the abilities are kept (the extension's `globalState`: an agent is the same in every window). */
export interface ReopenMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The key in {@link ReopenMemory}. */
export const reopenAbilityKey = 'switchboard.reopenAbility';

const abilitySchema = z.object({ fingerprint: z.string(), resume: z.boolean(), load: z.boolean() });
const abilitiesSchema = z.record(z.string(), abilitySchema);
type Ability = z.infer<typeof abilitySchema>;

/** At most this many agents are remembered (the most recently started). */
const maxAgents = 50;

/** Identifies an agent's program: a changed command or argument list (an upgrade, a new flag) is a new agent. */
function fingerprint(def: Pick<AgentDefinition, 'command' | 'args'>): string {
  // hashed: arguments may carry tokens, which globalState must not keep in clear
  return createHash('sha256').update(JSON.stringify([def.command, ...def.args])).digest('hex').slice(0, 32);
}

/** What agents could do when they last started, kept across windows and reloads. */
export class ReopenPolicy {
  constructor(private readonly memory: ReopenMemory | undefined) {}

  /** Records what an agent advertised in `initialize` (only writes when it changed). */
  remember(def: AgentDefinition, caps: AgentCapabilities | undefined): void {
    if (!this.memory) return;
    const all = this.read();
    const next: Ability = { fingerprint: fingerprint(def), resume: !!caps?.sessionCapabilities?.resume, load: !!caps?.loadSession };
    const old = all[def.id];
    if (old && old.fingerprint === next.fingerprint && old.resume === next.resume && old.load === next.load) return;
    delete all[def.id];
    const kept = Object.entries(all).slice(-(maxAgents - 1));
    void this.memory.update(reopenAbilityKey, Object.fromEntries([...kept, [def.id, next]]));
  }

  /**
   * True only when this agent, as configured now, is known to neither resume nor load: its stored chats
   * open read-only without starting it. Unknown agents (never started, or since changed) are not.
   */
  knownUnable(def: AgentDefinition): boolean {
    const ability = this.read()[def.id];
    return !!ability && ability.fingerprint === fingerprint(def) && !ability.resume && !ability.load;
  }

  /**
   * True when this agent, as configured now, resumed sessions when it last started (`session/resume`, no
   * replay): a chat reopened from the store shows its transcript at once and connects behind it
   * (SessionManager.open, `atOnce`). Unknown agents are not.
   */
  knownToResume(def: AgentDefinition): boolean {
    const ability = this.read()[def.id];
    return !!ability && ability.fingerprint === fingerprint(def) && ability.resume;
  }

  private read(): Record<string, Ability> {
    const parsed = abilitiesSchema.safeParse(this.memory?.get(reopenAbilityKey));
    return parsed.success ? { ...parsed.data } : {};
  }
}
