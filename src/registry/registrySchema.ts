/**
 * The ACP Registry's `registry.json` (https://agentclientprotocol.com/get-started/registry), validated
 * tolerantly: unknown fields pass, a bad agent entry is skipped with a reason, and only a document that is not
 * a registry at all fails.
 */
import * as z from 'zod/mini';
import { typedError } from '../shared/typedError';

/** Pattern of a registry agent id (lowercase letters, digits and `-`, starting with a letter, at most 64). */
export const registryIdPattern = /^[a-z][a-z0-9-]{0,63}$/;

const stringRecord = z.record(z.string(), z.string());

/** One platform build of a `binary` distribution. `sha256` is our extension: v1 has no checksum field. */
export const zBinaryTarget = z.looseObject({
  archive: z.url({ protocol: /^https?$/, error: '"archive" must be an http(s) URL' }),
  cmd: z.string().check(z.minLength(1, { error: '"cmd" must not be empty' })),
  args: z._default(z.array(z.string()), []),
  env: z._default(stringRecord, {}),
  sha256: z.optional(z.pipe(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, { error: '"sha256" must be 64 hex digits' })), z.transform((s) => s.toLowerCase()))),
});

/** An `npx` or `uvx` distribution. */
export const zPackageDistribution = z.looseObject({
  package: z.string().check(z.trim(), z.minLength(1, { error: '"package" must not be empty' })),
  args: z._default(z.array(z.string()), []),
  env: z._default(stringRecord, {}),
});

/** `distribution`: at least one of binary, npx, uvx. */
export const zDistribution = z.looseObject({
  binary: z.optional(z.record(z.string(), zBinaryTarget)),
  npx: z.optional(zPackageDistribution),
  uvx: z.optional(zPackageDistribution),
}).check(z.refine((d) => d.binary !== undefined || d.npx !== undefined || d.uvx !== undefined, {
  error: '"distribution" needs at least one of "binary", "npx" or "uvx"',
}));

/** An auth method as far as the picker needs it (`authMethods`, or the removed `auth` of older data). */
export const zAuthInfo = z.looseObject({
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  type: z.optional(z.string()),
  description: z.nullish(z.string()),
});

/** One agent manifest (`<id>/agent.json`, also each entry of `agents`). */
export const zRegistryAgent = z.looseObject({
  id: z.string().check(z.regex(registryIdPattern, { error: '"id" must be lowercase letters, digits and "-", starting with a letter' })),
  name: z.string().check(z.trim(), z.minLength(1, { error: '"name" must not be empty' })),
  version: z.string().check(z.regex(/^[0-9]+\.[0-9]+\.[0-9]+/, { error: '"version" must be a semantic version, e.g. 1.2.3' })),
  description: z._default(z.string(), ''),
  distribution: zDistribution,
  repository: z.optional(z.string()),
  authors: z.optional(z.array(z.string())),
  license: z.optional(z.string()),
  icon: z.optional(z.string()),
  authMethods: z.optional(z.array(zAuthInfo)),
  auth: z.optional(z.unknown()),
});

/** A validated registry binary target. */
export type BinaryTarget = z.infer<typeof zBinaryTarget>;
/** A validated npx/uvx distribution. */
export type PackageDistribution = z.infer<typeof zPackageDistribution>;
/** A validated registry agent. */
export type RegistryAgent = z.infer<typeof zRegistryAgent>;

/** The registry, with the usable agents only. */
export interface Registry {
  /** Registry schema version, e.g. "1.0.0" (absent in odd data: tolerated). */
  readonly version: string | undefined;
  /** Usable agents, first occurrence of each id. */
  readonly agents: readonly RegistryAgent[];
}

/** Result of {@link parseRegistry}. */
export interface ParsedRegistry {
  readonly registry: Registry;
  /** One line per skipped entry: which one, and why. Log these. */
  readonly skipped: readonly string[];
}

/** Why a registry document could not be used at all. */
export type RegistryErrorReason = 'invalidJson' | 'notARegistry' | 'network' | 'http';

/** The registry could not be read; `message` says what to check. */
export class RegistryError extends typedError('RegistryError') {

  constructor(readonly reason: RegistryErrorReason, message: string) {
    super(message);
  }
}

const zRegistryDocument = z.looseObject({
  version: z.optional(z.string()),
  agents: z.array(z.unknown()),
  extensions: z.optional(z.array(z.unknown())),
});

function describe(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`).join('; ');
}

/**
 * Validates a registry document (already JSON-parsed). Bad agents are skipped and reported; only a
 * document without an `agents` array throws.
 * @throws RegistryError reason `notARegistry`
 */
export function parseRegistry(value: unknown): ParsedRegistry {
  const doc = zRegistryDocument.safeParse(value);
  if (!doc.success) throw new RegistryError('notARegistry', `not an ACP registry (${describe(doc.error.issues)})`);
  const agents: RegistryAgent[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  doc.data.agents.forEach((raw, index) => {
    const parsed = zRegistryAgent.safeParse(raw);
    const label = typeof (raw as { id?: unknown } | null)?.id === 'string' ? `agents[${index}] "${(raw as { id: string }).id}"` : `agents[${index}]`;
    if (!parsed.success) return void skipped.push(`${label} skipped: ${describe(parsed.error.issues)}`);
    if (seen.has(parsed.data.id)) return void skipped.push(`${label} skipped: the id is repeated`);
    seen.add(parsed.data.id);
    agents.push(parsed.data);
  });
  return { registry: { version: doc.data.version, agents }, skipped };
}

/** Parses registry text. @throws RegistryError reason `invalidJson` or `notARegistry` */
export function parseRegistryText(text: string): ParsedRegistry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (ex) {
    throw new RegistryError('invalidJson', `the registry is not valid JSON (${ex instanceof Error ? ex.message : String(ex)})`);
  }
  return parseRegistry(value);
}

/**
 * What the agent needs to sign in, as one short line: `authMethods` names (or the removed `auth` field of
 * older data), or undefined when the entry does not say.
 */
export function authSummary(agent: RegistryAgent): string | undefined {
  const methods: unknown[] = agent.authMethods ?? (Array.isArray(agent.auth) ? agent.auth : agent.auth && typeof agent.auth === 'object' ? [agent.auth] : []);
  const names = methods.map((m) => {
    const parsed = zAuthInfo.safeParse(m);
    if (!parsed.success) return undefined;
    const { name, id, type } = parsed.data;
    const label = name ?? id ?? type;
    return label && type && label !== type ? `${label} (${type})` : label;
  }).filter((s): s is string => !!s);
  return names.length ? `sign-in: ${names.join(', ')}` : undefined;
}
