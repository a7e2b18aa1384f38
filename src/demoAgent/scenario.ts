import { z } from 'zod';
import {
  agentCapabilitiesSchema, authMethodSchema, availableCommandSchema, configOptionSchema, implementationSchema, metaSchema,
  modeStateSchema, usageSchema,
} from './acpShapes';
import { scenarioAuthStatusSchema, scenarioProvidersSchema } from './accountShapes';
import { stepSchema } from './scenarioSteps';
import { typedError } from '../shared/typedError';

/**
 * The scenario file format of the scripted ACP agents: a scenario is DATA (JSON), so a new test case
 * is a new file. The engine (`runScriptedAgent`) serves one ACP connection following it.
 *
 * - `name` prefixes every stderr log line; `stderr` lines are written once at start.
 * - `initialize.delayMs` delays the answer; `initialize.response` overrides the keys of the initialize response (`protocolVersion` — may be a
 *   wrong one such as 2 —, `agentCapabilities`, `authMethods`, `agentInfo`, `_meta`). A given key
 *   replaces the default entirely. The default advertises everything the engine supports except the
 *   unstable session methods (`sessionCapabilities.fork`, `title`, `archive`, `status`), which a scenario
 *   opts into by listing them: most scenarios stand for agents that do not have them.
 * - `auth.required`: `session/new|load|resume` fail with -32000 until `authenticate` was called with an
 *   advertised method, or until the env var `auth.envVar` is set in the agent's environment; with
 *   `auth.promptsBeforeExpiry`, `session/prompt` too once that many prompts ran since the last login.
 *   `auth.loginFileEnv` names an env var holding a marker file path for a `terminal` auth method: the
 *   agent started with an extra `--login` argument speaks no ACP, writes that file (JSON `{ "env": {...} }`
 *   with the values it saw of the env vars the scenario's terminal methods pass) and exits 0; in ACP mode
 *   the login counts as done while the file exists.
 * - `authStatus` (advertises `auth.status`): the answer of `auth/status`, and with `afterLogin` / `afterLogout` the
 *   states `authenticate` / `logout` switch to (sent as `auth/status_update` too); an `authStatus` step changes it.
 * - `providers` (advertises `providers`): the list of `providers/list`, changed by `providers/set|disable`; each
 *   request is appended to the file named by env `providers.recordFileEnv` (accountShapes.ts).
 * - `session`: id prefix, legacy `modes`, `configOptions`, `commands` and `usage` (both sent right after
 *   new/load/resume), `stored` sessions for `session/list` (paged by `listPageSize`) and
 *   `session/load` (their `replay` steps run before the response, or after it with
 *   `loadReplay: "after"` as gemini-cli does). Sessions created during the run are listed and
 *   loadable too (their recorded history is replayed). With the unstable capabilities advertised:
 *   `session/fork` copies the session (its history, modes and options) under a new id that takes prompts
 *   at once; `session/set_title` stores the title trimmed, with runs of whitespace collapsed (empty:
 *   -32602); `session/archive` / `unarchive` flag a session (archiving cancels its turn and closes it) and
 *   `session/list` honours its `archived` filter and reports `archived` on every session;
 *   `session/status` says `open` for a session active on this connection, `saved` for one it knows,
 *   else -32002.
 * - `hooks["<method>"]`: `before` steps run when the request arrives (a `sleep` delays the answer, an
 *   `error` step answers with an error, `crash` / `hang` never answer), `after` steps run after the answer.
 * - `turns`: picked by `match` (a regex on the prompt text, flags default `i`); the first match wins,
 *   a turn without `match` is the default. Each turn is a list of steps (see `stepSchema`).
 *   `session/cancel` stops a turn before its next step (or chunk): its `onCancel` steps run, then it
 *   answers `stopReason: "cancelled"`. `cancelPending` also sends `$/cancel_request` for the turn's
 *   pending requests; `ignoreCancel` keeps going as if nothing happened.
 *
 * The env var SCRIPTED_AGENT_DELAY_SCALE of the agent scales every `sleep` and chunk delay (e.g. 0
 * for fast tests, 3 for a slow-motion demo).
 */

