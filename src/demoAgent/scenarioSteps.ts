import { z } from 'zod';
import {
  availableCommandSchema, configOptionSchema, contentBlockSchema, jsonRpcErrorSchema, metaSchema, permissionOptionSchema,
  planEntrySchema, promptUsageSchema, toolCallContentSchema, toolCallLocationSchema, toolCallStatusSchema, toolCallUpdateFields,
  toolKindSchema, usageSchema,
} from './acpShapes';
import { authStatusSchema } from './accountShapes';

/**
 * The steps of a scripted turn (or of a method hook), one strict zod object per kind, discriminated
 * by the `step` field. Every step may carry:
 * - `when`: `{ "<name>": "value" | ["v1", "v2"] | "!value" }`; the step runs only if every entry
 *   matches (an array: any of its values). A name is a recorded result — `permission` records the
 *   chosen optionId or `cancelled`, `readFile` / `writeFile` / `request` record `ok` / `error`,
 *   `terminal` records `exited` / `timeout` / `done` / `error`, `elicit` the action or `error`, under the step's `as` name (default:
 *   the step kind) — or else a template variable (`config.model`, `mode`, `turn`, `args`, …).
 *   `"!x"` means "not x" (also true when unset).
 * - `requires`: client capabilities as dotted paths (`fs.readTextFile`, `fs.writeTextFile`,
 *   `terminal`, `session.configOptions.boolean`, …), `"!path"` for "not advertised"; the step is
 *   skipped unless all hold.
 * - `note`: a free comment, ignored.
 *
 * Every string inside a step may use `{{var}}` templates: `cwd`, `sessionId`, `prompt`, `args` (the
 * prompt after its first word, for slash commands), `topic` (`args` as a short title: first line, at most 40
 * characters), `blocks` (the prompt's block kinds and URIs, e.g.
 * `text; resource_link file:///a.ts`), `execPath` (the agent's node executable), `nodeCommand` (`node` when
 * it is on the agent's PATH, which is the terminals' too, else `execPath`), `env.<NAME>` (a variable
 * of the agent's environment, empty when unset),
 * `now` (ISO time), `startedAt` (ISO time the run started: the same in every step, so a diff and the write
 * after it agree), `turn` (number of the prompt in the session), `result.<name>` (text of a
 * recorded result), `config.<id>` (current value of a config option), `configLabel.<id>` (its
 * display name), `mode` (current legacy mode id), `title` (the session's title as the agent keeps it), `mcpServers`
 * (the MCP servers the session got in session/new, load or resume: transport, name, command or URL, env and header
 * names; `none`), `traceparents` (the `_meta.traceparent` of every request the client sent so far, `<method>
 * <traceparent or none>` joined with `; `).
 */

const whenSchema = z.record(z.string(), z.union([z.string(), z.array(z.string()).min(1)]));

const common = {
  when: whenSchema.optional(),
  requires: z.array(z.string()).optional(),
  note: z.string().optional(),
};

/** Name under which an outcome is recorded; default: the step kind. */
const asName = z.string().min(1).optional();
/** `true`: also send the outcome as an agent message chunk `[name] outcome: text`, for tests to observe. */
const echo = z.boolean().optional();
/** `false`: send the request and go on; `await` / `cancelRequest` can refer to it by its `as` name. */
const wait = z.boolean().optional();

const chunkFields = {
  text: z.string(),
  /** Number of chunks the text is streamed in (split at word boundaries). Default 1. */
  chunks: z.number().int().positive().optional(),
  /** Delay between chunks, ms. Default 0. */
  chunkDelayMs: z.number().int().nonnegative().optional(),
  messageId: z.string().optional(),
};

