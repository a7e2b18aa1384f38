/**
 * The permission broker of one session: parks each `session/request_permission` on its tool call until the
 * user answers (in the chat, or in a notification when no chat of the session is visible), answers some
 * requests itself when the session's approval level allows it (src/shared/approvalLevel.ts), and answers every pending request
 * `cancelled` when the turn is cancelled (https://agentclientprotocol.com/protocol/tool-calls#requesting-permission). An agent's `$/cancel_request` closes
 * the dialog (the connection answers -32800, request cancelled). Double, late, withdrawn and foreign answers are ignored.
 *
 * No vscode import at run time: the VS Code side (settings, notifications) comes in a
 * {@link PermissionEnvironment}, so the races are unit-tested in plain Node.
 */
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallContent, ToolCallLocation, ToolCallUpdate, ToolKind } from '../../acp/schema/types.gen';
import { Emitter } from '../../acp/events';
import { actsBeyondItsKind, autoApproveOption } from './autoApprove';
import { allowRulesApply, effectiveLevel, readsApproved } from '../../shared/approvalLevel';
import type { ApprovalLevel } from '../../shared/approvalLevel';
import { GrantLedger, grantSubject } from './grantLedger';
import type { UncoveredPolicy } from './grantLedger';
import type { SessionContext } from '../sessionContext';
import type { RuledCall } from './rules/requestRules';
import type { RuleDraft } from './rules/ruleSuggestions';
import { noRules, ruleButtonLabel, ruleOption, rulingLabel, SessionRules } from './rules/sessionRules';
import type { RuleEnvironment } from './rules/sessionRules';
import { flagsNotice, TurnAudit } from './turnAudit';
import type { ChangedFile } from './turnAudit';

/** What a notification offering a permission request shows. */
export interface PermissionPrompt {
  readonly agentName: string;
  /** The tool call's title, e.g. "Edit main.ts". */
  readonly title: string;
  readonly toolKind: ToolKind;
  readonly options: readonly PermissionOption[];
  /** A question of Switchboard's own (docs/approvals.md), not the agent's request. */
  readonly fromClient?: boolean;
}

/** The editor around the broker: settings and notifications (VS Code in the product, fakes in unit tests). */
export interface PermissionEnvironment extends RuleEnvironment {
  /** The approval level of a session the user set none for (the settings: src/shared/approvalLevel.ts). */
  defaultLevel(): ApprovalLevel;
  /** The current `switchboard.permissions.uncoveredActions` policy. */
  uncoveredPolicy(): UncoveredPolicy;
  /** Shows a non-modal notification; resolves with the chosen optionId, or undefined when it was dismissed. */
  notify(prompt: PermissionPrompt): PromiseLike<string | undefined>;
  /** True for a session folder in a git worktree of its own (docs/worktrees.md): only there is `all` a level. */
  isolated?(cwd: string): boolean;
}

/** An environment that never answers by itself and shows no notification. */
export const askInChatOnly: PermissionEnvironment = {
  defaultLevel: () => 'rules',
  uncoveredPolicy: () => 'ask',
  notify: () => Promise.resolve(undefined),
  ...noRules,
};

/** A pending request as tests and the test API see it. */
export interface PendingPermissionInfo {
  readonly requestId: string;
  readonly toolCallId: string;
  /** True when a notification offers it too (no chat of the session was visible). */
  readonly notified: boolean;
}

interface PendingPermission {
  readonly requestId: string;
  readonly toolCallId: string;
  readonly options: readonly PermissionOption[];
  readonly resolve: (r: RequestPermissionResponse) => void;
  notified: boolean;
  cancelListener?: { dispose(): void };
  /** A question of the client's own that an answer for the whole session answers too. */
  readonly allows?: 'writes' | 'commands' | 'localCommands';
  /** The agent's request, with the rules its card offers (an agent's request only). */
  readonly offer?: { readonly request: RequestPermissionRequest; readonly drafts: readonly RuleDraft[] };
}

/** The label on the tool card once a request was answered. */
export const outcomeLabels: Readonly<Record<string, string>> = {
  allow_once: 'Allowed once', allow_always: 'Always allowed', reject_once: 'Rejected', reject_always: 'Always rejected',
};
/** The label of an automatic answer under `reads`. */
export const autoApprovedLabel = 'Auto-approved (reads)';
export const allowEverythingLabel = 'Allowed (Allow Everything, in the session\'s own worktree)'; // its card's note
/** The id of the card's button that opens the rule editor (never sent to the agent). */
export const makeRuleOption = 'switchboard-make-rule';

