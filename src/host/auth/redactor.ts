/**
 * Redactor: replaces secret values (env_var login values kept in SecretStorage) with `***` in every line
 * written to an agent's log channel, including the ACP traffic trace. A secret must never reach a log
 * (logs get copied into bug reports), so the log channel an agent host writes to is wrapped by {@link redactingLog}.
 * No runtime vscode import: unit tests run this in plain node.
 */
import type * as vscode from 'vscode';

/** What a redacted value is replaced with. */
export const redactedMark = '***';
// values shorter than this are not redacted: masking "1" or "ab" would garble every log line
const minSecretLength = 4;

/** A set of secret values and a function that masks them in text. */
export class Redactor {
  private readonly _values = new Set<string>();
  private _pattern: RegExp | undefined;

  /** Adds values to mask (empty and very short values are ignored). */
  add(...values: readonly string[]): void {
    let changed = false;
    for (const v of values) {
      if (v.length < minSecretLength || this._values.has(v)) continue;
      this._values.add(v);
      // the JSON-escaped form too, since the ACP trace logs JSON.stringify output
      const escaped = JSON.stringify(v).slice(1, -1);
      if (escaped !== v) this._values.add(escaped);
      changed = true;
    }
    if (changed) this._pattern = undefined;
  }

  /** Stops masking these values (after a log out). */
  remove(...values: readonly string[]): void {
    for (const v of values) {
      this._values.delete(v);
      this._values.delete(JSON.stringify(v).slice(1, -1));
    }
    this._pattern = undefined;
  }

  /** Number of masked values. */
  get size(): number {
    return this._values.size;
  }

  /** `text` with every known secret replaced by {@link redactedMark}. */
  redact(text: string): string {
    if (this._values.size === 0) return text;
    // longest first, so a secret that contains another is masked whole
    this._pattern ??= new RegExp([...this._values].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
    return text.replace(this._pattern, redactedMark);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const writers = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);

/**
 * Wraps a log channel so that everything written through it is redacted first. Every other member
 * (show, logLevel, onDidChangeLogLevel, dispose …) is passed through unchanged.
 */
export function redactingLog(channel: vscode.LogOutputChannel, redactor: Redactor): vscode.LogOutputChannel {
  const redactArg = (a: unknown): unknown => (typeof a === 'string' ? redactor.redact(a) : a instanceof Error ? redactError(a, redactor) : a);
  return new Proxy(channel, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === 'string' && writers.has(prop) && typeof value === 'function') {
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(redactArg));
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function redactError(e: Error, redactor: Redactor): Error {
  const copy = new Error(redactor.redact(e.message));
  copy.name = e.name;
  if (e.stack) copy.stack = redactor.redact(e.stack);
  return copy;
}