/** Every step kind but `subagent` (whose own steps are these). */
const baseSteps = [
  /** Agent (or, with role "user", replayed user) message, streamed in `chunks`. */
  z.strictObject({ step: z.literal('text'), ...common, ...chunkFields, role: z.enum(['agent', 'user']).optional() }),
  /** Agent thought (`agent_thought_chunk`), streamed like `text`. */
  z.strictObject({ step: z.literal('thought'), ...common, ...chunkFields }),
  /** A message chunk with any content block (image, resource_link, …). */
  z.strictObject({
    step: z.literal('content'), ...common, content: contentBlockSchema,
    role: z.enum(['agent', 'user', 'thought']).optional(), messageId: z.string().optional(),
  }),
  /** `tool_call`. */
  z.strictObject({
    step: z.literal('toolCall'), ...common,
    toolCallId: z.string(), title: z.string(), name: z.string().optional(), kind: toolKindSchema.optional(), status: toolCallStatusSchema.optional(),
    content: z.array(toolCallContentSchema).optional(), locations: z.array(toolCallLocationSchema).optional(),
    rawInput: z.unknown().optional(), rawOutput: z.unknown().optional(), _meta: metaSchema,
  }),
  /** `tool_call_update` (only the given fields; `content` / `locations` replace the old arrays). */
  z.strictObject({ step: z.literal('toolCallUpdate'), ...common, ...toolCallUpdateFields }),
  /** `plan` (the complete list every time). */
  z.strictObject({ step: z.literal('plan'), ...common, entries: z.array(planEntrySchema) }),
  /**
   * `plan_update` (needs the client's `plan` capability: add `"requires": ["plan"]`): the plan `planId` in the
   * format `type` (`items` with `entries`, `markdown` with `content`, `file` with `uri`; any other type is sent as is).
   */
  z.strictObject({
    step: z.literal('planUpdate'), ...common, planId: z.string(), type: z.string(),
    entries: z.array(planEntrySchema).optional(), content: z.string().optional(), uri: z.string().optional(),
  }),
  /** `plan_removed` for the plan `planId`. */
  z.strictObject({ step: z.literal('planRemoved'), ...common, planId: z.string() }),
  /** `available_commands_update`. */
  z.strictObject({ step: z.literal('commands'), ...common, commands: z.array(availableCommandSchema) }),
  /** `current_mode_update` (also changes the session's mode). */
  z.strictObject({ step: z.literal('mode'), ...common, currentModeId: z.string() }),
  /** `config_option_update` with the full set (also replaces the session's options). */
  z.strictObject({ step: z.literal('configOptions'), ...common, configOptions: z.array(configOptionSchema) }),
  /**
   * The agent's sign-in state changes (what `auth/status` answers from now on), sent as `auth/status_update` when
   * the agent advertises `auth.status` (`notify: false`: changed silently).
   */
  z.strictObject({ step: z.literal('authStatus'), ...common, ...authStatusSchema.shape, notify: z.boolean().optional() }),
  /** `session_info_update`; `null` clears a field. */
  z.strictObject({
    step: z.literal('sessionInfo'), ...common, title: z.string().nullable().optional(), updatedAt: z.string().nullable().optional(),
  }),
  /** `usage_update`. */
  z.strictObject({ step: z.literal('usage'), ...common, ...usageSchema.shape }),
  /** `session/request_permission`; outcome = chosen optionId or `cancelled` (or `error`). */
  z.strictObject({
    step: z.literal('permission'), ...common, as: asName, echo, wait,
    toolCall: z.strictObject(toolCallUpdateFields),
    /** Default: allow-once / allow-always / reject-once. */
    options: z.array(permissionOptionSchema).optional(),
  }),
  /**
   * `elicitation/create` (https://agentclientprotocol.com/protocol/v1/elicitation); outcome = the action
   * (`accept`, `decline`, `cancel`) or `error`, text = the accepted content as JSON (else the whole answer).
   * `mode` may be any string (an unknown mode tests the client's refusal); scoped to the session (and
   * `toolCallId`), or with `requestId` to that request instead.
   */
  z.strictObject({
    step: z.literal('elicit'), ...common, as: asName, echo, wait,
    mode: z.string(), message: z.string(),
    requestedSchema: z.record(z.string(), z.unknown()).optional(),
    elicitationId: z.string().optional(), url: z.string().optional(),
    toolCallId: z.string().optional(), requestId: z.union([z.string(), z.number().int()]).optional(),
  }),
  /** `elicitation/complete` for a URL elicitation (any id, also an unknown one). */
  z.strictObject({ step: z.literal('elicitComplete'), ...common, elicitationId: z.string() }),
  /** `fs/read_text_file`; with `toolCallId`, the tool call is completed with the content (or failed). */
  z.strictObject({
    step: z.literal('readFile'), ...common, as: asName, echo, wait,
    path: z.string(), line: z.number().int().positive().optional(), limit: z.number().int().nonnegative().optional(),
    toolCallId: z.string().optional(),
    /** With `toolCallId`: a failed read completes the tool call with this text instead of failing it with the error. */
    failureNote: z.string().optional(),
  }),
  /** `fs/write_text_file`; with `toolCallId`, the tool call is completed (or failed). */
  z.strictObject({
    step: z.literal('writeFile'), ...common, as: asName, echo, wait,
    path: z.string(), content: z.string(), toolCallId: z.string().optional(),
  }),
  /**
   * `terminal/create`, then `ops` in order (default `["waitForExit", "output", "release"]`, or with
   * `timeoutMs` the timeout pattern `["waitOrKill", "output", "release"]`: wait_for_exit races a
   * timer, on timeout `terminal/kill`). A number in `ops` sleeps that many ms. With `toolCallId`, the
   * terminal is embedded in that tool call right after creation and the call is completed at the end.
   */
  z.strictObject({
    step: z.literal('terminal'), ...common, as: asName, echo,
    command: z.string(), args: z.array(z.string()).optional(),
    env: z.array(z.strictObject({ name: z.string(), value: z.string() })).optional(),
    cwd: z.string().nullable().optional(), outputByteLimit: z.number().int().nonnegative().nullable().optional(),
    toolCallId: z.string().optional(), timeoutMs: z.number().int().positive().optional(),
    ops: z.array(z.union([
      z.enum(['output', 'waitForExit', 'waitOrKill', 'kill', 'release']),
      z.number().int().nonnegative(),
    ])).optional(),
  }),
  /** Any request (or, with `notification`, notification) to the client, e.g. an unknown method. */
  z.strictObject({
    step: z.literal('request'), ...common, as: asName, echo, wait,
    method: z.string(), params: z.unknown().optional(), notification: z.boolean().optional(),
    /** Send with this id, bypassing the SDK (which only uses numbers from 0): e.g. a string id. */
    id: z.union([z.string(), z.number().int()]).optional(),
  }),
  /** `$/cancel_request` for a pending request started with `wait: false` (`target`), or for a raw `requestId`. */
  z.strictObject({
    step: z.literal('cancelRequest'), ...common,
    target: z.string().optional(), requestId: z.union([z.string(), z.number().int()]).optional(),
  }),
  /** Wait for a request started with `wait: false`, then record (and echo) its outcome. */
  z.strictObject({ step: z.literal('await'), ...common, target: z.string() }),
  /**
   * Changes a file directly on disk from the agent's own process, without the client (diskSteps.ts):
   * `write` (`content`, or `base64` bytes; folders are created), `append`, `delete` (a folder too), `rename`
   * (to `to`), `mkdir`. Outcome `ok` / `error` under `as` (default `disk`).
   */
  z.strictObject({
    step: z.literal('disk'), ...common, as: asName, echo,
    op: z.enum(['write', 'append', 'delete', 'rename', 'mkdir']), path: z.string(), content: z.string().optional(),
    base64: z.boolean().optional(), to: z.string().optional(),
  }),
  /** Pause. Cancellation interrupts it. */
  /**
   * `mcp`: use an MCP server of the session (`server`, default `vscode`: the editor's own) with the MCP SDK's
   * client (src/demoAgent/mcpSteps.ts): no `tool` lists its tools, else calls `tool` with `arguments`.
   */
  z.strictObject({
    step: z.literal('mcp'), ...common, as: asName, echo,
    server: z.string().optional(), tool: z.string().optional(), arguments: z.record(z.string(), z.unknown()).optional(),
    /** Benchmarks: makes the same request this many times; the text ends with `[timing] median=… p95=… n=…` (ms). */
    repeat: z.number().int().positive().optional(),
  }),
  z.strictObject({ step: z.literal('sleep'), ...common, ms: z.number().int().nonnegative() }),
  /**
   * Pause until `path` exists (a test creates it when the turn may go on), at most `timeoutMs` (default 60 s).
   * Cancellation interrupts it. Not scaled by the delay scale.
   */
  z.strictObject({ step: z.literal('waitForFile'), ...common, path: z.string(), timeoutMs: z.number().int().positive().optional() }),
  /** Pause until a message is steered into the turn (`_session/steering`), at most `timeoutMs` (default 60 s); recorded as `as` (default `steer`), echoed by default. */
  z.strictObject({ step: z.literal('awaitSteer'), ...common, as: asName, echo, timeoutMs: z.number().int().positive().optional() }),
  /** Write lines to stderr. */
  z.strictObject({ step: z.literal('stderr'), ...common, lines: z.array(z.string()) }),
  /** Write a raw line (or `json`, serialized) to stdout; `newline: false` leaves the line open. */
  z.strictObject({
    step: z.literal('raw'), ...common, line: z.string().optional(), json: z.unknown().optional(),
    newline: z.boolean().optional(),
  }),
  /** A `session/update` whose text is `bytes` bytes long (ASCII), e.g. 10 MB or 70 MB. */
  z.strictObject({
    step: z.literal('huge'), ...common, bytes: z.number().int().positive(), role: z.enum(['agent', 'thought']).optional(),
    // with a tool call: the text completes it, as its content or (`as: "rawOutput"`) only as `rawOutput.stdout`
    toolCallId: z.string().optional(), as: z.enum(['content', 'rawOutput']).optional(),
  }),
  /** A `session/update` with a `sessionUpdate` kind no client knows. */
  z.strictObject({
    step: z.literal('unknownUpdate'), ...common, sessionUpdate: z.string().optional(),
    fields: z.record(z.string(), z.unknown()).optional(),
  }),
  /** Any `session/update` payload, sent as is (optionally for another `sessionId`). */
  z.strictObject({
    step: z.literal('update'), ...common, update: z.record(z.string(), z.unknown()), sessionId: z.string().optional(),
  }),
  /** Write `stderr` lines, then exit with `exitCode` (default 1) or kill the process with `signal`. */
  z.strictObject({
    step: z.literal('crash'), ...common, stderr: z.array(z.string()).optional(),
    exitCode: z.number().int().min(0).max(255).optional(), signal: z.string().optional(),
  }),
  /** Never answer the current request (ignores cancellation). */
  z.strictObject({ step: z.literal('hang'), ...common }),
  /** Answer the current request with a JSON-RPC error; later steps still run. */
  z.strictObject({ step: z.literal('error'), ...common, ...jsonRpcErrorSchema.shape }),
  /**
   * Answer `session/prompt` with this stop reason now, and `usage` (the turn's tokens, unstable) when given; later
   * steps still run (late updates).
   */
  z.strictObject({
    step: z.literal('stop'), ...common,
    stopReason: z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']),
    usage: promptUsageSchema.optional(),
  }),
] as const;

