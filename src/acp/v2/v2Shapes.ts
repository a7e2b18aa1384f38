/**
 * The ACP v2 draft's shapes as the client's v1 ones, and back: initialize's params and answer, config options,
 * commands, sign-in methods, MCP servers, tool-call fields and contents (docs/acp-v2.md). Pure functions; what they
 * read was validated against the v2 schema (schema/v2/zod.gen.ts) first.
 */
import type * as v1 from '../schema/types.gen';
import type * as v2 from '../schema/v2/types.gen';
import { diffContents } from './v2Diff';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A v2 capability is an object when supported (v1: a boolean or an object). */
const has = (v: unknown): boolean => v !== undefined && v !== null && v !== false;

/**
 * `initialize`'s params offering v2 (`protocolVersion: 2`, `info`, `capabilities`), keeping the v1 fields: an agent
 * that chooses v1 reads those, and the v2 schema lets them pass.
 */
export function initializeParamsV2(p: Json): Json {
  const caps = isObject(p.clientCapabilities) ? p.clientCapabilities : {};
  const auth = isObject(caps.auth) && caps.auth.terminal === true ? { terminal: {} } : undefined;
  const capabilities: v2.ClientCapabilities = { ...(auth ? { auth } : {}), ...(isObject(caps.elicitation) ? { elicitation: caps.elicitation } : {}) };
  const info = isObject(p.clientInfo) ? p.clientInfo : { name: 'switchboard', version: '0.0.0' };
  return { ...p, protocolVersion: 2, info, capabilities };
}

/** A v2 `initialize` answer as v1's: `info`/`capabilities` renamed, `session.*` spread over v1's capability fields. */
export function initializeResponseV1(r: v2.InitializeResponse): Json {
  const session = r.capabilities?.session;
  const prompt = session?.prompt;
  const mcp = session?.mcp;
  const sessionCapabilities: Json = {};
  if (session) {
    // the v2 baseline: list, resume and close come with `session`
    Object.assign(sessionCapabilities, { list: {}, resume: {}, close: {} });
    for (const key of ['delete', 'additionalDirectories', 'systemPrompt', 'fork', 'archive', 'status', 'title'] as const) {
      if (has(session[key])) sessionCapabilities[key] = session[key];
    }
  }
  return {
    protocolVersion: r.protocolVersion,
    // the agent's own metadata stays: steering is advertised there on v2 too (codex-acp: docs/chat.md "Send now")
    ...(r._meta ? { _meta: r._meta } : {}),
    agentInfo: r.info,
    authMethods: (r.authMethods ?? []).map(authMethodV1).filter((m): m is Json => m !== undefined),
    agentCapabilities: {
      // session/load is session/resume with `replayFrom: {type: "start"}` in v2
      loadSession: !!session,
      promptCapabilities: { image: has(prompt?.image), audio: has(prompt?.audio), embeddedContext: has(prompt?.embeddedContext) },
      mcpCapabilities: { http: has(mcp?.http), sse: false, acp: has(mcp && 'acp' in mcp ? mcp.acp : undefined) },
      sessionCapabilities,
      auth: r.capabilities?.auth ?? {},
      ...(r.capabilities && 'providers' in r.capabilities && has(r.capabilities.providers) ? { providers: r.capabilities.providers } : {}),
    },
  };
}

function authMethodV1(m: v2.AuthMethod): Json | undefined {
  if (!isObject(m) || typeof m.methodId !== 'string') return undefined;
  const { methodId, env, ...rest } = m as Json & { methodId: string; env?: unknown };
  const envRecord = Array.isArray(env) ? Object.fromEntries(env.filter(isObject).map((e) => [String(e.name), String(e.value)])) : undefined;
  return { ...rest, id: methodId, ...(envRecord ? { env: envRecord } : {}) };
}

