/**
 * The pure parts of `ACP: Add Agent…`: the arguments and environment lines the user types, the id made from
 * the name, which variables are secrets, whether the command can be found the way a spawn finds it, and where
 * the agent runs (the steps each transport asks, an ssh `user@host:port`, header names, the entry written).
 */
import * as os from 'node:os';
import { namesSecret, maskTokens } from '../shared/secretMasker';
import { AgentDefinitionError, agentIdPattern, parseAgentDefinition } from './agentDefinition';
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

/** Where the agent runs, the flow's second choice: `stdio` is a local child process (no `transport`). */
export type DraftPlace = 'stdio' | 'ssh' | 'websocket' | 'http';

/** What the user gave, each field the raw text of its step (`host` is `user@host:port`). */
export interface AgentDraft {
  name: string;
  place: DraftPlace;
  host: string;
  url: string;
  command: string;
  args: string;
  env: string;
  headers: string;
  cwd: string;
}

/** One step of the flow: a field of the draft, or `target` (user or workspace settings). */
export type DraftStep = keyof AgentDraft | 'target';

/** A draft with nothing typed yet, on this machine. */
export function emptyDraft(): AgentDraft {
  return { name: '', place: 'stdio', host: '', url: '', command: '', args: '', env: '', headers: '', cwd: '' };
}

/**
 * The steps of a draft, in order. On this machine: the command, its arguments and environment. Over SSH: the host,
 * the remote folder, then the command (run by the remote login shell). Served over WebSocket or HTTP: the URL, or
 * (left empty) a local command that prints it with its arguments and environment; then header names and the folder.
 */
export function draftSteps(d: Pick<AgentDraft, 'place' | 'url'>): DraftStep[] {
  const command: DraftStep[] = ['command', 'args', 'env'];
  switch (d.place) {
    case 'stdio': return ['name', 'place', ...command, 'target'];
    case 'ssh': return ['name', 'place', 'host', 'cwd', ...command, 'target'];
    default: return ['name', 'place', 'url', ...(d.url.trim() ? [] : command), 'headers', 'cwd', 'target'];
  }
}

/** An ssh destination: the transport's `host`, `user` and `port`. */
export interface SshTarget {
  readonly host: string;
  readonly user?: string;
  readonly port?: number;
}

/**
 * Reads `host`, `user@host`, `host:port`, `user@[::1]:2222` or `ssh://user@host:port` (an address with colons and
 * no port may go without brackets: `fe80::1`). The host's own rules are the schema's; this refuses what ssh would
 * read as something else: a space, a leading `-` (an option), an empty part, a port outside 1–65535.
 * @throws DraftLineError saying what is wrong
 */
export function parseSshTarget(text: string): SshTarget {
  const whole = text.trim().replace(/^ssh:\/\//i, '');
  if (!whole) throw new DraftLineError('enter a host, e.g. build-1 or me@build-1:2222');
  if (/\s/.test(whole)) throw new DraftLineError('a host has no spaces');
  const at = whole.lastIndexOf('@');
  const user = at >= 0 ? whole.slice(0, at) : undefined;
  const rest = whole.slice(at + 1);
  if (user === '') throw new DraftLineError('the user before "@" is empty');
  let host = rest;
  let port: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(rest);
  if (bracketed) [, host, port] = bracketed;
  else if (rest.startsWith('[')) throw new DraftLineError('a "[" is not closed: write an address with a port as [::1]:2222');
  else if (rest.split(':').length === 2) [host, port] = rest.split(':');
  if (!host) throw new DraftLineError('the host is empty');
  if (host.startsWith('-') || user?.startsWith('-')) throw new DraftLineError('a host or user must not start with "-"');
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) throw new DraftLineError(`"${port}" is not a port (1 to 65535)`);
  return { host, ...(user ? { user } : {}), ...(port ? { port: Number(port) } : {}) };
}

/** Header names separated by commas or spaces (`Authorization, X-Api-Key`), each once (the first spelling kept). */
export function parseHeaderNames(line: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const name of line.split(/[\s,]+/)) {
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/**
 * The entry's `transport` as written to settings, or undefined on this machine. A served agent's `url` is left out
 * when empty (its command prints it), as are empty `headers`.
 * @throws DraftLineError on an ssh destination that cannot be read
 */
export function draftTransport(d: AgentDraft): Record<string, unknown> | undefined {
  const cwd = d.cwd.trim();
  if (d.place === 'stdio') return undefined;
  if (d.place === 'ssh') return { type: 'ssh', ...parseSshTarget(d.host), cwd };
  const url = d.url.trim();
  const headers = parseHeaderNames(d.headers);
  return { type: d.place, ...(url ? { url } : {}), ...(headers.length ? { headers } : {}), cwd };
}

/**
 * The `switchboard.agents` entry of a finished draft, and the variables that go to secret storage instead. Only the
 * steps the draft's transport asks count (a served agent with a URL has no `command`, `args` or `env`).
 * @throws DraftLineError on a line that cannot be read
 */
export function draftEntry(d: AgentDraft, id: string): { entry: Record<string, unknown>; secret: Record<string, string> } {
  const transport = draftTransport(d);
  const runs = draftSteps(d).includes('command');
  const { plain, secret } = runs ? splitSecrets(parseEnvPairs(d.env)) : { plain: {}, secret: {} };
  const args = runs ? splitWords(d.args) : [];
  const entry = {
    id, name: d.name.trim(), ...(runs ? { command: d.command.trim() } : {}), ...(args.length ? { args } : {}),
    ...(Object.keys(plain).length ? { env: plain } : {}), ...(transport ? { transport } : {}),
  };
  return { entry, secret };
}

/** A step the user types into. */
export type DraftTextStep = Exclude<keyof AgentDraft, 'place'>;

/** What stands in for the steps not reached yet when one step's value is checked. */
const placeholders: Partial<Record<DraftStep, string>> = { host: 'localhost', command: 'x', args: '', env: '', headers: '', cwd: '/' };

/**
 * What the settings schema (parseAgentDefinition) says of `value` typed at `step`, checked as part of the entry so
 * far with valid stand-ins for the later steps; undefined when it would be accepted.
 */
export function draftProblem(d: AgentDraft, step: DraftTextStep, value: string): string | undefined {
  const trial: AgentDraft = { ...d, [step]: value };
  const steps = draftSteps(trial);
  for (const later of steps.slice(steps.indexOf(step) + 1)) {
    const stand = placeholders[later];
    if (stand !== undefined) trial[later as DraftTextStep] = stand;
  }
  try {
    parseAgentDefinition(draftEntry(trial, 'x').entry);
    return undefined;
  } catch (ex) {
    if (ex instanceof DraftLineError) return ex.message;
    if (!AgentDefinitionError.is(ex)) throw ex;
    const headers = parseHeaderNames(trial.headers);
    // `transport.cwd: "transport.cwd" must be…` says it once; a header is named by itself, not by its index
    return ex.problems.map((p) => p.replace(/^transport\.(\w+): (?="transport\.\1")/, '')
      .replace(/^transport\.headers\[(\d+)\]: /, (_, i: string) => `"${headers[Number(i)] ?? ''}": `)).join('; ');
  }
}
