/**
 * VS Code's own MCP configuration as ACP `mcpServers` (docs/editor-tools.md, "VS Code's MCP servers"): the
 * `servers` and `inputs` of an `mcp.json` (the user's, a workspace folder's `.vscode/mcp.json`) or of the `mcp`
 * setting. Variables are resolved as VS Code resolves them for MCP: `${input:id}` (through `resolve.input`: the
 * user's answer, kept in SecretStorage), `${env:NAME}`, `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`
 * and `${/}`; a server with any other variable, or an input the user did not give, is left out and reported. The
 * result is validated as `switchboard.mcpServers` is (mcpServers.ts). No vscode import: unit-tested in plain Node.
 */
import * as path from 'node:path';
import type { McpServer } from '../../acp/schema/types.gen';
import { parseMcpServers } from './mcpServers';

/** One place VS Code's MCP configuration is read from. */
export interface McpConfigSource {
  /** `user`, or `workspace` (read only in a trusted workspace). */
  readonly scope: 'user' | 'workspace';
  /** Where it is, for messages: a file path, or "the mcp setting". */
  readonly label: string;
  /** Its parsed value (`{ servers, inputs }`). */
  readonly value: unknown;
  /** The workspace folder `${workspaceFolder}` means. */
  readonly folder?: string;
}

/** An `inputs` entry of type `promptString`. */
export interface McpInput {
  readonly id: string;
  readonly description: string;
  readonly password: boolean;
}

/** How variables are resolved. */
export interface McpVariables {
  /** The user's answer to an input (asked once, then kept), or undefined when they gave none. */
  input(input: McpInput, source: McpConfigSource, server: string): Promise<string | undefined>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
}

/** The servers, one message per server left out, and the values to mask in logs. */
export interface VsCodeMcpServers {
  readonly servers: readonly (McpServer & { readonly scope: 'user' | 'workspace' })[];
  readonly errors: readonly string[];
  readonly secrets: Readonly<Record<string, string>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function inputsOf(value: Record<string, unknown>): Map<string, McpInput> {
  const inputs = new Map<string, McpInput>();
  for (const i of Array.isArray(value.inputs) ? value.inputs : []) {
    if (!isRecord(i) || typeof i.id !== 'string') continue;
    inputs.set(i.id, { id: i.id, description: typeof i.description === 'string' ? i.description : i.id, password: i.password === true });
  }
  return inputs;
}

/** Replaces the variables of every string in `value`; throws the first one it cannot resolve. */
async function substitute(value: unknown, one: (name: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') {
    let out = '';
    let last = 0;
    for (const m of value.matchAll(/\$\{([^}]+)\}/g)) {
      out += value.slice(last, m.index) + await one(m[1] ?? '');
      last = (m.index ?? 0) + m[0].length;
    }
    return out + value.slice(last);
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => substitute(v, one)));
  if (isRecord(value)) return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await substitute(v, one)] as const)));
  return value;
}

/** The servers of VS Code's MCP configuration, in the order of `sources`; the first of a name wins. */
export async function vscodeMcpServers(sources: readonly McpConfigSource[], vars: McpVariables): Promise<VsCodeMcpServers> {
  const servers: (McpServer & { scope: 'user' | 'workspace' })[] = [];
  const errors: string[] = [];
  const secrets: Record<string, string> = {};
  const names = new Set<string>();
  for (const source of sources) {
    if (source.value === undefined || source.value === null) continue;
    if (!isRecord(source.value) || (source.value.servers !== undefined && !isRecord(source.value.servers))) {
      errors.push(`${source.label}: "servers" must be an object of MCP servers by name`);
      continue;
    }
    const inputs = inputsOf(source.value);
    for (const [name, def] of Object.entries(source.value.servers ?? {})) {
      if (names.has(name)) continue;
      const one = async (variable: string): Promise<string> => {
        const [kind, arg = ''] = variable.includes(':') ? [variable.slice(0, variable.indexOf(':')), variable.slice(variable.indexOf(':') + 1)] : [variable];
        if (kind === 'input') {
          const input = inputs.get(arg);
          if (!input) throw new Error(`\${input:${arg}} has no entry in "inputs"`);
          const answer = await vars.input(input, source, name);
          if (answer === undefined) throw new Error(`no value was given for "${input.description}"`);
          secrets[`VS Code MCP server "${name}" input ${arg}`] = answer;
          return answer;
        }
        if (kind === 'env') return vars.env[arg] ?? '';
        if (kind === 'workspaceFolder' && source.folder) return source.folder;
        if (kind === 'userHome') return vars.home;
        if (kind === 'pathSeparator' || kind === '/') return path.sep;
        throw new Error(`the variable \${${variable}} is not supported here`);
      };
      try {
        if (!isRecord(def)) throw new Error('must be an object');
        const { type, command, args, env, url, headers } = await substitute(def, one) as Record<string, unknown>;
        const entry = type === 'http' || type === 'sse' || (type === undefined && url !== undefined)
          ? { type: type ?? 'http', name, url, headers: headers ?? {} }
          : { name, command, args: args ?? [], env: env ?? {} };
        const parsed = parseMcpServers([entry], source.label);
        if (parsed.errors.length) throw new Error(parsed.errors.join('; ').replace(`${source.label}[0]: `, ''));
        for (const s of parsed.servers) servers.push({ ...s, scope: source.scope });
        Object.assign(secrets, parsed.secrets);
        names.add(name);
      } catch (error) {
        errors.push(`${source.label}: MCP server "${name}" left out: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { servers, errors, secrets };
}

/** The names of the servers of `sources` (first of a name), without resolving anything: for the picker. */
export function serverNames(sources: readonly McpConfigSource[]): { readonly name: string; readonly label: string }[] {
  const seen = new Map<string, string>();
  for (const s of sources) {
    if (isRecord(s.value) && isRecord(s.value.servers)) for (const name of Object.keys(s.value.servers)) if (!seen.has(name)) seen.set(name, s.label);
  }
  return [...seen].map(([name, label]) => ({ name, label }));
}

/**
 * Which of VS Code's MCP servers an agent gets, by the setting `switchboard.mcp.vscodeServers`: `"all"` (the
 * default), `"none"`, or an object by agent id (`"*"`: every other agent) of `"all"`, `"none"` or a list of names.
 */
export function chosenFor(setting: unknown, agentId: string, names: readonly string[]): string[] {
  const pick = isRecord(setting) ? (setting[agentId] ?? setting['*'] ?? 'all') : (setting ?? 'all');
  if (pick === 'none') return [];
  if (Array.isArray(pick)) return names.filter((n) => pick.includes(n));
  return [...names];
}
