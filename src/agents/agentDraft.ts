/**
 * The pure parts of `ACP: Add Agent…`: the arguments and environment lines the user types, the id made from
 * the name, which variables are secrets, and whether the command can be found the way a spawn finds it.
 */
import * as os from 'node:os';
import { namesSecret, maskTokens } from '../shared/secretMasker';
import { agentIdPattern } from './agentDefinition';
import { CommandNotFoundError, resolveCommand } from './resolveCommand';
import { resolveShellEnv } from './shellEnv';

/** A line the user typed that cannot be split (an unclosed quote, a pair without `=`). */
export class DraftLineError extends Error {
  override readonly name = 'DraftLineError';
}

/**
 * Splits a line into words the way a POSIX shell does for plain words, without expansion: whitespace
 * separates, `'…'` is literal, `"…"` keeps spaces and takes `\"` and `\\`, a backslash outside quotes
 * escapes a space, a quote or a backslash (and is kept before anything else, so `C:\tools\agent` stays).
 * `--model "gpt 5"` → `['--model', 'gpt 5']`; `--x=''` → `['--x=']`.
 * @throws DraftLineError on an unclosed quote
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else {
      word = (word ?? '') + (c === '\\' && /[\s"'\\]/.test(line[i + 1] ?? '') ? line[++i] : c);
    }
  }
  if (quote) throw new DraftLineError(`a ${quote === '"' ? 'double' : 'single'} quote is not closed`);
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * `KEY=VALUE` pairs separated by spaces (values may be quoted: `A=1 B="two words"`); a later key wins.
 * @throws DraftLineError naming the first word that is not a pair
 */
export function parseEnvPairs(line: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of splitWords(line)) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new DraftLineError(`"${word}" is not KEY=VALUE`);
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return env;
}

/** An id for `name` that matches the setting's pattern and is not in `taken` (`My Agent` → `my-agent`, then `my-agent-2`). */
export function agentIdFor(name: string, taken: ReadonlySet<string>): string {
  const base = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+|-+$/g, '').slice(0, 56) || 'agent';
  let id = base;
  for (let n = 2; taken.has(id) || !agentIdPattern.test(id); n++) id = `${base}-${n}`;
  return id;
}

/** True when a variable holds a secret: its name says so (`API_KEY`, `accessToken`) or its value has a token's shape. */
export function isSecretVariable(name: string, value: string): boolean {
  return namesSecret(name) || maskTokens(value) !== value;
}

/** `env` split into what may be written to settings and what belongs in secret storage. */
export function splitSecrets(env: Readonly<Record<string, string>>): { plain: Record<string, string>; secret: Record<string, string> } {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) (isSecretVariable(k, v) ? secret : plain)[k] = v;
  return { plain, secret };
}

/**
 * Why `command` would not start, as a spawn would look for it (the login-shell PATH, `cwd` for relative paths),
 * or undefined when it is found.
 */
export async function commandProblem(command: string, cwd: string = os.homedir()): Promise<string | undefined> {
  const { env } = await resolveShellEnv();
  try {
    await resolveCommand(command, { cwd, env });
    return undefined;
  } catch (ex) {
    if (CommandNotFoundError.is(ex)) return ex.message;
    throw ex;
  }
}
