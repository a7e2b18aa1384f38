/**
 * zod schemas of the changed-files bar's webview messages (merged into ipcSchemas.ts, which checks them
 * against the commands' params types). The path is only a key: the host acts on it only when it is in the
 * session's change record (changedFilesController.ts), and says so when it is not.
 */
import * as z from 'zod/mini';
import { ReviewChangedFileCommand, ReviewChangedFilesCommand } from '../shared/chatProtocol';

/** Params schemas of the bar's commands, by method. */
export const changedFilesCommandSchemas = {
  [ReviewChangedFileCommand.method]: z.strictObject({ action: z.enum(['keep', 'undo', 'diff']), path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
  [ReviewChangedFilesCommand.method]: z.strictObject({ action: z.enum(['keep', 'undo']) }),
};
