/**
 * The rules of one session (docs/approvals.md, "Rules"): the user's and the workspace's (from the environment) and
 * the session's own, made from its cards. Reads what the rules say about a request, a write or a command, offers the
 * rules a card can make, and runs the rule editor. No vscode import: the editor and the settings come in a
 * {@link RuleEnvironment}, so this is unit-tested in plain Node.
 */
import type { PermissionOption } from '../../../acp/schema/types.gen';
import type { SessionContext } from '../../sessionContext';
import { ruleOnRequest, ruleOnTerminal, ruleOnWrite } from './requestRules';
import type { CompiledRules, RequestRuling, RuledCall } from './requestRules';
import { describeRule, ruleKey } from './ruleSet';
import type { Rule, RuleVerdict } from './ruleSet';
import { suggestRules } from './ruleSuggestions';
import type { RuleDraft } from './ruleSuggestions';
import type { ShellParser } from './shellParser';

/** The editor around the rules: settings, the shell parser, match counts and the rule editor. */
export interface RuleEnvironment {
  /**
   * The rules that apply to a session with these folders, `own` added; none when there are no rules at all (then
   * the shell parser is not even loaded).
   */
  rules(roots: readonly string[], own: readonly Rule[]): Promise<CompiledRules | undefined>;
  /** The shell parser, loaded on first use; undefined when it cannot be loaded (then no rule is offered). */
  parser(): Promise<ShellParser | undefined>;
  /** Rules answered a request, or allowed a write or command: their match counts go up. */
  ruleMatched(rules: readonly Rule[]): void;
  /**
   * The rule editor: the user picks, edits and scopes rules from the drafts; `check` tells what the request would
   * get with them. Resolves with the rules made (saved in settings unless their scope is the session); none when
   * the user closed it.
   */
  makeRules(drafts: readonly RuleDraft[], check: (rules: readonly Rule[]) => Promise<RequestRuling>): Promise<readonly Rule[]>;
}

/** An environment without rules (unit tests of other parts). */
export const noRules: RuleEnvironment = {
  rules: () => Promise.resolve(undefined),
  parser: () => Promise.resolve(undefined),
  ruleMatched: () => undefined,
  makeRules: () => Promise.resolve([]),
};

const none: RequestRuling = { allowedBy: [] };

/** The rules of one session. */
export class SessionRules {
  private _own: readonly Rule[] = [];

  /** `allowApplies`: false while the session's approval level asks for everything (src/shared/approvalLevel.ts). */
  constructor(private readonly ctx: SessionContext, private readonly env: RuleEnvironment, private readonly allowApplies: () => boolean = () => true) {}

  /** The rules made for this session only. */
  get own(): readonly Rule[] {
    return this._own;
  }

  /** Adds a rule of the session's own (from ACP: Manage Approval Rules). */
  add(rule: Rule): void {
    this._own = [...this._own.filter((r) => ruleKey(r) !== ruleKey(rule)), { ...rule, scope: 'session' }];
  }

  /** Removes a rule of the session's own. */
  remove(rule: Rule): void {
    this._own = this._own.filter((r) => ruleKey(r) !== ruleKey(rule));
  }

  /** Forgets the session's own rules ("Reset approvals"). */
  reset(): void {
    this._own = [];
  }

  /** The rules that apply now; none when there are none or they cannot be read (then everything is asked). */
  async compiled(): Promise<CompiledRules | undefined> {
    try {
      return await this.env.rules(this.roots(), this._own);
    } catch (error) {
      this.ctx.log.warn(`the rules could not be read, asking instead: ${errorText(error)}`);
      return undefined;
    }
  }

  /** What the rules say about a request. */
  ruling(call: RuledCall): Promise<RequestRuling> {
    return this.judge((rules) => ruleOnRequest(rules, call, this.ctx.cwd));
  }

  /** What the rules say about a `terminal/create` of this argv in `cwd`. */
  terminal(argv: readonly string[], cwd: string): Promise<RequestRuling> {
    return this.judge((rules) => ruleOnTerminal(rules, argv, cwd));
  }

