import { z } from 'zod';

/**
 * Zod schemas for the ACP payload pieces that a scenario file may contain (content blocks, tool
 * call content, config options, …). They mirror the ACP v1 wire types (spec Appendix A) closely
 * enough that the inferred types can be handed to the SDK, and they are strict, so a typo in a
 * scenario file fails validation instead of being dropped silently. Values that must be free-form
 * (`rawInput`, `_meta`) are `unknown`.
 */

/** `_meta` on every ACP object. */
export const metaSchema = z.record(z.string(), z.unknown()).nullable().optional();

const annotationsSchema = z.strictObject({
  audience: z.array(z.enum(['assistant', 'user'])).nullable().optional(),
  lastModified: z.string().nullable().optional(),
  priority: z.number().nullable().optional(),
  _meta: metaSchema,
}).nullable().optional();

/** `ContentBlock`: text, image, audio, resource_link or embedded resource. */
export const contentBlockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string(), annotations: annotationsSchema, _meta: metaSchema }),
  z.strictObject({
    type: z.literal('image'), data: z.string(), mimeType: z.string(), uri: z.string().nullable().optional(),
    annotations: annotationsSchema, _meta: metaSchema,
  }),
  z.strictObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations: annotationsSchema, _meta: metaSchema }),
  z.strictObject({
    type: z.literal('resource_link'), uri: z.string(), name: z.string(), mimeType: z.string().nullable().optional(),
    title: z.string().nullable().optional(), description: z.string().nullable().optional(),
    size: z.number().int().nullable().optional(), annotations: annotationsSchema, _meta: metaSchema,
  }),
  z.strictObject({
    type: z.literal('resource'),
    resource: z.union([
      z.strictObject({ uri: z.string(), text: z.string(), mimeType: z.string().nullable().optional(), _meta: metaSchema }),
      z.strictObject({ uri: z.string(), blob: z.string(), mimeType: z.string().nullable().optional(), _meta: metaSchema }),
    ]),
    annotations: annotationsSchema, _meta: metaSchema,
  }),
]);
/** An ACP `ContentBlock`. */
export type ScenarioContentBlock = z.infer<typeof contentBlockSchema>;

/** `ToolCallContent`: `content` (a content block), `diff` or `terminal`. */
export const toolCallContentSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('content'), content: contentBlockSchema, _meta: metaSchema }),
  z.strictObject({
    type: z.literal('diff'), path: z.string(), oldText: z.string().nullable().optional(), newText: z.string(), _meta: metaSchema,
  }),
  z.strictObject({ type: z.literal('terminal'), terminalId: z.string(), _meta: metaSchema }),
]);
/** An ACP `ToolCallContent`. */
export type ScenarioToolCallContent = z.infer<typeof toolCallContentSchema>;

/** `ToolCallLocation` (absolute path, 1-based line). */
export const toolCallLocationSchema = z.strictObject({
  path: z.string(), line: z.number().int().nonnegative().nullable().optional(), _meta: metaSchema,
});

/** `ToolKind`. */
export const toolKindSchema = z.enum(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
/** `ToolCallStatus`. */
export const toolCallStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed']);

/** The fields of a `tool_call_update` (every field but the id optional). */
export const toolCallUpdateFields = {
  toolCallId: z.string(),
  title: z.string().nullable().optional(),
  /** The tool's programmatic name (`ToolCall.name`). */
  name: z.string().nullable().optional(),
  kind: toolKindSchema.nullable().optional(),
  status: toolCallStatusSchema.nullable().optional(),
  content: z.array(toolCallContentSchema).nullable().optional(),
  locations: z.array(toolCallLocationSchema).nullable().optional(),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  _meta: metaSchema,
};
/** A `ToolCallUpdate` (also the `toolCall` of a permission request). */
export const toolCallUpdateSchema = z.strictObject(toolCallUpdateFields);

/** `PermissionOption`. */
export const permissionOptionSchema = z.strictObject({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
  _meta: metaSchema,
});

/** `PlanEntry`. */
export const planEntrySchema = z.strictObject({
  content: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['pending', 'in_progress', 'completed']),
  _meta: metaSchema,
});

/** `AvailableCommand` (a slash command). */
export const availableCommandSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  input: z.strictObject({ hint: z.string(), _meta: metaSchema }).nullable().optional(),
  _meta: metaSchema,
});

