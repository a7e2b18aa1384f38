/**
 * AgentSession: one ACP session of an agent. Owns the thread model, runs prompt turns, cancels them, and
 * parks permission requests on their tool call until the user answers (or the turn is cancelled, which
 * answers every pending request with the `cancelled` outcome, acp-client-spec §4.4).
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError } from '../acp/errors';
import type { ContentBlock, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from '../acp/schema/types.gen';
import type { AgentExit } from '../agents/agentProcess';
import { AcpThread } from '../thread/thread';
import type { AgentHost } from './agentHost';

interface PendingPermission {
  readonly requestId: string;
  readonly options: RequestPermissionRequest['options'];
  readonly resolve: (r: RequestPermissionResponse) => void;
}

const outcomeLabels: Record<string, string> = {
  allow_once: 'Allowed once', allow_always: 'Always allowed', reject_once: 'Rejected', reject_always: 'Always rejected',
};

/** One session of an agent. */
export class AgentSession {
  readonly thread: AcpThread;
  private readonly _permissions = new Map<string, PendingPermission>();
  private _nextPermission = 0;
  private _turn: Promise<void> | undefined;

  constructor(readonly host: AgentHost, readonly sessionId: string, readonly cwd: string, logger?: { info(m: string): void }) {
    this.thread = new AcpThread(sessionId, logger);
    this.thread.setStatus('idle');
  }

  /** True while a prompt turn runs. */
  get isWorking(): boolean {
    return this._turn !== undefined;
  }

  /** Applies an update from the agent. */
  handleUpdate(update: SessionUpdate): void {
    this.thread.handleSessionUpdate(update);
  }

  /**
   * Sends a prompt and streams the turn into the thread. Resolves when the turn ended (whatever the stop
   * reason); failures become notices in the transcript, never unhandled rejections.
   */
  prompt(text: string): Promise<void> {
    if (this._turn) return Promise.reject(new Error('A turn is already running in this session.'));
    const prompt: ContentBlock[] = [{ type: 'text', text }];
    this.thread.addUserMessage(prompt);
    this.thread.setStatus('working');
    const turn = this.runTurn(prompt).finally(() => { this._turn = undefined; });
    this._turn = turn;
    return turn;
  }

  private async runTurn(prompt: ContentBlock[]): Promise<void> {
    try {
      const res = await this.host.connection.request('session/prompt', { sessionId: this.sessionId, prompt });
      this.thread.endTurn(res.stopReason);
    } catch (error) {
      this.cancelPermissions();
      if (this.host.state === 'exited') return; // onAgentExit shows what happened
      const message = error instanceof Error ? error.message : String(error);
      this.thread.addNotice('error', `The agent failed: ${message}`);
      this.thread.setStatus(AcpError.is(error, 'closed') ? 'disconnected' : 'idle', AcpError.is(error, 'closed') ? message : undefined);
    }
  }

  /** Cancels the running turn: `session/cancel`, every pending permission answered `cancelled`. */
  cancel(): void {
    if (!this._turn) return;
    this.host.connection.notify('session/cancel', { sessionId: this.sessionId });
    this.cancelPermissions();
    this.thread.cancelUnfinishedToolCalls();
  }

  /** `session/request_permission`: parks the request on its tool call until answered. */
  requestPermission(p: RequestPermissionRequest, token: CancellationToken): Promise<RequestPermissionResponse> {
    const requestId = `p${++this._nextPermission}`;
    return new Promise<RequestPermissionResponse>((resolve) => {
      this._permissions.set(requestId, { requestId, options: p.options, resolve });
      this.thread.setPermission(p.toolCall, requestId, p.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })));
      // the agent withdrew the request ($/cancel_request): close the dialog; the connection answers -32800
      token.onCancellationRequested(() => this.settlePermission(requestId, { outcome: { outcome: 'cancelled' } }, 'Withdrawn by the agent'));
    });
  }

  /** The user picked an option. Unknown or stale ids are ignored (the dialog may have been answered elsewhere). */
  respondPermission(requestId: string, optionId: string): boolean {
    const pending = this._permissions.get(requestId);
    const option = pending?.options.find((o) => o.optionId === optionId);
    if (!pending || !option) return false;
    this.settlePermission(requestId, { outcome: { outcome: 'selected', optionId } }, outcomeLabels[option.kind] ?? option.name);
    return true;
  }

  private settlePermission(requestId: string, response: RequestPermissionResponse, label: string): void {
    const pending = this._permissions.get(requestId);
    if (!pending) return;
    this._permissions.delete(requestId);
    this.thread.clearPermission(requestId, label);
    pending.resolve(response);
  }

  private cancelPermissions(): void {
    for (const id of [...this._permissions.keys()]) this.settlePermission(id, { outcome: { outcome: 'cancelled' } }, 'Cancelled');
  }

  /** The agent process ended: the session shows why, with the last stderr lines. */
  onAgentExit(exit: AgentExit): void {
    this.cancelPermissions();
    this.thread.cancelUnfinishedToolCalls();
    if (exit.requested) {
      this.thread.setStatus('disconnected', `Agent '${this.host.definition.name}' was stopped.`);
      return;
    }
    const tail = exit.stderrTail.slice(-5).join('\n');
    this.thread.addNotice('error', `Agent exited (${exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? '?'}`})${tail ? `:\n${tail}` : ''}`);
    this.thread.setStatus('disconnected', exit.error.message);
  }
}
