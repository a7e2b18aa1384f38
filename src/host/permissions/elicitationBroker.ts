/**
 * The elicitations of one session (`elicitation/create`, https://agentclientprotocol.com/protocol/v1/elicitation):
 * each request is shown in the chat (in its tool call's card, or as its own entry) until the user answers; when no
 * chat of the session is visible it is offered in a quick input flow too, and the first answer wins.
 *
 * - Form mode: the answers are validated against the agent's schema (src/thread/view/elicitationForm.ts) before
 *   `accept` is sent; refused values stay in the form with their errors. Decline and Cancel answer at once.
 * - URL mode: nothing is opened until the user confirms; then the URL opens in the browser (VS Code's external
 *   opener), the request is answered `accept` (consent, not completion), and the chat waits for
 *   `elicitation/complete` with Retry (opens it again) and Cancel (stops waiting).
 * - Any other mode is refused with -32602 and a notice in the chat.
 * - Stop (`session/cancel`), the agent's exit and closing the session answer every pending request `cancel`;
 *   the agent's `$/cancel_request` withdraws one.
 *
 * No vscode import at run time: the quick input and the browser come in an {@link ElicitationEnvironment}.
 */
import type * as vscode from 'vscode';
import { CancellationTokenSource } from '../../acp/events';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { AcpError } from '../../acp/errors';
import { connectionModule } from '../../acp/connectionPart';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../../acp/schema/types.gen';
import type { ElicitationFormView, ElicitationInput, ElicitationView } from '../../shared/elicitationModel';
import { defaultValues, formFromSchema, validateForm } from '../../thread/view/elicitationForm';
import type { ElicitationContentValue } from '../../thread/view/elicitationForm';
import type { SessionContext } from '../sessionContext';
import { elicitationUrl } from './elicitationUrl';
import type { ElicitationUrlView } from './elicitationUrl';

/** What a quick input shows of a request. */
export interface ElicitationPrompt {
  readonly agentName: string;
  readonly message: string;
  readonly form?: ElicitationFormView;
  readonly url?: ElicitationUrlView;
}

/** The user's answer; for URL mode `accept` means "open it". */
export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Record<string, ElicitationContentValue> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The editor around the broker (VS Code in the product, fakes in unit tests). */
export interface ElicitationEnvironment {
  /** Asks in a quick input flow; `token` fires when the request was answered elsewhere (the flow closes). */
  ask(prompt: ElicitationPrompt, token: CancellationToken): PromiseLike<ElicitationAnswer | undefined>;
  /** Opens an http(s) URL in the browser; false when it could not. */
  openExternal(href: string): PromiseLike<boolean>;
}

/** Which URL elicitations wait for `elicitation/complete`, per connection (ids are the agent's). */
export class ElicitationCompletions {
  private readonly _waiting = new Map<string, () => void>();
  expect(elicitationId: string, onComplete: () => void): void { this._waiting.set(elicitationId, onComplete); }
  forget(elicitationId: string): void { this._waiting.delete(elicitationId); }
  /** False for an unknown or already completed id (the caller logs it). */
  complete(elicitationId: string): boolean {
    const done = this._waiting.get(elicitationId);
    this._waiting.delete(elicitationId);
    done?.();
    return done !== undefined;
  }
}

/** A request as tests and the test API see it. */
export interface PendingElicitationInfo {
  readonly requestId: string;
  readonly mode: 'form' | 'url';
  readonly state: 'pending' | 'waiting';
  /** True when a quick input offers it too. */
  readonly asked: boolean;
}

interface Pending {
  readonly requestId: string;
  readonly form?: ElicitationFormView;
  readonly url?: ElicitationUrlView & { readonly elicitationId: string };
  readonly completions: ElicitationCompletions;
  /** Answers `elicitation/create`; undefined once answered (URL mode waiting for completion). */
  resolve?: (r: CreateElicitationResponse) => void;
  readonly closeQuickInput: CancellationTokenSource;
  asked: boolean;
  cancelListener?: { dispose(): void };
}

/** The modes of a request this client can show, or why not. */
export type ParsedElicitation =
  | { readonly mode: 'form'; readonly form: ElicitationFormView }
  | { readonly mode: 'url'; readonly elicitationId: string; readonly url: ElicitationUrlView };

/**
 * The form mode's params, built at the first request: the ACP schemas come with the connection's part, which the
 * request came through (src/acp/connection.ts, loaded on first use: esbuild.mjs `lazyModules`).
 */