const selectOptionSchema = z.strictObject({
  value: z.string(), name: z.string(), description: z.string().nullable().optional(), _meta: metaSchema,
});
const selectGroupSchema = z.strictObject({
  group: z.string(), name: z.string(), options: z.array(selectOptionSchema), _meta: metaSchema,
});
const configOptionCommon = {
  id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  _meta: metaSchema,
};
/** `SessionConfigOption`: a select (flat options or groups) or a boolean (UNSTABLE, capability-gated). */
export const configOptionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...configOptionCommon,
    type: z.literal('select'),
    currentValue: z.string(),
    options: z.union([z.array(selectOptionSchema), z.array(selectGroupSchema)]),
  }),
  z.strictObject({ ...configOptionCommon, type: z.literal('boolean'), currentValue: z.boolean() }),
]);
/** An ACP `SessionConfigOption`. */
export type ScenarioConfigOption = z.infer<typeof configOptionSchema>;

/** `SessionModeState` (legacy modes). */
export const modeStateSchema = z.strictObject({
  currentModeId: z.string(),
  availableModes: z.array(z.strictObject({
    id: z.string(), name: z.string(), description: z.string().nullable().optional(), _meta: metaSchema,
  })),
  _meta: metaSchema,
});

/** `usage_update` payload: tokens in context, context size and an optional cumulative cost. */
export const usageSchema = z.strictObject({
  used: z.number().int().nonnegative(),
  size: z.number().int().nonnegative(),
  cost: z.strictObject({ amount: z.number(), currency: z.string(), _meta: metaSchema }).nullable().optional(),
  _meta: metaSchema,
});

/** `Usage` of a `session/prompt` response (unstable): token counts of the turn. */
export const promptUsageSchema = z.strictObject({
  totalTokens: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  thoughtTokens: z.number().int().nonnegative().nullable().optional(),
  cachedReadTokens: z.number().int().nonnegative().nullable().optional(),
  cachedWriteTokens: z.number().int().nonnegative().nullable().optional(),
  _meta: metaSchema,
});

/** The `usage` of a `session/prompt` response. */
export type PromptUsage = z.infer<typeof promptUsageSchema>;

/** `Implementation` (`agentInfo`). */
export const implementationSchema = z.strictObject({
  name: z.string(), title: z.string().nullable().optional(), version: z.string(), _meta: metaSchema,
});

const authCommon = { id: z.string(), name: z.string(), description: z.string().nullable().optional(), _meta: metaSchema };
/** `AuthMethod`: `agent` (also without `type`), `env_var` or `terminal` (the last two UNSTABLE). */
export const authMethodSchema = z.union([
  z.strictObject({ ...authCommon, type: z.literal('agent').optional() }),
  z.strictObject({
    ...authCommon,
    type: z.literal('env_var'),
    vars: z.array(z.strictObject({
      name: z.string(), label: z.string().nullable().optional(), secret: z.boolean().optional(),
      optional: z.boolean().optional(), _meta: metaSchema,
    })),
    link: z.string().nullable().optional(),
  }),
  z.strictObject({
    ...authCommon,
    type: z.literal('terminal'),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
]);

const marker = z.record(z.string(), z.unknown()).nullable().optional();
/** `AgentCapabilities`. Support markers are `{}` (supported) or `null`/absent (unsupported). */
export const agentCapabilitiesSchema = z.strictObject({
  loadSession: z.boolean().optional(),
  promptCapabilities: z.strictObject({
    image: z.boolean().optional(), audio: z.boolean().optional(), embeddedContext: z.boolean().optional(), _meta: metaSchema,
  }).optional(),
  mcpCapabilities: z.strictObject({
    http: z.boolean().optional(), sse: z.boolean().optional(), acp: z.boolean().optional(), _meta: metaSchema,
  }).optional(),
  sessionCapabilities: z.strictObject({
    list: marker, load: marker, resume: marker, close: marker, delete: marker, fork: marker,
    // unstable (schema.unstable.json): session/set_title, session/archive + session/unarchive, session/status
    title: marker, archive: marker, status: marker,
    additionalDirectories: marker, _meta: metaSchema,
  }).optional(),
  auth: z.strictObject({ logout: marker, status: marker, _meta: metaSchema }).optional(),
  providers: marker,
  _meta: metaSchema,
});
/** An ACP `AgentCapabilities` object as written in a scenario. */
export type ScenarioAgentCapabilities = z.infer<typeof agentCapabilitiesSchema>;

/** A JSON-RPC error to answer with: `code` (e.g. -32000 auth_required), `message`, optional `data`. */
export const jsonRpcErrorSchema = z.strictObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