/**
 * A question the client asks on its own (a write or command that no answer covers, or that differs from the
 * approved one): shown as a tool call card of the client's, with the client's options.
 */
export interface ClientQuestion {
  /** The card: its title, kind, `rawInput` (the command), locations and content (the diff, both command lines). */
  readonly toolCall: Omit<ToolCallUpdate, 'toolCallId'>;
  /**
   * The option that allows every write (or command) for the rest of the session, and what it allows; none when it
   * is not offered. Picked, it also answers the other questions of the same kind that are waiting.
   */
  readonly session?: { readonly option: string; readonly allows: 'writes' | 'commands' | 'localCommands' };
  /** The session (or subagent) whose transcript shows the card. */
  readonly sessionId: string;
}

/** The answer to a {@link ClientQuestion}. */
export type ClientAnswer = 'once' | 'session' | 'refused' | 'cancelled';

/** The prefix of the ids of the client's own cards. */
export const clientCheckPrefix = 'switchboard-check-';
let lastClientCheck = 0;

const cancelled: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
// unique across sessions: a chat (or a stale notification) can only ever answer its own session's request
let lastRequestNumber = 0;

/** Parks and answers the permission requests of one session. */
export class PermissionBroker implements vscode.Disposable {
  private readonly _pending = new Map<string, PendingPermission>();
  /** Bumped by every cancelAll, so a request still being checked for auto-approval sees the cancel. */
  private _cancelEpoch = 0;
  private _disposed = false;
  /** What the user answered in this session: writes and commands are checked against it (src/host/permissions/grantLedger.ts). */
  readonly grants = new GrantLedger();
  /** The rules of this session: the user's, the workspace's and its own (docs/approvals.md, "Rules"). */
  readonly rules: SessionRules;
  /** What happened in each turn against what was granted (docs/approvals.md, "The audit"). */
  readonly audit = new TurnAudit();
  /** The level the user chose for this session; undefined: the settings' (it follows them). */
  private _level: ApprovalLevel | undefined;
  private readonly _onDidChangeLevel = new Emitter<void>();
  /** Fires when the user chose a level for this session. */
  readonly onDidChangeLevel = this._onDidChangeLevel.event;

  constructor(private readonly ctx: SessionContext, private readonly env: PermissionEnvironment = askInChatOnly) {
    this.rules = new SessionRules(ctx, env, () => allowRulesApply(this.level));
  }

  /** The session's approval level (docs/approvals.md, "The approval level"). */
  get level(): ApprovalLevel {
    return effectiveLevel(this._level ?? this.env.defaultLevel(), this.isolated);
  }

  /** True when the session works in a git worktree of its own: Allow Everything is a level it can have. */
  get isolated(): boolean { return this.env.isolated?.(this.ctx.cwd) ?? false; }

  /** The level of the settings (the session's when the user chose none). */
  get settingsLevel(): ApprovalLevel {
    return this.env.defaultLevel();
  }

  /** The level the user chose for this session, if any (kept with the session: src/host/history/sessionMeta.ts). */
  get chosenLevel(): ApprovalLevel | undefined {
    return this._level;
  }

  /** Sets the session's level (undefined: the settings' again); the next request is answered by it. */
  setLevel(level: ApprovalLevel | undefined): void {
    if (level === this._level) return;
    this._level = level;
    this.ctx.log.info(`approval level of session ${this.ctx.sessionId}: ${this.level}${level ? '' : ' (from the settings)'}`);
    this._onDidChangeLevel.fire();
  }

  /** True while a request waits for an answer. */
  get hasPending(): boolean {
    return this._pending.size > 0;
  }

  /** The requests waiting for an answer, oldest first. */
  get pending(): readonly PendingPermissionInfo[] {
    return [...this._pending.values()].map((p) => ({ requestId: p.requestId, toolCallId: p.toolCallId, notified: p.notified }));
  }

