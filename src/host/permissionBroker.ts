/**
 * The permission broker of one session: parks each `session/request_permission` on its tool call until the
 * user answers, and answers every pending request `cancelled` when the turn is cancelled (acp-client-spec
 * §4.4, §5.1). Answers arrive from the chat (or elsewhere); stale or double answers are ignored.
 */
import type * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { RequestPermissionRequest, RequestPermissionResponse } from '../acp/schema/types.gen';
import type { SessionContext } from './sessionContext';

interface PendingPermission {
  readonly requestId: string;
  readonly options: RequestPermissionRequest['options'];
  readonly resolve: (r: RequestPermissionResponse) => void;
}

const outcomeLabels: Record<string, string> = {
  allow_once: 'Allowed once', allow_always: 'Always allowed', reject_once: 'Rejected', reject_always: 'Always rejected',
};

/** Parks and answers the permission requests of one session. */
export class PermissionBroker implements vscode.Disposable {
  private readonly _pending = new Map<string, PendingPermission>();
  private _next = 0;

  constructor(private readonly ctx: SessionContext) {}

  /** True while a request waits for an answer. */
  get hasPending(): boolean {
    return this._pending.size > 0;
  }

  /** `session/request_permission`: resolves with the user's choice, or `cancelled`. */
  request(p: RequestPermissionRequest, token: CancellationToken): Promise<RequestPermissionResponse> {
    const requestId = `p${++this._next}`;
    return new Promise<RequestPermissionResponse>((resolve) => {
      this._pending.set(requestId, { requestId, options: p.options, resolve });
      this.ctx.thread.setPermission(p.toolCall, requestId, p.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })));
      // the agent withdrew the request ($/cancel_request): close the dialog; the connection answers -32800
      token.onCancellationRequested(() => this.settle(requestId, { outcome: { outcome: 'cancelled' } }, 'Withdrawn by the agent'));
    });
  }

  /** The user picked an option. Returns false for an unknown, stale or already answered request. */
  respond(requestId: string, optionId: string): boolean {
    const pending = this._pending.get(requestId);
    const option = pending?.options.find((o) => o.optionId === optionId);
    if (!pending || !option) return false;
    this.settle(requestId, { outcome: { outcome: 'selected', optionId } }, outcomeLabels[option.kind] ?? option.name);
    return true;
  }

  /** Answers every pending request `cancelled` (turn cancelled, agent gone, session closed). */
  cancelAll(label = 'Cancelled'): void {
    for (const id of [...this._pending.keys()]) this.settle(id, { outcome: { outcome: 'cancelled' } }, label);
  }

  private settle(requestId: string, response: RequestPermissionResponse, label: string): void {
    const pending = this._pending.get(requestId);
    if (!pending) return;
    this._pending.delete(requestId);
    this.ctx.thread.clearPermission(requestId, label);
    pending.resolve(response);
  }

  dispose(): void {
    this.cancelAll();
  }
}