let formParamsSchema: z.ZodMiniObject<{ requestedSchema: typeof import('../../acp/schema/zod.gen').zElicitationSchema }> | undefined;
function formParams() {
  return (formParamsSchema ??= z.looseObject({ requestedSchema: connectionModule().zElicitationSchema }));
}
const urlParams = z.looseObject({ elicitationId: z.string(), url: z.string() });

/** Checks a request's mode and its fields; throws -32602 for a mode this client does not declare or a bad field. */
export function parseElicitation(p: CreateElicitationRequest): ParsedElicitation {
  if (p.mode === 'form') {
    const parsed = formParams().safeParse(p);
    if (!parsed.success) throw AcpError.invalidParams('form mode needs a requestedSchema object');
    const form = formFromSchema(parsed.data.requestedSchema);
    if (!form.ok) throw AcpError.invalidParams(`requestedSchema: ${form.error}`);
    return { mode: 'form', form: form.form };
  }
  if (p.mode === 'url') {
    const parsed = urlParams.safeParse(p);
    if (!parsed.success) throw AcpError.invalidParams('url mode needs elicitationId and url strings');
    const url = elicitationUrl(parsed.data.url);
    if (!url.ok) throw AcpError.invalidParams(url.error);
    return { mode: 'url', elicitationId: parsed.data.elicitationId, url: url.url };
  }
  throw AcpError.invalidParams(`Unsupported elicitation mode '${p.mode}': Switchboard declares only 'form' and 'url'`);
}

/** Closes the request's quick input, if it has one open (once: a second cancel() of a source throws). */
function closeQuickInput(pending: Pending): void {
  if (!pending.closeQuickInput.token.isCancellationRequested) pending.closeQuickInput.cancel();
}

const outcomes = { accept: 'Accepted', decline: 'Declined', cancel: 'Cancelled' } as const;
// unique across sessions: a chat (or a stale quick input) can only ever answer its own session's request
let lastRequestNumber = 0;

/** Parks and answers the elicitations of one session. */
export class ElicitationBroker implements vscode.Disposable {
  private readonly _pending = new Map<string, Pending>();
  private _disposed = false;

  constructor(private readonly ctx: SessionContext, private readonly env: ElicitationEnvironment) {}

  /** The requests not finished yet (waiting for the user, or URL mode waiting for completion), oldest first. */
  get pending(): readonly PendingElicitationInfo[] {
    return [...this._pending.values()].map((p) => ({ requestId: p.requestId, mode: p.url ? 'url' : 'form', state: p.resolve ? 'pending' : 'waiting', asked: p.asked }));
  }

  /** `elicitation/create` of this session: resolves with the user's answer, or `cancel`. */
  create(p: CreateElicitationRequest & { sessionId: string; toolCallId?: string | null }, token: CancellationToken, completions: ElicitationCompletions): Promise<CreateElicitationResponse> {
    let parsed: ParsedElicitation;
    try {
      parsed = parseElicitation(p);
    } catch (error) {
      const what = p.mode === 'form' || p.mode === 'url' ? `an invalid ${p.mode} request` : `a mode Switchboard does not support ("${p.mode}")`;
      this.ctx.thread.addNotice('warning', `${this.ctx.agentName} asked for input with ${what}; the request was refused.`);
      throw error;
    }
    if (this._disposed) return Promise.resolve({ action: 'cancel' });
    return new Promise<CreateElicitationResponse>((resolve) => {
      const requestId = `elicit-${++lastRequestNumber}`;
      const pending: Pending = {
        requestId, completions, resolve, asked: false, closeQuickInput: new CancellationTokenSource(),
        ...(parsed.mode === 'form' ? { form: parsed.form } : { url: { ...parsed.url, elicitationId: parsed.elicitationId } }),
      };
      this._pending.set(requestId, pending);
      const view: ElicitationView = parsed.mode === 'form'
        ? { requestId, message: p.message, mode: 'form', form: parsed.form, state: 'pending', values: defaultValues(parsed.form) }
        : { requestId, message: p.message, mode: 'url', url: parsed.url, state: 'pending' };
      // a subagent's request (its own session id) is its own entry: its tool call ids are not the session's
      this.ctx.thread.elicitations.add(view, p.sessionId === this.ctx.sessionId ? p.toolCallId ?? undefined : undefined);
      // the agent withdrew the request ($/cancel_request): the connection answers -32800
      pending.cancelListener = token.onCancellationRequested(() => this.finish(requestId, { action: 'cancel' }, 'Withdrawn by the agent'));
      if (!this.ctx.isChatVisible()) this.ask(pending, p.message);
    });
  }

