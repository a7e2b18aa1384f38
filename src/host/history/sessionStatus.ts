/**
 * `session/status` (unstable, `sessionCapabilities.status`): asked once, right before a session is reopened
 * from history (Switch Session, the Sessions view, a chat restored after a reload), never polled. It has no
 * side effects on the agent. `open` and `saved` both go on to `session/resume` or `session/load` (a value the
 * client does not know counts as `saved`, as the schema says); a session the agent does not know (-32002)
 * opens read-only from the client's store at once instead of failing a resume or a load
 * (docs/sessions.md "Organizing sessions").
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError, AcpErrorCodes } from '../../acp/errors';
import type { AgentHost } from '../agentHost';
import { agentSupports } from '../lifecycle/sessionCapabilities';

/** What the agent says of a session: `unknown` only when it answered that it does not know it. */
export type ReopenStatus = 'open' | 'saved' | 'unknown';

/**
 * Asks the agent about a session when it advertises `sessionCapabilities.status` (else `saved`, without a
 * request). Any failure but -32002 (an older agent, a timeout) is logged and counts as `saved`.
 */
export async function reopenStatus(host: AgentHost, sessionId: string, token?: CancellationToken): Promise<ReopenStatus> {
  if (!agentSupports(host, 'status')) return 'saved';
  try {
    const res = await host.connection.request('session/status', { sessionId }, token);
    return res.status === 'open' ? 'open' : 'saved';
  } catch (error) {
    if (AcpError.is(error, 'remote') && error.code === AcpErrorCodes.ResourceNotFound) return 'unknown';
    if (AcpError.is(error, 'cancelled') || token?.isCancellationRequested) throw error; // the user cancelled the reopen
    host.log.warn(`session/status of ${sessionId} failed (reopening it as saved): ${error instanceof Error ? error.message : String(error)}`);
    return 'saved';
  }
}
