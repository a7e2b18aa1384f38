/**
 * Permission rules (docs/approvals.md, "Rules"): allow, ask or deny for a subject that a request carries, never for
 * its title or declared kind. No vscode import: unit-tested in plain Node.
 *
 * - A **command** rule is a command line: its words must equal the command's argv word for word; a `*` word matches
 *   any one word, and a last `*` any number of words (none included). A line is split into every command it runs
 *   (src/host/permissions/rules/shellCommand.ts); a rule allows the line only when every command in it is allowed.
 * - A **read** or **write** rule is a glob (picomatch) of paths, relative to a session folder, absolute, or `~/…`.
 * - An **mcpTool** rule is a glob of `server/tool`; a **host** rule a glob of host names (`*.github.com`).
 *
 * Scopes: this session (kept by the session), this workspace (workspace settings), or the user's (user settings).
 * Deny wins over ask, and ask over allow, whatever the scope. A workspace's allow rules apply only in a trusted
 * workspace: its deny and ask rules always apply.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type * as GlobMatcher from './globMatcher';
import { platformCaseInsensitive } from '../../files/pathPolicy';

/** What a rule does. */
export type RuleAction = 'allow' | 'ask' | 'deny';
/** What a rule is about. */
export type RuleKind = 'command' | 'read' | 'write' | 'mcpTool' | 'host';
/** Where a rule lives. */
export type RuleScope = 'session' | 'workspace' | 'user';

/** One rule. */
export interface Rule {
  readonly action: RuleAction;
  readonly kind: RuleKind;
  /** The command line (command) or glob (the others), as the user wrote it. */
  readonly pattern: string;
  readonly scope: RuleScope;
}

/** A rule that decided, and what it decided. */
export interface RuleVerdict {
  readonly action: RuleAction;
  readonly rule: Rule;
}

/** The strength of an action: deny wins over ask, ask over allow. */
export const actionRank: Readonly<Record<RuleAction, number>> = { allow: 0, ask: 1, deny: 2 };

/** The stronger of two verdicts (the first on a tie). */
export function stronger(a: RuleVerdict | undefined, b: RuleVerdict | undefined): RuleVerdict | undefined {
  if (!a) return b;
  if (!b) return a;
  return actionRank[b.action] > actionRank[a.action] ? b : a;
}

/** A stable key of a rule (its match count is kept under it). */
export function ruleKey(r: Rule): string {
  return `${r.scope}|${r.action}|${r.kind}|${r.pattern}`;
}

const scopeNames: Readonly<Record<RuleScope, string>> = { session: 'session', workspace: 'workspace', user: 'user' };
const kindNames: Readonly<Record<RuleKind, string>> = { command: 'command', read: 'read', write: 'write', mcpTool: 'MCP tool', host: 'host' };

/** How a card names the rule that answered: "the workspace rule `npm test`". */
export function describeRule(r: Rule): string {
  return `the ${scopeNames[r.scope]} ${r.kind === 'command' ? '' : `${kindNames[r.kind]} `}rule ${code(r.pattern)}`;
}

/** Text in a Markdown code span that no backtick in it can close. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return longest > 0 ? `${ticks} ${text} ${ticks}` : `${ticks}${text}${ticks}`;
}

/** A glob rule ready to match. */
interface CompiledGlob {
  readonly rule: Rule;
  readonly test: (candidate: string) => boolean;
}

/** The rules of one session: its own, the workspace's and the user's. */
export class RuleSet {
  private readonly _globs = new Map<RuleKind, CompiledGlob[]>();
  /** The rules that apply (an untrusted workspace's allow rules do not). */
  readonly active: readonly Rule[];
  /** The rules that do not apply, each with why. */
  readonly inactive: readonly { readonly rule: Rule; readonly reason: string }[];

  constructor(rules: readonly Rule[], readonly roots: readonly string[], trusted: boolean) {
    const inactive: { rule: Rule; reason: string }[] = [];
    this.active = rules.filter((r) => {
      if (r.scope === 'workspace' && r.action === 'allow' && !trusted) {
        inactive.push({ rule: r, reason: 'a workspace allow rule applies only in a trusted workspace' });
        return false;
      }
      return true;
    });
    this.inactive = inactive;
    for (const rule of this.active) {
      if (rule.kind === 'command') continue;
      const list = this._globs.get(rule.kind) ?? [];
      list.push({ rule, test: globTest(rule) });
      this._globs.set(rule.kind, list);
    }
  }

  /** The command rules that apply. */
  get commandRules(): readonly Rule[] {
    return this.active.filter((r) => r.kind === 'command');
  }

  /** The strongest rule about reading (`read`) or writing (`write`) an absolute path. */
  path(kind: 'read' | 'write', absolute: string): RuleVerdict | undefined {
    const candidates = pathCandidates(absolute, this.roots);
    return this.strongest(kind, (t) => candidates.some((c) => t(c)));
  }

  /** The strongest rule about an MCP tool (`server/tool`). */
  mcpTool(name: string): RuleVerdict | undefined {
    return this.strongest('mcpTool', (t) => t(name));
  }

  /** The strongest rule about fetching from a host. */
  host(name: string): RuleVerdict | undefined {
    const host = name.toLowerCase().replace(/\.$/, '');
    return this.strongest('host', (t) => t(host));
  }

  private strongest(kind: RuleKind, matches: (test: (candidate: string) => boolean) => boolean): RuleVerdict | undefined {
    let best: RuleVerdict | undefined;
    for (const g of this._globs.get(kind) ?? []) {
      if (matches(g.test)) best = stronger(best, { action: g.rule.action, rule: g.rule });
    }
    return best;
  }
}

function globTest(rule: Rule): (candidate: string) => boolean {
  const caseless = rule.kind === 'host' || ((rule.kind === 'read' || rule.kind === 'write') && platformCaseInsensitive);
  const pattern = rule.kind === 'read' || rule.kind === 'write' ? pathPattern(rule.pattern) : rule.pattern;
  return globMatcher().compileGlob(pattern, caseless);
}

/** picomatch, required when the first glob rule is compiled (its own bundle: esbuild.mjs, `lazyModules`). */
function globMatcher(): typeof GlobMatcher {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
  return require('./globMatcher') as typeof GlobMatcher;
}

/** A path glob with `~/` expanded and separators made `/` (picomatch's). */
function pathPattern(pattern: string): string {
  const expanded = pattern === '~' || pattern.startsWith('~/') ? path.join(os.homedir(), pattern.slice(1)) : pattern;
  return expanded.split(path.sep).join('/');
}

/**
 * The forms a path is matched in: absolute, and relative to each session folder it is inside. A path outside every
 * folder matches only absolute globs.
 */
export function pathCandidates(absolute: string, roots: readonly string[]): string[] {
  const out = [absolute.split(path.sep).join('/')];
  for (const root of roots) {
    const rel = relativeInside(absolute, root);
    if (rel !== undefined) out.push(rel);
  }
  return out;
}

/** A path relative to `root`, `/`-separated, when it is inside it (the root itself is not); else undefined. */
export function relativeInside(absolute: string, root: string): string | undefined {
  const rel = path.relative(root, absolute);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : undefined;
}
