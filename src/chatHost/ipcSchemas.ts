/**
 * zod schemas of every command the webview may send, keyed by method. The webview is untrusted input:
 * anything that does not match is dropped and logged, never acted on (ipc.ts). The table is typed by the
 * commands of chatProtocol.ts: a command without a schema, or a schema whose output is not its command's
 * params type, does not compile.
 */
import * as z from 'zod/mini';
import { CancelTurnCommand, AcknowledgeSnapshotCommand, RequestStateCommand, RequestEntriesCommand, RequestSnapshotCommand, RespondPermissionCommand, ToggleFollowCommand } from '../shared/chatProtocol';
import { ForkSessionCommand, RenameSessionCommand, SetApprovalLevelCommand } from '../shared/chatProtocol';
import { OpenDiffCommand, OpenLocationCommand, OpenToolOutputCommand, RetryPromptCommand, ShowTerminalCommand } from '../shared/chatProtocol';
import { ContinueSessionCommand, DismissNoticeCommand, QueueUntakenCommand, ResendPromptCommand, RestartAgentCommand, RevertFlaggedCommand } from '../shared/chatProtocol';
import { CopyCodeCommand, InsertCodeCommand, OpenLinkCommand } from '../shared/chatProtocol';
import { CancelSubagentCommand, RespondElicitationUrlCommand, OpenRecentSessionCommand, RespondElicitationCommand, StopWorkCommand } from '../shared/chatProtocol';
import { DisableProviderCommand, LogInAccountCommand, LogOutAccountCommand, SetProviderCommand } from '../shared/chatProtocol';
import type { CommandMethod, ParamsOf } from '../shared/chatProtocol';
import { changedFilesCommandSchemas } from './changedFilesSchemas';
import { composerCommandSchemas } from './composerSchemas';
import { messageCommandSchemas } from './messageSchemas';
import { maxHrefLength } from './linkTarget';

/** A schema for every command, whose output is that command's params type. */
export type IpcSchemaTable = { readonly [M in CommandMethod]: z.ZodMiniType<ParamsOf<M>> };

const short = z.string().check(z.maxLength(256));

