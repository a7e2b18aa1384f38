/**
 * Config option changes in flight (`session/set_config_option`,
 * https://agentclientprotocol.com/protocol/session-config-options). While a change waits for its answer the
 * chat shows the chosen value, also when another answer or a `config_option_update` arrives first with the
 * agent's older state: otherwise a box the user just ticked would flip back and forth. Each answer is the
 * agent's complete set; values still in flight are laid over it until their own answer (or failure) comes.
 */
import type { SessionConfigOption } from '../../acp/schema/types.gen';
import type { AcpThread } from './thread';

/** A set of options with the values in flight laid over it (options not in `pending` are unchanged). */
export function withPendingValues(options: readonly SessionConfigOption[], pending: ReadonlyMap<string, string | boolean>): SessionConfigOption[] {
  return options.map((o) => {
    if (!pending.has(o.id)) return o;
    const value = pending.get(o.id);
    if (o.type === 'boolean' && typeof value === 'boolean') return { ...o, currentValue: value };
    if (o.type === 'select' && typeof value === 'string') return { ...o, currentValue: value };
    return o;
  });
}

/** The changes of one session's config options that wait for the agent's answer. */
export class ConfigChanges {
  private readonly pending = new Map<string, string | boolean>();
  /** The agent's own last set while changes are in flight (the thread shows it with them laid over). */
  private agentSet: SessionConfigOption[] | undefined;

  constructor(private readonly thread: AcpThread) {}

  /** The user chose `value`: the thread shows it at once. */
  begin(configId: string, value: string | boolean): void {
    this.agentSet ??= this.thread.configOptions;
    this.pending.set(configId, value);
    this.show();
  }

  /** The answer to the change of `configId` came: the agent's complete set, or undefined when it failed. */
  end(configId: string, answer: SessionConfigOption[] | undefined): void {
    this.pending.delete(configId);
    if (answer) this.agentSet = answer;
    this.show();
    if (!this.pending.size) this.agentSet = undefined;
  }

  /**
   * A `config_option_update` from the agent. Returns true when it was taken here (changes are in flight: it
   * is shown with them laid over), false when the thread applies it as usual.
   */
  agentUpdate(options: SessionConfigOption[]): boolean {
    if (!this.pending.size) return false;
    this.agentSet = options;
    this.show();
    return true;
  }

  private show(): void {
    this.thread.setConfigOptions(withPendingValues(this.agentSet ?? this.thread.configOptions, this.pending));
  }
}