const regexSchema = z.string().superRefine((value, ctx) => {
  try {
    new RegExp(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${String(error)}` });
  }
});

/** A prompt turn. */
export const turnSchema = z.strictObject({
  /** Regex on the prompt's text blocks (joined with "\n"). Absent: the default turn. */
  match: regexSchema.optional(),
  /** RegExp flags for `match`. Default `i`. */
  flags: z.string().regex(/^[dgimsuvy]*$/).optional(),
  steps: z.array(stepSchema),
  /** Steps run when the turn is cancelled (e.g. mark tool calls failed), before answering `cancelled`. */
  onCancel: z.array(stepSchema).optional(),
  /** On `session/cancel`, also send `$/cancel_request` for the turn's pending client requests. */
  cancelPending: z.boolean().optional(),
  /** Ignore `session/cancel` (misbehaving agent). */
  ignoreCancel: z.boolean().optional(),
  note: z.string().optional(),
});
/** A prompt turn of a scenario. */
export type Turn = z.infer<typeof turnSchema>;

/** Steps around one client→agent request. */
export const hookSchema = z.strictObject({
  before: z.array(stepSchema).optional(),
  after: z.array(stepSchema).optional(),
});
/** A method hook. */
export type Hook = z.infer<typeof hookSchema>;

/** The client→agent requests that can be hooked. */
export const hookMethods = [
  'initialize', 'authenticate', 'logout', 'session/new', 'session/load', 'session/list', 'session/resume',
  'session/close', 'session/delete', 'session/set_mode', 'session/set_config_option', 'session/prompt',
  'session/fork', 'session/set_title', 'session/archive', 'session/unarchive', 'session/status',
  'auth/status', 'providers/list', 'providers/set', 'providers/disable',
] as const;
/** A hookable method name. */
export type HookMethod = (typeof hookMethods)[number];

/** A session that exists before the run (for `session/list` and `session/load`). */
export const storedSessionSchema = z.strictObject({
  sessionId: z.string(),
  /** Absolute cwd; absent: matches any `cwd` filter and is listed with the agent's own cwd. */
  cwd: z.string().optional(),
  title: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
  additionalDirectories: z.array(z.string()).optional(),
  /** Archived (`session/archive`): left out of `session/list` unless its `archived` filter asks for it. */
  archived: z.boolean().optional(),
  /** Updates replayed by `session/load` (e.g. `text` with role `user`, tool calls, plans). */
  replay: z.array(stepSchema).optional(),
});
/** A stored session. */
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** The whole scenario file. */
export const scenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().min(1).default('scripted-agent'),
  description: z.string().optional(),
  /** Lines written to stderr at start. */
  stderr: z.array(z.string()).optional(),
  initialize: z.strictObject({
    /** Wait this long before answering initialize (same as a `sleep` in `hooks.initialize.before`). */
    delayMs: z.number().int().nonnegative().optional(),
    response: z.strictObject({
      protocolVersion: z.number().int().nonnegative().optional(),
      agentCapabilities: agentCapabilitiesSchema.optional(),
      authMethods: z.array(authMethodSchema).optional(),
      agentInfo: implementationSchema.nullable().optional(),
      _meta: metaSchema,
    }).optional(),
  }).optional(),
  auth: z.strictObject({
    required: z.boolean(),
    /** Authentication counts as done when this env var is set in the agent's environment. */
    envVar: z.string().optional(),
    /**
     * The login expires after this many prompts: the next `session/prompt` fails with -32000 until
     * `authenticate` is called again (a token that ran out mid-session).
     */
    promptsBeforeExpiry: z.number().int().nonnegative().optional(),
    /**
     * Name of the env var holding the marker file of a terminal login: `--login` writes it and exits,
     * and authentication counts as done while it exists.
     */
    loginFileEnv: z.string().regex(/^[^=\0]+$/).optional(),
  }).optional(),
  authStatus: scenarioAuthStatusSchema.optional(),
  providers: scenarioProvidersSchema.optional(),
  session: z.strictObject({
    /** Prefix of new session ids (followed by a counter). Default `sess-`. */
    idPrefix: z.string().optional(),
    /** Sessions of earlier runs (agent restarts) can be resumed and loaded: an unknown id is taken as one. */
    persistent: z.boolean().optional(),
    /**
     * Name of the env var holding a folder where sessions created by `session/new` are kept across runs
     * (one JSON file each, written atomically, capped): a new process can resume and load them.
     */
    storeDirEnv: z.string().regex(/^[^=\0]+$/).optional(),
    /** Append a random suffix to session ids (unique across agent restarts). */
    randomIds: z.boolean().optional(),
    modes: modeStateSchema.optional(),
    configOptions: z.array(configOptionSchema).optional(),
    /** Send boolean config options even if the client did not advertise `session.configOptions.boolean`. */
    alwaysSendBooleanOptions: z.boolean().optional(),
    commands: z.array(availableCommandSchema).optional(),
    usage: usageSchema.optional(),
    stored: z.array(storedSessionSchema).optional(),
    /** Page size of `session/list`. Default 50. */
    listPageSize: z.number().int().positive().optional(),
    /** Replay of `session/load`: before the response (default, as the spec says) or after it. */
    loadReplay: z.enum(['before', 'after']).optional(),
  }).optional(),
  /**
   * `_session/steering` (advertised with `initialize.response._meta: { steering: { supported: true } }`): the first of
   * `answers` whose `match` (a regex, flags `i`) matches the message's text answers it with its `outcome` (and `reason`);
   * `ignoreIdleBehavior` starts a turn of the agent's own when none runs. Otherwise src/demoAgent/steeringHandlers.ts.
   */
  steering: z.strictObject({
    answers: z.array(z.strictObject({ match: regexSchema.optional(), outcome: z.string(), reason: z.string().optional() })).optional(),
    ignoreIdleBehavior: z.boolean().optional(),
  }).optional(),
  hooks: z.partialRecord(z.enum(hookMethods), hookSchema).optional(),
  turns: z.array(turnSchema).default([]),
});

/** A validated scenario (defaults applied). */
export type Scenario = z.infer<typeof scenarioSchema>;
/** A scenario as written in a file (before defaults). */
export type ScenarioInput = z.input<typeof scenarioSchema>;

/** Thrown by `parseScenario` with a readable, multi-line message listing every problem and its path. */
export class ScenarioError extends typedError('ScenarioError') {
  constructor(message: string, readonly source?: string) {
    super(source ? `Invalid scenario ${source}:\n${message}` : `Invalid scenario:\n${message}`);
  }
}

/**
 * Validates a scenario (parsed JSON) and applies the defaults.
 * @param source name of the file, for the error message
 * @throws ScenarioError listing every problem with its path
 */
export function parseScenario(value: unknown, source?: string): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) {
    throw new ScenarioError(z.prettifyError(result.error), source);
  }
  return result.data;
}

/**
 * Parses the text of a scenario file (JSON) and validates it.
 * @throws ScenarioError for bad JSON or an invalid scenario
 */
export function parseScenarioText(text: string, source?: string): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`, source);
  }
  return parseScenario(value, source);
}