/** Params schema by method. */
export const ipcSchemas = {
  [RequestStateCommand.method]: z.object({ lastSeq: z.optional(z.int()) }),
  [AcknowledgeSnapshotCommand.method]: z.object({}),
  [CancelTurnCommand.method]: z.object({}),
  [RespondPermissionCommand.method]: z.object({ requestId: short, optionId: short }),
  [RequestSnapshotCommand.method]: z.object({ reason: short }),
  [RequestEntriesCommand.method]: z.strictObject({ before: z.int().check(z.nonnegative(), z.maximum(100_000_000)), count: z.int().check(z.minimum(1), z.maximum(1000)) }),
  [ToggleFollowCommand.method]: z.object({}),
  // the header's title and Fork button: the host knows the session, the webview names nothing
  [RenameSessionCommand.method]: z.strictObject({}),
  [ForkSessionCommand.method]: z.strictObject({}),
  [SetApprovalLevelCommand.method]: z.strictObject({}),
  // tool-call card and notice actions (cardActions.ts): content items are referred to by index, never sent back
  [OpenDiffCommand.method]: z.strictObject({ toolCallId: short, index: z.int().check(z.nonnegative(), z.maximum(100_000)), sessionId: z.optional(z.string().check(z.maxLength(1024))) }),
  [OpenLocationCommand.method]: z.strictObject({ toolCallId: short, index: z.int().check(z.nonnegative(), z.maximum(100_000)), sessionId: z.optional(z.string().check(z.maxLength(1024))) }),
  [OpenToolOutputCommand.method]: z.strictObject({
    toolCallId: short, part: z.enum(['content', 'rawText', 'rawJson', 'rawInput']), index: z.optional(z.int().check(z.nonnegative(), z.maximum(100_000))),
    label: z.optional(z.enum(['output', 'stdout', 'stderr'])), sessionId: z.optional(z.string().check(z.maxLength(1024))),
  }),
  [ShowTerminalCommand.method]: z.strictObject({ terminalId: short }),
  [RetryPromptCommand.method]: z.object({}),
  [RestartAgentCommand.method]: z.object({}),
  [RevertFlaggedCommand.method]: z.object({}),
  [ResendPromptCommand.method]: z.object({}),
  [QueueUntakenCommand.method]: z.object({}),
  [ContinueSessionCommand.method]: z.object({}),
  [DismissNoticeCommand.method]: z.strictObject({ noticeId: short }),
  // links and code blocks of agent Markdown (linkHandler.ts): the host decides what a link may open
  [OpenLinkCommand.method]: z.strictObject({ href: z.string().check(z.minLength(1), z.maxLength(maxHrefLength)) }),
  [CopyCodeCommand.method]: z.strictObject({ code: z.string().check(z.maxLength(10_000_000)), language: z.optional(z.string().check(z.maxLength(64))) }),
  [InsertCodeCommand.method]: z.strictObject({ code: z.string().check(z.maxLength(10_000_000)), language: z.optional(z.string().check(z.maxLength(64))) }),
  // the composer: prompts with attachments, queue, draft, config options, file search (composerSchemas.ts)
  ...composerCommandSchemas,
  // the welcome of an empty chat (welcomeController.ts): the host looks the session up in its own history
  [OpenRecentSessionCommand.method]: z.strictObject({ sessionId: z.string().check(z.minLength(1), z.maxLength(1024)) }),
  // the changed-files bar above the composer (changedFilesSchemas.ts)
  ...changedFilesCommandSchemas,
  // per-message actions: Copy, Retry, Edit & Resend (messageSchemas.ts)
  ...messageCommandSchemas,
  // elicitations (src/host/permissions/elicitationBroker.ts validates the content against the agent's schema)
  [RespondElicitationCommand.method]: z.strictObject({
    requestId: short, action: z.enum(['accept', 'decline', 'cancel']),
    content: z.optional(z.record(short, z.union([z.string().check(z.maxLength(100_000)), z.number(), z.boolean(), z.array(z.string().check(z.maxLength(10_000))).check(z.maxLength(1000))]))),
  }),
  [RespondElicitationUrlCommand.method]: z.strictObject({ requestId: short, op: z.enum(['retry', 'dismiss']) }),
  // a subagent's card: the host cancels only a subagent the thread knows, and only when the agent permits it
  [CancelSubagentCommand.method]: z.strictObject({ sessionId: z.string().check(z.minLength(1), z.maxLength(1024)) }),
  [StopWorkCommand.method]: z.strictObject({ kind: z.enum(['toolCall', 'terminal']), id: z.string().check(z.minLength(1), z.maxLength(1024)) }),
  // the account chip and the model providers (accountController.ts: a provider id the agent did not list is refused)
  [LogInAccountCommand.method]: z.object({}),
  [LogOutAccountCommand.method]: z.object({}),
  [SetProviderCommand.method]: z.strictObject({ providerId: short }),
  [DisableProviderCommand.method]: z.strictObject({ providerId: short }),
} satisfies IpcSchemaTable;

/** The same table, looked up by a method type: `schemas[m]` is the schema of `ParamsOf<typeof m>`. */
const schemas: IpcSchemaTable = ipcSchemas;

/** True when `method` is a command the webview may send. */
export function isCommandMethod(method: string): method is CommandMethod {
  return Object.hasOwn(ipcSchemas, method);
}

/** The envelope of a message from the webview, for a known command; its params are not validated yet. */
export function parseEnvelope(raw: unknown): { ok: true; method: CommandMethod; params: unknown } | { ok: false; error: string } {
  const envelope = z.object({ method: z.string().check(z.maxLength(128)), params: z.unknown() }).safeParse(raw);
  if (!envelope.success) return { ok: false, error: 'not an IPC message' };
  const { method, params } = envelope.data;
  if (!isCommandMethod(method)) return { ok: false, error: `unknown method ${method}` };
  return { ok: true, method, params };
}

/** The params of a command, validated by its schema (absent params are `{}`), or why they were rejected. */
export function parseParams<M extends CommandMethod>(method: M, raw: unknown): { ok: true; params: ParamsOf<M> } | { ok: false; error: string } {
  const schema: z.ZodMiniType<ParamsOf<M>> = schemas[method];
  const params = schema.safeParse(raw ?? {});
  if (!params.success) return { ok: false, error: `${method}: ${z.prettifyError(params.error)}` };
  return { ok: true, params: params.data };
}
