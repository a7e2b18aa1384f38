/**
 * Command rules against a command line (docs/approvals.md, "Rules"). The line is split into every command it runs
 * (src/host/permissions/rules/shellCommand.ts): a chain, a pipe, a substitution, a shell's `-c` script, the command a
 * wrapper (`sudo`, `env`, `xargs`, `find -exec`, …) runs. Then:
 *
 * - a deny rule that matches any command denies the line; else an ask rule that matches any command asks;
 * - an allow rule allows the line only when every command in it is allowed, every file its redirections write is
 *   allowed by a write rule, and no command sets a variable that changes what it runs (`LD_PRELOAD=… npm test`);
 * - a line that cannot be judged by its commands (`eval`, a script piped into a shell, a syntax error, a command
 *   that is a variable) is never allowed by a rule; deny rules still apply to the commands that can be read.
 */
import * as path from 'node:path';
import { changesCommand } from '../commandEnv';
import type { ShellAnalysis, ShellPart, ShellWord } from './shellCommand';
import { stronger } from './ruleSet';
import type { Rule, RuleSet, RuleVerdict } from './ruleSet';

/** A command rule, compiled: its words, `*` words open. */
export interface CommandPattern {
  readonly rule: Rule;
  /** Each word: a literal, or `*` (any one word; as the last word, any number of words). */
  readonly words: readonly (string | typeof anyWord)[];
}

/** The open word of a command pattern. */
export const anyWord: unique symbol = Symbol('any word');

/** What the rules say about one command line, and why. */
export interface CommandRuling {
  /** The deciding rule, or none when no rule decides (the user is asked as without rules). */
  readonly verdict?: RuleVerdict;
  /** Every rule that allowed a command of the line (for the match counts), when the line is allowed. */
  readonly allowedBy: readonly Rule[];
  /** Why an allow rule did not allow the line (a command no rule allows, an opaque line), when one matched a part. */
  readonly notAllowed?: string;
}

/**
 * Compiles a command rule from its analysis (the rule's text read as a shell line): one command of literal words,
 * `*` words open. Returns the reason when the text is not such a rule.
 */
export function compileCommandRule(rule: Rule, analysis: ShellAnalysis): CommandPattern | string {
  if (analysis.opaque) return `not a plain command: ${analysis.opaque}`;
  if (analysis.parts.length !== 1) return analysis.parts.length === 0 ? 'no command' : 'more than one command: write one rule for each';
  const part = analysis.parts[0];
  if (part.assignments.length > 0) return 'a rule cannot set variables';
  if (part.argv.length === 0) return 'no command';
  if (analysis.writes.length > 0) return 'a rule cannot redirect: write a write rule for the file';
  const words: (string | typeof anyWord)[] = [];
  for (const [i, w] of part.argv.entries()) {
    if (w.dynamic && w.text === '*' && i > 0) words.push(anyWord);
    else if (w.dynamic) return `${w.text} is not a literal word (only a whole \`*\` word is open)`;
    else words.push(w.text);
  }
  return { rule, words };
}

/** True when the pattern matches one command's words. */
export function matchesPart(pattern: CommandPattern, argv: readonly ShellWord[]): boolean {
  const { words } = pattern;
  const lastOpen = words.length > 0 && words[words.length - 1] === anyWord;
  const fixed = lastOpen ? words.length - 1 : words.length;
  if (argv.length < fixed || (!lastOpen && argv.length !== fixed)) return false;
  for (let i = 0; i < fixed; i++) {
    const w = words[i];
    if (w === anyWord) continue;
    if (argv[i].dynamic || argv[i].text !== w) return false;
  }
  return true;
}

/** The strongest rule about one command. */
function partVerdict(patterns: readonly CommandPattern[], part: ShellPart): RuleVerdict | undefined {
  let best: RuleVerdict | undefined;
  for (const p of patterns) if (matchesPart(p, part.argv)) best = stronger(best, { action: p.rule.action, rule: p.rule });
  return best;
}

/** What the rules say about a command line that runs in `cwd`. */
export function ruleOnCommand(rules: RuleSet, patterns: readonly CommandPattern[], line: ShellAnalysis, cwd: string): CommandRuling {
  let strongest: RuleVerdict | undefined;
  const allowedBy: Rule[] = [];
  let unallowed: string | undefined;
  for (const part of line.parts) {
    const v = partVerdict(patterns, part);
    strongest = stronger(strongest, v);
    if (v?.action === 'allow') {
      if (part.assignments.some((a) => changesCommand(a.name))) unallowed ??= `${part.text} sets ${part.assignments.filter((a) => changesCommand(a.name)).map((a) => a.name).join(', ')}`;
      else if (!allowedBy.includes(v.rule)) allowedBy.push(v.rule);
    } else if (!v) unallowed ??= part.argv.length === 0 ? `${part.text} sets variables` : `no rule allows ${part.text}`;
  }
  for (const target of line.writes) {
    const v = target.dynamic ? undefined : rules.path('write', path.resolve(cwd, target.text));
    strongest = stronger(strongest, v);
    if (v?.action === 'allow') {
      if (!allowedBy.includes(v.rule)) allowedBy.push(v.rule);
    } else if (!v) unallowed ??= `no rule allows writing ${target.text}`;
  }
  if (!strongest) return { allowedBy: [] };
  if (strongest.action !== 'allow') return { verdict: strongest, allowedBy: [] };
  const why = line.opaque ? `the line cannot be judged by its commands: ${line.opaque}` : line.parts.length === 0 ? 'no command' : unallowed;
  return why === undefined ? { verdict: strongest, allowedBy } : { allowedBy: [], notAllowed: why };
}
