/**
 * zod schemas of the composer's webview messages (merged into ipcSchemas.ts). Attachments are bounded:
 * count, URI and text lengths, image type and size (acp-client-spec §4.2 images are base64).
 */
import { z } from 'zod';
import {
  RemoveQueuedPromptCommand, SaveDraftCommand, SearchFilesCommand, SendPromptCommand, SetConfigOptionCommand, SetModeCommand,
  UpdateQueuedPromptCommand,
} from '../../shared/chatProtocol';
import { attachmentsMax, embeddedTextMaxChars, imageMaxBase64, imageMimeTypes } from '../../shared/composerModel';

const short = z.string().max(256);
const uri = z.string().min(1).max(4096).regex(/^[a-z][a-z0-9+.-]*:/i, 'a URI');
const line = z.number().int().positive().max(10_000_000);
const promptText = z.string().max(1_000_000);

/** One attachment chip. */
export const attachmentSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), id: short, uri, name: z.string().max(1024) }),
  z.strictObject({ kind: z.literal('selection'), id: short, uri, name: z.string().max(1024), startLine: line, endLine: line, text: z.string().max(embeddedTextMaxChars) }),
  z.strictObject({ kind: z.literal('image'), id: short, name: z.string().max(1024), mimeType: z.enum(imageMimeTypes), data: z.string().max(imageMaxBase64).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64') }),
]);

const attachments = z.array(attachmentSchema).max(attachmentsMax);

/** Params schemas of the composer's commands, by method. */
export const composerCommandSchemas: Record<string, z.ZodType> = {
  [SendPromptCommand.method]: z.strictObject({ text: promptText, attachments: attachments.optional() })
    .refine((p) => p.text.trim().length > 0 || (p.attachments?.length ?? 0) > 0, 'an empty prompt'),
  [UpdateQueuedPromptCommand.method]: z.strictObject({ id: short, text: promptText }),
  [RemoveQueuedPromptCommand.method]: z.strictObject({ id: short }),
  [SaveDraftCommand.method]: z.strictObject({ draft: z.strictObject({ text: promptText, attachments, rev: z.number().int().nonnegative() }) }),
  [SetConfigOptionCommand.method]: z.strictObject({ configId: short, value: z.union([short, z.boolean()]) }),
  [SetModeCommand.method]: z.strictObject({ modeId: short }),
  [SearchFilesCommand.method]: z.strictObject({ requestId: z.number().int().nonnegative(), query: z.string().max(512) }),
};
