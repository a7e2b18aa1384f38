/**
 * `fs/read_text_file` and `fs/write_text_file` through the editor (acp-client-spec §5.2, §5.3).
 * STUB: not advertised yet (capabilities false); the editor-side issue implements it.
 */
import type * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError, AcpErrorCodes } from '../acp/errors';
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest, WriteTextFileResponse } from '../acp/schema/types.gen';
import type { ChangeTracker } from './changeTracker';
import type { SessionContext } from './sessionContext';

/** Serves the agent's file requests for one session. */
export class FsHandler implements vscode.Disposable {
  /** What this handler implements, advertised in `initialize` as `clientCapabilities.fs`. */
  static readonly capabilities = { readTextFile: false, writeTextFile: false } as const;

  constructor(readonly ctx: SessionContext, readonly changes: ChangeTracker) {}

  readTextFile(_p: ReadTextFileRequest, _token: CancellationToken): Promise<ReadTextFileResponse> {
    return Promise.reject(new AcpError('remote', 'fs/read_text_file is not supported', AcpErrorCodes.MethodNotFound));
  }

  writeTextFile(_p: WriteTextFileRequest, _token: CancellationToken): Promise<WriteTextFileResponse> {
    return Promise.reject(new AcpError('remote', 'fs/write_text_file is not supported', AcpErrorCodes.MethodNotFound));
  }

  dispose(): void {
    // nothing to release yet
  }
}