  /** `session/request_permission`: resolves with the rules', the auto-approve policy's or the user's choice, or `cancelled`. */
  async request(p: RequestPermissionRequest, token: CancellationToken): Promise<RequestPermissionResponse> {
    const epoch = this._cancelEpoch;
    const call = this.ruledCall(p);
    const declared = call.toolKind ?? 'other';
    const acts = actsBeyondItsKind(declared, call.rawInput, call.content);
    if (acts) this.audit.mismatch(this.ctx.thread.toolCall(p.toolCall.toolCallId, p.sessionId)?.title ?? p.toolCall.title ?? 'A tool call', acts, declared);
    const ruling = await this.rules.ruling(call);
    const byRule = ruleOption(p.options, ruling.verdict);
    // an ask rule asks, even for a read
    const auto = ruling.verdict ? undefined : await this.autoApproval(p);
    // asking for everything, a card offers no rule: the user's rules would not answer the next one
    const drafts = byRule || auto || !allowRulesApply(this.level) ? [] : await this.rules.drafts(call);
    if (this._disposed || epoch !== this._cancelEpoch) {
      // the turn was cancelled while the policy was checked (realpath is async): never park after a cancel
      this.ctx.thread.recordPermissionOutcome(p.toolCall, 'Cancelled', p.sessionId);
      return cancelled;
    }
    if (token.isCancellationRequested) return cancelled; // withdrawn meanwhile; the connection answers -32800
    if (byRule && ruling.verdict) {
      this.rules.matched(ruling);
      this.ctx.thread.recordPermissionOutcome(p.toolCall, rulingLabel(ruling.verdict), p.sessionId);
      this.ctx.log.info(`permission for tool call ${p.toolCall.toolCallId} answered '${byRule.optionId}' by ${rulingLabel(ruling.verdict)}`);
      const response: RequestPermissionResponse = { outcome: { outcome: 'selected', optionId: byRule.optionId } };
      await this.recordAnswer(p, response);
      return response;
    }
    if (auto) {
      this.ctx.thread.recordPermissionOutcome(p.toolCall, `${this.level === 'all' ? allowEverythingLabel : autoApprovedLabel}: ${auto.name}`, p.sessionId);
      this.ctx.log.info(`permission for tool call ${p.toolCall.toolCallId} auto-approved (${this.level === 'all' ? 'allow everything' : 'reads'}) with option '${auto.optionId}'`);
      return { outcome: { outcome: 'selected', optionId: auto.optionId } };
    }
    const offer = drafts.length > 0 && !p.options.some((o) => o.optionId === makeRuleOption) ? { request: p, drafts } : undefined;
    const response = await this.park(p, token, false, undefined, offer);
    await this.recordAnswer(p, response);
    return response;
  }

