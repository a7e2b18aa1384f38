/**
 * zod schemas of the composer's webview messages (merged into ipcSchemas.ts, which checks them against the
 * commands' params types). Attachments are bounded: count, URI and text lengths, image type and size (images
 * travel as base64, https://agentclientprotocol.com/protocol/content).
 */
import { z } from 'zod';
import {
  RemoveQueuedPromptCommand, SaveDraftCommand, SearchFilesCommand, SendPromptCommand, SetConfigOptionCommand, SetModeCommand,
  UpdateQueuedPromptCommand,
} from '../../shared/chatProtocol';
import { attachmentsMax } from '../../shared/composerModel';
import { attachmentSchema } from '../../host/prompts/promptQueue';

const short = z.string().max(256);
const promptText = z.string().max(1_000_000);

const attachments = z.array(attachmentSchema).max(attachmentsMax);

/** Params schemas of the composer's commands, by method. */
export const composerCommandSchemas = {
  [SendPromptCommand.method]: z.strictObject({ text: promptText, attachments: attachments.optional() })
    .refine((p) => p.text.trim().length > 0 || (p.attachments?.length ?? 0) > 0, 'an empty prompt'),
  [UpdateQueuedPromptCommand.method]: z.strictObject({ id: short, text: promptText }),
  [RemoveQueuedPromptCommand.method]: z.strictObject({ id: short }),
  [SaveDraftCommand.method]: z.strictObject({ draft: z.strictObject({ text: promptText, attachments, rev: z.number().int().nonnegative() }) }),
  [SetConfigOptionCommand.method]: z.strictObject({ configId: short, value: z.union([short, z.boolean()]) }),
  [SetModeCommand.method]: z.strictObject({ modeId: short }),
  [SearchFilesCommand.method]: z.strictObject({ requestId: z.number().int().nonnegative(), query: z.string().max(512) }),
};