  /**
   * The user answered in the chat. `content` (form mode, accept) is validated first: refused values stay in the
   * form with their errors. Returns false, changing nothing, for an unknown or finished request.
   */
  respond(requestId: string, action: ElicitationAnswer['action'], content?: Readonly<Record<string, ElicitationInput>>): boolean {
    const pending = this._pending.get(requestId);
    if (!pending?.resolve) return false;
    if (action !== 'accept') return this.finish(requestId, { action }, outcomes[action]);
    if (pending.url) return this.openUrl(pending);
    const raw = content ?? {};
    const checked = validateForm(pending.form ?? { fields: [] }, raw);
    if (!checked.ok) {
      this.ctx.thread.elicitations.update(requestId, (v) => ({ ...v, values: raw, errors: checked.errors }));
      return false;
    }
    this.ctx.thread.elicitations.update(requestId, (v) => ({ ...v, values: raw, errors: {} }));
    return this.finish(requestId, { action: 'accept', content: checked.content }, outcomes.accept);
  }

  /** URL mode, waiting for completion: `retry` opens the URL again, `dismiss` stops waiting. */
  urlAction(requestId: string, op: 'retry' | 'dismiss'): boolean {
    const pending = this._pending.get(requestId);
    if (!pending?.url || pending.resolve) return false;
    if (op === 'dismiss') return this.finish(requestId, undefined, 'Stopped waiting');
    void this.open(pending.url.href);
    return true;
  }

  /** Answers every pending request `cancel` and stops waiting for completions (Stop, agent exit, close). */
  cancelAll(label = 'Cancelled'): void {
    for (const id of [...this._pending.keys()]) this.finish(id, { action: 'cancel' }, label);
  }

  private openUrl(pending: Pending): boolean {
    const url = pending.url;
    if (!url) return false;
    pending.resolve?.({ action: 'accept' });
    pending.resolve = undefined;
    closeQuickInput(pending);
    pending.completions.expect(url.elicitationId, () => this.finish(pending.requestId, undefined, 'Completed'));
    this.ctx.thread.elicitations.update(pending.requestId, (v) => ({ ...v, state: 'waiting' }));
    void this.open(url.href);
    return true;
  }

  private async open(href: string): Promise<void> {
    try {
      if (!(await this.env.openExternal(href))) this.ctx.log.warn('the browser did not open the elicitation URL');
    } catch (error) {
      this.ctx.log.warn(`opening the elicitation URL failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Offers the request in a quick input too; whichever answer comes first wins. */
  private ask(pending: Pending, message: string): void {
    pending.asked = true;
    const prompt: ElicitationPrompt = { agentName: this.ctx.agentName, message, ...(pending.form ? { form: pending.form } : {}), ...(pending.url ? { url: pending.url } : {}) };
    Promise.resolve(this.env.ask(prompt, pending.closeQuickInput.token)).then((answer) => {
      if (!answer || !this._pending.get(pending.requestId)?.resolve) return;
      const content = answer.action === 'accept' ? answer.content : undefined;
      if (!this.respond(pending.requestId, answer.action, content)) this.ctx.log.info(`the quick input's answer to ${pending.requestId} was refused`);
    }, (error: unknown) => this.ctx.log.warn(`the elicitation quick input failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Ends a request: answers it (unless already answered), closes its quick input, records the outcome. */
  private finish(requestId: string, response: CreateElicitationResponse | undefined, outcome: string): boolean {
    const pending = this._pending.get(requestId);
    if (!pending) return false;
    this._pending.delete(requestId);
    pending.cancelListener?.dispose();
    closeQuickInput(pending);
    pending.closeQuickInput.dispose();
    if (pending.url) pending.completions.forget(pending.url.elicitationId);
    // a URL request already answered `accept` keeps that answer; only its waiting ends
    if (pending.resolve && response) pending.resolve(response);
    this.ctx.thread.elicitations.update(requestId, (v) => ({ ...v, state: 'done', outcome }));
    return true;
  }

  /** Answers every pending request `cancel`; later requests are answered `cancel` at once. */
  dispose(): void {
    this._disposed = true;
    this.cancelAll();
  }
}