  /**
   * The turn ended: the audit of what happened (the files changed between its checkpoints, `from` the one before it),
   * and a warning in the chat for what no answer or rule covered, with Revert when files can be restored. Never throws.
   */
  async auditTurn(changed: readonly ChangedFile[], from: string | undefined): Promise<void> {
    try {
      const flags = await this.audit.endTurn(changed, from, this.grants, async (p) => (await this.rules.write(p, p)).verdict?.action === 'allow');
      if (flags.length === 0) return;
      this.ctx.log.warn(`audit: ${flags.map((f) => `${f.kind}: ${f.text}`).join('; ')}`);
      this.ctx.thread.addNotice('warning', flagsNotice(this.ctx.agentName, flags), this.audit.open.length > 0 && from ? 'revert' : undefined);
    } catch (error) {
      this.ctx.log.warn(`audit: the turn could not be audited: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Forgets this session's answers and its own rules ("Reset approvals"). */
  resetApprovals(): void {
    this.rules.reset();
    this.grants.reset();
  }

  /** The user made rules from a card: when they answer its request, they answer it now. */
  private async makeRules(pending: PendingPermission, offer: NonNullable<PendingPermission['offer']>): Promise<void> {
    const made = await this.rules.make(offer.drafts, this.ruledCall(offer.request));
    if (made.length === 0 || !this._pending.has(pending.requestId)) return;
    const ruling = await this.rules.ruling(this.ruledCall(offer.request));
    const option = ruleOption(pending.options, ruling.verdict);
    if (!option || !ruling.verdict) return; // the new rules do not answer it: the card still asks
    this.rules.matched(ruling);
    this.settle(pending.requestId, { outcome: { outcome: 'selected', optionId: option.optionId } }, rulingLabel(ruling.verdict));
  }

  private ruledCall(p: RequestPermissionRequest): RuledCall & ReturnType<PermissionBroker['callOf']> {
    const call = this.callOf(p);
    const name = p.toolCall.name ?? this.ctx.thread.toolCall(p.toolCall.toolCallId, p.sessionId)?.toolName;
    return { ...call, ...(name ? { toolName: name } : {}) };
  }

  /** The user's answer binds: what the tool call says it does is allowed or refused in the ledger. */
  private async recordAnswer(p: RequestPermissionRequest, response: RequestPermissionResponse): Promise<void> {
    if (response.outcome.outcome !== 'selected') return;
    const optionId = response.outcome.optionId;
    const option = p.options.find((o) => o.optionId === optionId);
    if (!option) return;
    try {
      const subject = await grantSubject(this.callOf(p), this.ctx.cwd);
      const allowed = option.kind === 'allow_once' || option.kind === 'allow_always';
      this.grants.record(subject, allowed, option.kind.endsWith('_always') ? 'session' : 'turn');
    } catch (error) {
      // nothing is granted: a later write or command of it is asked about
      this.ctx.log.warn(`the answer to ${p.toolCall.toolCallId} could not be recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** What the request's tool call carries: the request's fields over what the thread knows of the call. */
  private callOf(p: RequestPermissionRequest): { rawInput: unknown; locations: readonly ToolCallLocation[]; content: readonly ToolCallContent[]; toolKind: ToolKind | undefined } {
    const entry = this.ctx.thread.toolCall(p.toolCall.toolCallId, p.sessionId);
    return {
      rawInput: p.toolCall.rawInput ?? entry?.rawInput,
      locations: p.toolCall.locations ?? entry?.locations ?? [],
      content: [...(entry?.content ?? []), ...(p.toolCall.content ?? [])],
      toolKind: p.toolCall.kind ?? entry?.toolKind,
    };
  }

  /** The policy for a write or command that no answer covers (the user's setting; always ask at the level `ask`). */
  uncoveredPolicy(): UncoveredPolicy {
    return this.level === 'ask' ? 'ask' : this.level === 'all' ? 'allow' : this.env.uncoveredPolicy();
  }

  /**
   * Asks the user about something the agent did not ask about (or asked about differently), in a card of the
   * client's own in the chat (or a notification when no chat shows the session), like an agent's request.
   */
  async askClient(q: ClientQuestion, token: CancellationToken): Promise<ClientAnswer> {
    if (this._disposed) return 'cancelled';
    // unguessable: the agent never learns it, so it cannot update the client's card with a tool_call_update
    const toolCallId = `${clientCheckPrefix}${++lastClientCheck}-${randomUUID()}`;
    const options: PermissionOption[] = [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      ...(q.session ? [{ optionId: 'session', name: q.session.option, kind: 'allow_always' as const }] : []),
      { optionId: 'refuse', name: 'Refuse', kind: 'reject_once' },
    ];
    const request: RequestPermissionRequest = { sessionId: q.sessionId, toolCall: { ...q.toolCall, toolCallId, status: 'pending' }, options };
    const response = await this.park(request, token, true, q.session?.allows);
    const picked = response.outcome.outcome === 'selected' ? response.outcome.optionId : undefined;
    const answer: ClientAnswer = picked === 'once' ? 'once' : picked === 'session' ? 'session' : picked === 'refuse' ? 'refused' : 'cancelled';
    const allows = q.session?.allows;
    if (answer === 'session' && allows) {
      this.grants.allowForSession(allows);
      // the questions of the same kind that wait behind this one are answered by it
      for (const other of [...this._pending.values()]) {
        if (other.allows === allows) this.settle(other.requestId, { outcome: { outcome: 'selected', optionId: 'once' } }, `Allowed: you allowed ${allows} in this session`);
      }
    }
    this.ctx.thread.recordPermissionOutcome({ toolCallId, status: answer === 'once' || answer === 'session' ? 'completed' : 'failed' }, this.ctx.thread.toolCall(toolCallId, q.sessionId)?.permissionOutcome ?? 'Cancelled', q.sessionId);
    return answer;
  }

  /**
   * The user picked an option (chat dialog or notification). Returns false, and changes nothing, for an
   * unknown request (another session's, already answered, cancelled, withdrawn) or an option it does not have.
   */
  respond(requestId: string, optionId: string): boolean {
    const pending = this._pending.get(requestId);
    if (pending?.offer && optionId === makeRuleOption) {
      // the card's rule button: the editor opens; the request waits for the rules (or for an answer)
      void this.makeRules(pending, pending.offer);
      return true;
    }
    const option = pending?.options.find((o) => o.optionId === optionId);
    if (!pending || !option) return false;
    this.settle(requestId, { outcome: { outcome: 'selected', optionId } }, outcomeLabels[option.kind] ?? option.name);
    return true;
  }

  /** Answers every pending request `cancelled` (turn cancelled, agent gone, session closed). */
  cancelAll(label = 'Cancelled'): void {
    this._cancelEpoch++;
    for (const id of [...this._pending.keys()]) this.settle(id, cancelled, label);
  }

  private park(p: RequestPermissionRequest, token: CancellationToken, fromClient = false, allows?: 'writes' | 'commands' | 'localCommands', offer?: PendingPermission['offer']): Promise<RequestPermissionResponse> {
    return new Promise<RequestPermissionResponse>((resolve) => {
      const requestId = `perm-${++lastRequestNumber}`;
      const pending: PendingPermission = { requestId, toolCallId: p.toolCall.toolCallId, options: p.options, resolve, notified: false, ...(allows ? { allows } : {}), ...(offer ? { offer } : {}) };
      this._pending.set(requestId, pending);
      const shown: { optionId: string; name: string; kind: string }[] = p.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind }));
      if (offer) shown.push({ optionId: makeRuleOption, name: ruleButtonLabel(offer.drafts[0]), kind: 'rule' });
      this.ctx.thread.setPermission(p.toolCall, requestId, shown, p.sessionId, fromClient);
      // the agent withdrew the request ($/cancel_request): close the dialog; the connection answers -32800
      pending.cancelListener = token.onCancellationRequested(() => this.settle(requestId, cancelled, 'Withdrawn by the agent'));
      if (this._pending.has(requestId) && !this.ctx.isChatVisible()) this.notify(pending, p, fromClient);
    });
  }

