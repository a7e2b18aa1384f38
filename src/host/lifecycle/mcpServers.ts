/**
 * The `switchboard.mcpServers` setting: validated with zod, converted to the wire shape of `McpServer`
 * (https://agentclientprotocol.com/protocol/session-setup) and filtered by the agent's `mcpCapabilities`
 * (http/sse only when advertised; stdio always). Passed on `session/new`, `session/load` and `session/resume`.
 * No runtime vscode import: unit tests run this in plain node.
 */
import * as z from 'zod/mini';
import type { McpCapabilities, McpServer } from '../../acp/schema/types.gen';

/** The setting's key (under `switchboard`). */
export const mcpServersSetting = 'mcpServers';

const nameValueList = z.array(z.strictObject({ name: z.string().check(z.minLength(1)), value: z.string() }));
// settings accept `{"KEY": "value"}` (natural in JSON) or the wire's `[{name, value}]`
const nameValues = (what: string) =>
  z.pipe(z._default(z.union([z.record(z.string().check(z.minLength(1)), z.string({ error: `${what} values must be strings` })), nameValueList], {
    error: `must be an object of strings, e.g. {"KEY": "value"}, or a list of {"name", "value"}`,
  }), []), z.transform((v) => (Array.isArray(v) ? v : Object.entries(v).map(([name, value]) => ({ name, value })))));

const serverName = z.string({ error: '"name" is required' }).check(z.trim(), z.minLength(1, { error: '"name" must not be empty' }));

const stdioSchema = z.strictObject({
  type: z.optional(z.literal('stdio')),
  name: serverName,
  command: z.string({ error: '"command" is required (the MCP server executable)' }).check(z.trim(), z.minLength(1, { error: '"command" must not be empty' })),
  args: z._default(z.array(z.string({ error: 'every entry of "args" must be a string' }), { error: '"args" must be an array of strings' }), []),
  env: nameValues('env'),
});

const remoteSchema = z.strictObject({
  type: z.enum(['http', 'sse'], { error: '"type" must be "http" or "sse" (or absent for a stdio server)' }),
  name: serverName,
  url: z.url({ protocol: /^https?$/, error: '"url" must be an http:// or https:// URL' }),
  headers: nameValues('headers'),
});

const entrySchema = z.pipe(z.unknown(), z.transform((value, ctx) => {
  const isRemote = typeof value === 'object' && value !== null && 'type' in value && (value as { type: unknown }).type !== 'stdio';
  const result = (isRemote ? remoteSchema : stdioSchema).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: value });
  return z.NEVER;
}));

/** Result of {@link parseMcpServers}: the usable servers (wire shape) and one message per bad entry. */
export interface ParsedMcpServers {
  readonly servers: readonly McpServer[];
  readonly errors: readonly string[];
  /** The env values of stdio servers and the header values of remote ones (often tokens), by a name for the log: to be masked. */
  readonly secrets: Readonly<Record<string, string>>;
}

/**
 * Validates the setting's value. Bad entries are reported (`switchboard.mcpServers[1]: "url" must be …`)
 * and skipped, so one typo does not drop every server; a repeated name keeps the first entry.
 */
export function parseMcpServers(value: unknown, setting = 'switchboard.mcpServers'): ParsedMcpServers {
  if (value === undefined || value === null) return { servers: [], errors: [], secrets: {} };
  if (!Array.isArray(value)) return { servers: [], errors: [`${setting}: must be an array of MCP server objects`], secrets: {} };
  const servers: McpServer[] = [];
  const errors: string[] = [];
  const secrets: Record<string, string> = {};
  const names = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const where = `${setting}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push(`${where}: must be an object like {"name", "command", "args"} or {"type": "http", "name", "url"}`);
      return;
    }
    const result = entrySchema.safeParse(entry);
    if (!result.success) {
      const problems = result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
      errors.push(`${where}: ${problems.join('; ')}`);
      return;
    }
    const s = result.data;
    if (names.has(s.name)) {
      errors.push(`${where}: the name "${s.name}" is already used; MCP server names must be unique`);
      return;
    }
    names.add(s.name);
    if ('url' in s) {
      for (const h of s.headers) secrets[`MCP server "${s.name}" header ${h.name}`] = h.value;
      servers.push({ type: s.type, name: s.name, url: s.url, headers: s.headers });
    } else {
      for (const e of s.env) secrets[`MCP server "${s.name}" env ${e.name}`] = e.value;
      servers.push({ name: s.name, command: s.command, args: s.args, env: s.env });
    }
  });
  return { servers, errors, secrets };
}

/** The servers an agent may receive, and a log line for each one left out. */
export function filterMcpServers(servers: readonly McpServer[], capabilities: McpCapabilities | undefined): { servers: McpServer[]; dropped: string[] } {
  const kept: McpServer[] = [];
  const dropped: string[] = [];
  for (const s of servers) {
    const type = 'type' in s ? s.type : 'stdio';
    // clients MUST check mcpCapabilities.http / .sse before sending those transports
    // (https://agentclientprotocol.com/protocol/initialization)
    const supported = type === 'stdio' || (type === 'http' && capabilities?.http === true) || (type === 'sse' && capabilities?.sse === true);
    if (supported) kept.push(s);
    else dropped.push(`MCP server "${s.name}" (${type}) not passed: the agent does not advertise mcpCapabilities.${type}`);
  }
  return { servers: kept, dropped };
}
