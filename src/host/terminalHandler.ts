/**
 * `terminal/*` on VS Code pseudoterminals (acp-client-spec §5.4).
 * STUB: not advertised yet (`terminal: false`); the editor-side issue implements it.
 */
import type * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError, AcpErrorCodes } from '../acp/errors';
import type {
  CreateTerminalRequest, CreateTerminalResponse, KillTerminalRequest, KillTerminalResponse, ReleaseTerminalRequest,
  ReleaseTerminalResponse, TerminalOutputRequest, TerminalOutputResponse, WaitForTerminalExitRequest, WaitForTerminalExitResponse,
} from '../acp/schema/types.gen';
import type { SessionContext } from './sessionContext';

const unsupported = (m: string) => Promise.reject(new AcpError('remote', `${m} is not supported`, AcpErrorCodes.MethodNotFound));

/** The terminals of one session. */
export class TerminalManager implements vscode.Disposable {
  /** Whether `terminal/*` is implemented, advertised in `initialize` as `clientCapabilities.terminal`. */
  static readonly supported: boolean = false;

  constructor(readonly ctx: SessionContext) {}

  create(_p: CreateTerminalRequest, _t: CancellationToken): Promise<CreateTerminalResponse> { return unsupported('terminal/create'); }
  output(_p: TerminalOutputRequest, _t: CancellationToken): Promise<TerminalOutputResponse> { return unsupported('terminal/output'); }
  waitForExit(_p: WaitForTerminalExitRequest, _t: CancellationToken): Promise<WaitForTerminalExitResponse> { return unsupported('terminal/wait_for_exit'); }
  kill(_p: KillTerminalRequest, _t: CancellationToken): Promise<KillTerminalResponse> { return unsupported('terminal/kill'); }
  release(_p: ReleaseTerminalRequest, _t: CancellationToken): Promise<ReleaseTerminalResponse> { return unsupported('terminal/release'); }

  /** Kills every terminal of the session (session closed, agent gone). */
  dispose(): void {
    // nothing to release yet
  }
}