/** v2 config options (`configId`, groups' `groupId`) as v1's (`id`, `group`). */
export function configOptionsV1(options: readonly v2.SessionConfigOption[] | null | undefined): Json[] {
  return (options ?? []).filter(isObject).map((o) => {
    const { configId, ...rest } = o as Json;
    const select = Array.isArray(rest.options)
      ? { options: rest.options.map((g) => (isObject(g) && 'groupId' in g ? (({ groupId, ...g2 }) => ({ ...g2, group: groupId }))(g) : g)) }
      : {};
    return { ...rest, id: configId, ...select };
  });
}

/** v2 commands (`type: "command"`, input `{type: "text", hint}`) as v1's; a kind of command v1 has not is left out. */
export function commandsV1(commands: readonly v2.AvailableCommand[] | null | undefined): Json[] {
  const out: Json[] = [];
  for (const c of commands ?? []) {
    if (!isObject(c) || (c.type !== undefined && c.type !== 'command') || typeof c.name !== 'string') continue;
    const input = isObject(c.input) && c.input.type === 'text' && typeof c.input.hint === 'string' ? { hint: c.input.hint } : undefined;
    out.push({ name: c.name, description: typeof c.description === 'string' ? c.description : '', ...(input ? { input } : {}) });
  }
  return out;
}

/**
 * v1 MCP servers as v2's: stdio gets its `type`; v2 has no `sse`. v2 makes stdio a capability like http, so a server
 * of a transport the agent did not advertise is left out (`dropped` names it, for the log).
 */
export function mcpServersV2(servers: unknown, mcp: v2.McpCapabilities | null | undefined, dropped: (name: string, type: string) => void = () => undefined): Json[] {
  if (!Array.isArray(servers)) return [];
  const out: Json[] = [];
  for (const s of servers) {
    if (!isObject(s)) continue;
    const type = typeof s.type === 'string' ? s.type : 'stdio';
    const supported = type === 'stdio' ? has(mcp?.stdio) : type === 'http' ? has(mcp?.http) : type === 'acp' ? has(mcp && 'acp' in mcp ? mcp.acp : undefined) : false;
    if (supported) out.push({ ...s, type });
    else dropped(String(s.name), type);
  }
  return out;
}

/** The v2 set_config_option request: the value's `type` is explicit (`id` or `boolean`). */
export function setConfigOptionV2(p: Json): Json {
  return { ...p, type: typeof p.value === 'boolean' ? 'boolean' : 'id' };
}

const v1Kinds = new Set(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
/** A v2 tool kind as v1's (a kind v1 has not, or `null`: `other`). */
export const kindV1 = (kind: string | null | undefined): v1.ToolKind => (kind && v1Kinds.has(kind) ? (kind as v1.ToolKind) : 'other');

/**
 * A v2 tool-call status as v1's: `paused` is still underway (`in_progress`), `cancelled` ended without success
 * (`failed`; the card says cancelled: v2Updates.ts reports it); unknown or `null`: `pending`, the v2 default.
 */
export function statusV1(status: string | null | undefined): v1.ToolCallStatus {
  switch (status) {
    case 'in_progress': case 'completed': case 'failed': return status;
    case 'paused': return 'in_progress';
    case 'cancelled': return 'failed';
    default: return 'pending';
  }
}

/** v2 tool-call contents as v1's: a structured file change becomes one diff per file; an unknown kind is left out. */
export function contentsV1(contents: readonly v2.ToolCallContent[] | null | undefined): v1.ToolCallContent[] {
  const out: v1.ToolCallContent[] = [];
  for (const c of contents ?? []) {
    if (c.type === 'content' && 'content' in c) out.push({ type: 'content', content: c.content as v1.ContentBlock });
    else if (c.type === 'terminal' && 'terminalId' in c && typeof c.terminalId === 'string') out.push({ type: 'terminal', terminalId: c.terminalId });
    else if (c.type === 'diff' && 'changes' in c) out.push(...diffContents(c as Extract<v2.ToolCallContent, { type: 'diff' }>));
  }
  return out;
}

/** v2 tool-call locations as v1's (the same but for `null`). */
export function locationsV1(locations: readonly v2.ToolCallLocation[] | null | undefined): v1.ToolCallLocation[] {
  return (locations ?? []).map((l) => ({ path: l.path, ...(typeof l.line === 'number' ? { line: l.line } : {}) }));
}
