import * as z from 'zod/mini';
import { typedError } from '../shared/typedError';
import { type AgentTransport, transportOf, transportSchema } from './agentTransport';

/**
 * One configured agent: what to spawn and how to show it. This is the validated shape of an entry
 * of the `switchboard.agents` setting.
 */
export interface AgentDefinition {
  /** Stable identifier (lowercase letters, digits, `.`, `_`, `-`), used for storage keys and log channel names. */
  readonly id: string;
  /** Display name shown in the UI and in error messages, e.g. "Claude Code". */
  readonly name: string;
  /**
   * Executable: a bare name looked up on PATH (`npx`), a path relative to the workspace, or an absolute path. `~/` is expanded.
   * For an agent served over WebSocket or HTTP, the command that prints its endpoint, or '' when the entry has its URL.
   */
  readonly command: string;
  /** Arguments passed to the command verbatim (no shell parsing). */
  readonly args: readonly string[];
  /** Extra environment variables; they win over the login-shell environment and over host-supplied variables. */
  readonly env: Readonly<Record<string, string>>;
  /** Where it runs when not on this machine (docs/remote-agents.md); absent: a local child process. */
  readonly transport?: AgentTransport;
}

/**
 * The agent's name where a running session names it (the chat's header and title, the session's status bar item):
 * the name the user gave it, or else the title the agent gives itself (`agentInfo.title` of `initialize`,
 * https://agentclientprotocol.com/protocol/initialization). "Not named" means its `name` is its id (the setting
 * left `name` out, or repeats the id); the registry's and the Demo agent's names count as given. Lists of configured
 * agents (pickers, the Sessions view, history, logs) keep the configured name: they show agents that are not running.
 */
export function agentDisplayName(definition: Pick<AgentDefinition, 'id' | 'name'>, agentInfo?: { readonly title?: string | null } | null): string {
  const title = agentInfo?.title?.trim();
  return definition.name === definition.id && title ? title : definition.name;
}

/** Pattern of a valid {@link AgentDefinition.id}. */
export const agentIdPattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const requiredString = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be a string`) });

/**
 * Zod schema of one `switchboard.agents` entry. `name` defaults to the id, `args` to `[]`, `env` to `{}`;
 * unknown keys are ignored (the settings JSON schema in package.json flags them in the editor).
 */
export const agentDefinitionSchema = z.object(
  {
    id: requiredString('"id"').check(z.regex(agentIdPattern, {
      error: '"id" must start with a lowercase letter or digit and contain only a-z, 0-9, ".", "_" or "-" (at most 64 characters), e.g. "claude-code"',
    })),
    name: z.optional(requiredString('"name"').check(z.trim(), z.minLength(1, { error: '"name" must not be empty' }))),
    // optional only for an agent served over WebSocket or HTTP (checked in parseAgentDefinition)
    command: z.optional(requiredString('"command"').check(z.trim(), z.minLength(1, {
      error: '"command" must not be empty: give an executable name on PATH (e.g. "npx") or an absolute path',
    }))),
    args: z._default(z.array(z.string({ error: 'every entry of "args" must be a string (quote numbers, e.g. "8080")' }), {
      error: '"args" must be an array of strings, e.g. ["--experimental-acp"]',
    }), []),
    env: z._default(z.record(
      z.string().check(z.regex(/^[^=\0]+$/, { error: 'environment variable names must be non-empty and contain no "="' })),
      z.string({ error: 'environment variable values must be strings (quote numbers and booleans)' }),
      { error: '"env" must be an object of string values, e.g. {"DEBUG": "1"}' },
    ), {}),
    transport: z.optional(transportSchema),
  },
  { error: 'each agent must be an object with at least "id" and "command"' },
);

/** Why a `switchboard.agents` entry was rejected. */
export type AgentDefinitionErrorReason = 'invalid' | 'duplicateId';

/** A `switchboard.agents` entry that cannot be used; `message` says which entry and what to fix. */
export class AgentDefinitionError extends typedError('AgentDefinitionError') {

  /**
   * @param reason discriminator
   * @param location where the entry is, e.g. `switchboard.agents[2]`
   * @param problems one human-readable line per problem, e.g. `"command" must not be empty`
   */
  constructor(
    readonly reason: AgentDefinitionErrorReason,
    readonly location: string,
    readonly problems: readonly string[],
  ) {
    super(`${location}: ${problems.join('; ')}`);
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // nested paths (args[1], env.FOO) are prefixed so the user sees which element is wrong
  const where = issue.path.length > 1 ? `${formatPath(issue.path).replace(/^\./, '')}: ` : '';
  return `${where}${issue.message}`;
}

/**
 * Validates one setting entry.
 * @param value the raw entry
 * @param location prefix for messages, default `switchboard.agents`
 * @throws AgentDefinitionError with reason `invalid`
 */
export function parseAgentDefinition(value: unknown, location = 'switchboard.agents'): AgentDefinition {
  const result = agentDefinitionSchema.safeParse(value);
  if (!result.success) {
    throw new AgentDefinitionError('invalid', location, result.error.issues.map(describeIssue));
  }
  const { id, name, command, args, env } = result.data;
  const transport = transportOf(result.data.transport);
  const served = transport && transport.type !== 'ssh';
  // an agent served over WebSocket or HTTP has a URL, or a command that prints it (src/agents/endpointCommand.ts)
  if (served && !transport.url && !command) {
    throw new AgentDefinitionError('invalid', location, [`"transport.url" is required for ${transport.type}, or a "command" that prints the endpoint`]);
  }
  if (!served && !command) throw new AgentDefinitionError('invalid', location, ['"command" is required']);
  return { id, name: name ?? id, command: command ?? '', args, env, ...(transport ? { transport } : {}) };
}

/** Result of {@link parseAgentDefinitions}: the usable entries and one error per rejected entry. */
export interface ParsedAgentDefinitions {
  /** Valid entries, in setting order, first occurrence of each id. */
  readonly definitions: readonly AgentDefinition[];
  /** Rejected entries (invalid, or a repeated id); show these to the user. */
  readonly errors: readonly AgentDefinitionError[];
}

/**
 * Validates the whole `switchboard.agents` array. Bad entries are reported and skipped so one typo does
 * not hide every other agent; a repeated id keeps the first entry.
 */
export function parseAgentDefinitions(value: unknown, setting = 'switchboard.agents'): ParsedAgentDefinitions {
  if (value === undefined || value === null) return { definitions: [], errors: [] };
  if (!Array.isArray(value)) {
    return { definitions: [], errors: [new AgentDefinitionError('invalid', setting, ['must be an array of agent objects'])] };
  }
  const definitions: AgentDefinition[] = [];
  const errors: AgentDefinitionError[] = [];
  const seen = new Map<string, number>();
  value.forEach((entry: unknown, index) => {
    const location = `${setting}[${index}]`;
    try {
      const definition = parseAgentDefinition(entry, location);
      const first = seen.get(definition.id);
      if (first !== undefined) {
        errors.push(new AgentDefinitionError('duplicateId', location, [`"id" "${definition.id}" is already used by ${setting}[${first}]; ids must be unique`]));
        return;
      }
      seen.set(definition.id, index);
      definitions.push(definition);
    } catch (ex) {
      if (!AgentDefinitionError.is(ex)) throw ex;
      errors.push(ex);
    }
  });
  return { definitions, errors };
}