  /** Offers the request in a notification too; whichever answer comes first wins, a late click does nothing. */
  private notify(pending: PendingPermission, p: RequestPermissionRequest, fromClient: boolean): void {
    pending.notified = true;
    const entry = this.ctx.thread.toolCall(pending.toolCallId, p.sessionId);
    const prompt: PermissionPrompt = {
      agentName: this.ctx.agentName,
      title: entry?.title ?? p.toolCall.title ?? 'a tool call',
      toolKind: entry?.toolKind ?? p.toolCall.kind ?? 'other',
      options: pending.options,
      ...(fromClient ? { fromClient } : {}),
    };
    Promise.resolve(this.env.notify(prompt)).then((optionId) => {
      if (optionId === undefined) return; // dismissed: the chat still asks
      if (!this.respond(pending.requestId, optionId)) this.ctx.log.info(`a late answer from the notification for ${pending.requestId} was ignored: it was already answered`);
    }, (error: unknown) => this.ctx.log.warn(`the permission notification failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  private async autoApproval(p: RequestPermissionRequest): Promise<PermissionOption | undefined> {
    if (!readsApproved(this.level)) return undefined;
    // Allow Everything, in the session's own worktree: anything (a rule answered first)
    if (this.level === 'all') return p.options.find((o) => o.kind === 'allow_once') ?? p.options.find((o) => o.kind === 'allow_always');
    const call = this.callOf(p);
    const input = { ...call, toolKind: call.toolKind ?? 'other', options: p.options };
    // the session's folders: exactly its cwd and additional directories (docs/sessions.md "Session roots")
    const roots = [this.ctx.cwd, ...this.ctx.additionalDirectories];
    try {
      return await autoApproveOption('reads', input, roots, this.ctx.cwd);
    } catch (error) {
      this.ctx.log.warn(`auto-approve check failed, asking instead: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private settle(requestId: string, response: RequestPermissionResponse, label: string): void {
    const pending = this._pending.get(requestId);
    if (!pending) return;
    this._pending.delete(requestId);
    pending.cancelListener?.dispose();
    this.ctx.thread.clearPermission(requestId, label);
    pending.resolve(response);
  }

  /** Answers every pending request `cancelled`; later requests are answered `cancelled` at once. */
  dispose(): void {
    this._disposed = true;
    this.cancelAll();
    this._onDidChangeLevel.dispose();
  }
}
