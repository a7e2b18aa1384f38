/**
 * zod schemas of the per-message actions (merged into ipcSchemas.ts, which checks them against the commands'
 * params types), and of the checkpoint actions on messages and checkpoint entries. A message is referred to by its entry id; its text and blocks come from the thread, never
 * from the webview, except the edited text of Edit & Resend.
 */
import * as z from 'zod/mini';
import { DiffCheckpointCommand, UndoCheckpointCommand, CopyMessageCommand, EditResendMessageCommand, RestoreCheckpointCommand, RetryMessageCommand } from '../shared/chatProtocol';

const entryId = z.string().check(z.minLength(1), z.maxLength(256));

/** Params schemas of the message actions, by method. */
export const messageCommandSchemas = {
  [CopyMessageCommand.method]: z.strictObject({ entryId }),
  [RetryMessageCommand.method]: z.strictObject({ entryId }),
  [EditResendMessageCommand.method]: z.strictObject({ entryId, text: z.string().check(z.maxLength(1_000_000)) })
    .check(z.refine((p) => p.text.trim().length > 0, 'an empty message')),
  // checkpoints: entries are referred to by id, a file by its path, which the host acts on only when the entry lists it
  [RestoreCheckpointCommand.method]: z.strictObject({ entryId }),
  [DiffCheckpointCommand.method]: z.strictObject({ entryId, path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
  [UndoCheckpointCommand.method]: z.strictObject({ entryId }),
};