/** A step of a subagent (any step but `subagent`: nest deeper with `update` steps and their `sessionId`). */
export const subagentStepSchema = z.discriminatedUnion('step', [...baseSteps]);

/** Every step kind. */
export const stepSchema = z.discriminatedUnion('step', [
  ...baseSteps,
  /**
   * A subagent (needs the client's `subagents` capability: add `"requires": ["subagents"]`): `subagent_update` on
   * this session announces the child `sessionId` (running, with `title`, `description` and, with `cancel`, the
   * cancel capability), its `steps` run for the child's session id (a `session/cancel` of the child, or of this
   * turn, stops them), then a last `subagent_update` reports how it ended: `end` (default `end_turn`; `error` with
   * `error`; `running` sends nothing), or `cancelled` when it was cancelled. Templates in its steps are expanded
   * with this session's values.
   */
  z.strictObject({
    step: z.literal('subagent'), ...common, sessionId: z.string(),
    title: z.string().nullable().optional(), description: z.string().nullable().optional(), cancel: z.boolean().optional(),
    steps: z.array(subagentStepSchema).optional(),
    end: z.enum(['end_turn', 'max_tokens', 'refusal', 'error', 'running']).optional(),
    error: jsonRpcErrorSchema.optional(),
  }),
]);

/** One step of a scripted turn or hook. */
export type Step = z.infer<typeof stepSchema>;
/** The kinds of step (`Step['step']`). */
export type StepKind = Step['step'];
/** The step of kind `K`. */
export type StepOf<K extends StepKind> = Extract<Step, { step: K }>;
