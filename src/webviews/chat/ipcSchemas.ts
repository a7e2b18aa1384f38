/**
 * zod schemas of every message the webview may send. The webview is untrusted input: anything that does
 * not match is dropped and logged, never acted on.
 */
import { z } from 'zod';
import { CancelTurnCommand, ReadyCommand, RequestEntriesCommand, RequestSnapshotCommand, RespondPermissionCommand, SendPromptCommand, ToggleFollowCommand } from '../../shared/chatProtocol';
import { OpenDiffCommand, OpenLocationCommand, RetryPromptCommand } from '../../shared/chatProtocol';
import { ResendPromptCommand, RestartAgentCommand } from '../../shared/chatProtocol';
import { CopyCodeCommand, InsertCodeCommand, OpenLinkCommand } from '../../shared/chatProtocol';
import { composerCommandSchemas } from './composerSchemas';
import { maxHrefLength } from './linkTarget';

const short = z.string().max(256);

/** Params schema by method. */
export const webviewCommandSchemas: Record<string, z.ZodType> = {
  [ReadyCommand.method]: z.object({ lastSeq: z.number().int().optional() }),
  [SendPromptCommand.method]: z.object({ text: z.string().min(1).max(1_000_000) }),
  [CancelTurnCommand.method]: z.object({}),
  [RespondPermissionCommand.method]: z.object({ requestId: short, optionId: short }),
  [RequestSnapshotCommand.method]: z.object({ reason: short }),
  [RequestEntriesCommand.method]: z.strictObject({ before: z.number().int().nonnegative().max(100_000_000), count: z.number().int().min(1).max(1000) }),
  [ToggleFollowCommand.method]: z.object({}),
  // tool-call card and notice actions (cardActions.ts): content items are referred to by index, never sent back
  [OpenDiffCommand.method]: z.strictObject({ toolCallId: short, index: z.number().int().nonnegative().max(100_000) }),
  [OpenLocationCommand.method]: z.strictObject({ toolCallId: short, index: z.number().int().nonnegative().max(100_000) }),
  [RetryPromptCommand.method]: z.object({}),
  [RestartAgentCommand.method]: z.object({}),
  [ResendPromptCommand.method]: z.object({}),
  // links and code blocks of agent Markdown (linkHandler.ts): the host decides what a link may open
  [OpenLinkCommand.method]: z.strictObject({ href: z.string().min(1).max(maxHrefLength) }),
  [CopyCodeCommand.method]: z.strictObject({ code: z.string().max(10_000_000), language: z.string().max(64).optional() }),
  [InsertCodeCommand.method]: z.strictObject({ code: z.string().max(10_000_000), language: z.string().max(64).optional() }),
  // the composer: prompts with attachments, queue, draft, config options, file search (composerSchemas.ts)
  ...composerCommandSchemas,
};

/** A validated message from the webview, or a reason it was rejected. */
export function parseWebviewMessage(raw: unknown): { ok: true; method: string; params: unknown } | { ok: false; error: string } {
  const envelope = z.object({ method: z.string().max(128), params: z.unknown() }).safeParse(raw);
  if (!envelope.success) return { ok: false, error: 'not an IPC message' };
  const schema = webviewCommandSchemas[envelope.data.method];
  if (!schema) return { ok: false, error: `unknown method ${envelope.data.method}` };
  const params = schema.safeParse(envelope.data.params ?? {});
  if (!params.success) return { ok: false, error: `${envelope.data.method}: ${z.prettifyError(params.error)}` };
  return { ok: true, method: envelope.data.method, params: params.data };
}
