/**
 * zod schemas of the composer's webview messages (merged into ipcSchemas.ts, which checks them against the
 * commands' params types). Attachments are bounded: count, URI and text lengths, image type and size (images
 * travel as base64, https://agentclientprotocol.com/protocol/content).
 */
import * as z from 'zod/mini';
import {
  RemoveQueuedPromptCommand, SaveDraftCommand, SearchFilesCommand, SendPromptCommand, SetConfigOptionCommand, SetModeCommand,
  UpdateQueuedPromptCommand,
} from '../shared/chatProtocol';
import { attachmentsMax } from '../shared/composerModel';
import { attachmentSchema } from '../host/prompts/promptQueue';

const short = z.string().check(z.maxLength(256));
const promptText = z.string().check(z.maxLength(1_000_000));

const attachments = z.array(attachmentSchema).check(z.maxLength(attachmentsMax));

/** Params schemas of the composer's commands, by method. */
export const composerCommandSchemas = {
  [SendPromptCommand.method]: z.strictObject({ text: promptText, attachments: z.optional(attachments), now: z.optional(z.boolean()) }).check(z.refine((p) => p.text.trim().length > 0 || (p.attachments?.length ?? 0) > 0, 'an empty prompt')),
  [UpdateQueuedPromptCommand.method]: z.strictObject({ id: short, text: promptText }),
  [RemoveQueuedPromptCommand.method]: z.strictObject({ id: short }),
  [SaveDraftCommand.method]: z.strictObject({ draft: z.strictObject({ text: promptText, attachments, rev: z.int().check(z.nonnegative()) }) }),
  [SetConfigOptionCommand.method]: z.strictObject({ configId: short, value: z.union([short, z.boolean()]) }),
  [SetModeCommand.method]: z.strictObject({ modeId: short }),
  [SearchFilesCommand.method]: z.strictObject({ requestId: z.int().check(z.nonnegative()), query: z.string().check(z.maxLength(512)) }),
};
