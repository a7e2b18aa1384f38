/**
 * Masking in the logs: every line written to the Switchboard channel and to an agent's log channel
 * (including the ACP traffic trace) goes through the host's {@link Redactor} first, so a secret never
 * reaches the Output view or the log files VS Code writes from the channels (logs get copied into bug
 * reports). The rule of what is masked is in src/shared/secretMasker.ts. No runtime vscode import: unit
 * tests run this in plain node.
 */
import type * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { minSecretLength, SecretMasker } from '../../shared/secretMasker';

export { redactedMark } from '../../shared/secretMasker';
/** The host's secret masker: one per extension host, shared by the logs, the chat's notices and the transcript store. */
export { SecretMasker as Redactor };

const writers = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);

/**
 * Wraps a log channel so that everything written through it is redacted first. Every other member
 * (show, logLevel, onDidChangeLogLevel, dispose …) is passed through unchanged. With a `scope` (an agent id),
 * the first write after values of that scope turned out too short to mask is preceded by a line naming them.
 */
export function redactingLog(channel: vscode.LogOutputChannel, redactor: SecretMasker, scope?: string): vscode.LogOutputChannel {
  const redactArg = (a: unknown): unknown => (typeof a === 'string' ? redactor.redact(a) : a instanceof Error ? redactError(a, redactor) : a);
  const tellShort = () => {
    const names = scope === undefined ? [] : redactor.takeShortNames(scope);
    if (names.length) channel.warn(`not masked in logs: the value of ${names.join(', ')} (shorter than ${minSecretLength} characters)`);
  };
  return new Proxy(channel, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === 'string' && writers.has(prop) && typeof value === 'function') {
        return (...args: unknown[]) => {
          tellShort();
          return (value as (...a: unknown[]) => unknown).apply(target, args.map(redactArg));
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function redactError(e: Error, redactor: SecretMasker): Error {
  const copy = new Error(redactor.redact(e.message));
  copy.name = e.name;
  if (e.stack) copy.stack = redactor.redact(e.stack);
  return copy;
}

/** What an agent's log channel is made for: its id and name, and its `env` when known (masked from then on). */
export type AgentLogDefinition = Pick<AgentDefinition, 'id' | 'name'> & Partial<Pick<AgentDefinition, 'env'>>;

/**
 * One redacting log channel per agent, created on first use by `create`. Each request with a definition
 * registers its `env` values (settings or registry install) as secrets first, so an edited env is masked
 * from the next start on.
 */
export class AgentLogChannels {
  private readonly _logs = new Map<string, vscode.LogOutputChannel>();

  constructor(private readonly redactor: SecretMasker, private readonly create: (agentName: string) => vscode.LogOutputChannel) {}

  /** The log channel of an agent. */
  for(def: AgentLogDefinition): vscode.LogOutputChannel {
    if (def.env) this.redactor.addNamed(def.id, def.env);
    let log = this._logs.get(def.id);
    if (!log) {
      log = redactingLog(this.create(def.name), this.redactor, def.id);
      this._logs.set(def.id, log);
    }
    return log;
  }

  dispose(): void {
    for (const l of this._logs.values()) l.dispose();
    this._logs.clear();
  }
}