  /** What the rules say about an `fs/write_text_file` of the file named `named` whose real path is `written`. */
  write(named: string, written: string): Promise<RequestRuling> {
    return this.judge((rules) => ruleOnWrite(rules, named, written));
  }

  /** A ruling answered something: the rules that decided count as matched. */
  matched(ruling: RequestRuling): void {
    if (!ruling.verdict) return;
    this.env.ruleMatched(ruling.verdict.action === 'allow' ? ruling.allowedBy : [ruling.verdict.rule]);
  }

  /** The rules a card offers for a request; none when the parser cannot be loaded. */
  async drafts(call: RuledCall): Promise<readonly RuleDraft[]> {
    try {
      const parser = await this.env.parser();
      return parser ? suggestRules(parser, call, this.ctx.cwd, this.roots()) : [];
    } catch (error) {
      this.ctx.log.warn(`no rule can be offered: ${errorText(error)}`);
      return [];
    }
  }

  /** Runs the rule editor for a request; returns the rules made (the session's own are kept here). */
  async make(drafts: readonly RuleDraft[], call: RuledCall): Promise<readonly Rule[]> {
    // what the request would get with the rules being made (the editor shows whether they still match it)
    const check = async (extra: readonly Rule[]): Promise<RequestRuling> => {
      const rules = await this.env.rules(this.roots(), [...this._own, ...extra]);
      return rules ? ruleOnRequest(rules, call, this.ctx.cwd) : none;
    };
    try {
      const made = await this.env.makeRules(drafts, check);
      this._own = [...this._own, ...made.filter((r) => r.scope === 'session')];
      return made;
    } catch (error) {
      this.ctx.log.warn(`the rule editor failed: ${errorText(error)}`);
      return [];
    }
  }

  private async judge(decide: (rules: CompiledRules) => RequestRuling): Promise<RequestRuling> {
    const rules = await this.compiled();
    if (!rules) return none;
    try {
      const ruling = decide(rules);
      // an allow rule does not answer at the level `ask`; a deny or ask rule still does
      return ruling.verdict?.action === 'allow' && !this.allowApplies() ? none : ruling;
    } catch (error) {
      this.ctx.log.warn(`the rules could not judge it, asking instead: ${errorText(error)}`);
      return none;
    }
  }

  /** The session's folders: exactly its cwd and additional directories (docs/sessions.md "Session roots"). */
  private roots(): string[] {
    return [this.ctx.cwd, ...this.ctx.additionalDirectories];
  }
}

/**
 * The agent's option a rule answers with: its allow-once (or reject-once) option, so that the agent does not cache
 * a broader grant than the rule's. A deny may use a reject-always option when there is no reject-once; an allow
 * never uses an allow-always one (the card asks instead).
 */
export function ruleOption(options: readonly PermissionOption[], verdict: RuleVerdict | undefined): PermissionOption | undefined {
  if (verdict?.action === 'allow') return options.find((o) => o.kind === 'allow_once');
  if (verdict?.action === 'deny') return options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
  return undefined;
}

/** The label on a card a rule answered: "Allowed by the workspace rule `npm test`". */
export function rulingLabel(verdict: RuleVerdict): string {
  return `${verdict.action === 'allow' ? 'Allowed' : verdict.action === 'deny' ? 'Denied' : 'Asked'} by ${describeRule(verdict.rule)}`;
}

/** The card's rule button: "Always allow npm test…" (the editor then asks where, and lets the user edit the rule). */
export function ruleButtonLabel(first: RuleDraft): string {
  const what = first.kind === 'command' ? first.pattern
    : `${first.kind === 'mcpTool' ? 'the MCP tool' : first.kind === 'host' ? 'fetching from' : first.kind === 'read' ? 'reading' : 'writing'} ${first.pattern}`;
  return `Always allow ${what.length > 40 ? `${what.slice(0, 39)}…` : what}…`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
