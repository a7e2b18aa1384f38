/**
 * The rules on a permission request, by what its tool call carries (docs/approvals.md, "Rules"), never by its title:
 * the command line of its `rawInput`, the paths it names (written when it writes them by its content or its kind
 * is edit, delete or move; read otherwise), the MCP tool it calls and the host it fetches from. A deny or ask rule
 * on any of them decides; the request is allowed only when a rule allows every one of them.
 */
import * as path from 'node:path';
import { asObject, rawCommand } from '../../../thread/view/permissionSubject';
import type { SubjectSource } from '../../../thread/view/permissionSubject';
import { subjectPaths, writesItsPaths } from '../grantLedger';
import { compileCommandRule, ruleOnCommand } from './commandRules';
import type { CommandPattern } from './commandRules';
import { stronger } from './ruleSet';
import type { Rule, RuleSet, RuleVerdict } from './ruleSet';
import type { ShellAnalysis } from './shellCommand';
import type { ShellParser } from './shellParser';

/** A session's rules, compiled: globs and command patterns, and the rules that could not be read. */
export interface CompiledRules {
  readonly set: RuleSet;
  readonly commands: readonly CommandPattern[];
  readonly broken: readonly { readonly rule: Rule; readonly reason: string }[];
  readonly parser: ShellParser;
}

/** Compiles the command rules of a rule set. */
export function compileRules(set: RuleSet, parser: ShellParser): CompiledRules {
  const commands: CommandPattern[] = [];
  const broken: { rule: Rule; reason: string }[] = [];
  for (const rule of set.commandRules) {
    const compiled = compileCommandRule(rule, parser.analyzeRule(rule.pattern));
    if (typeof compiled === 'string') broken.push({ rule, reason: compiled });
    else commands.push(compiled);
  }
  return { set, commands, broken, parser };
}

/** What the rules say about a request (or a write, or a command) and which rules took part. */
export interface RequestRuling {
  /** The deciding rule; none when the rules do not decide. */
  readonly verdict?: RuleVerdict;
  /** With an allow verdict: every rule that allowed a part of it. */
  readonly allowedBy: readonly Rule[];
}

const noRuling: RequestRuling = { allowedBy: [] };

/** A tool call as the rules read it. */
export interface RuledCall extends SubjectSource {
  readonly toolKind?: string;
  /** The agent's programmatic name of its tool (the tool call's `name`). */
  readonly toolName?: string;
}

/** The rules on a permission request. */
export function ruleOnRequest(rules: CompiledRules, call: RuledCall, cwd: string): RequestRuling {
  const rulings: RequestRuling[] = [];
  const line = commandOf(rules.parser, call.rawInput);
  if (line) rulings.push(rulingOf(ruleOnCommand(rules.set, rules.commands, line, commandCwd(call.rawInput, cwd))));
  const writes = writesItsPaths(call);
  for (const p of subjectPaths(call, cwd)) rulings.push(single(rules.set.path(writes ? 'write' : 'read', p)));
  const tool = mcpToolOf(call);
  if (tool) rulings.push(single(rules.set.mcpTool(tool)));
  const host = hostOf(call.rawInput);
  if (host) rulings.push(single(rules.set.host(host)));
  return combine(rulings);
}

/** The rules on a `terminal/create` (argv, no shell in between) that runs in `cwd`. */
export function ruleOnTerminal(rules: CompiledRules, argv: readonly string[], cwd: string): RequestRuling {
  return rulingOf(ruleOnCommand(rules.set, rules.commands, rules.parser.analyzeArgv(argv), cwd));
}

/**
 * The rules on an `fs/write_text_file` of a file at `written` (its real path: symlinks resolved) named as `named`:
 * a deny rule on either denies; only a rule that allows the file really written allows it.
 */
export function ruleOnWrite(rules: CompiledRules, named: string, written: string): RequestRuling {
  const real = rules.set.path('write', written);
  const verdict = stronger(real, named === written ? undefined : rules.set.path('write', named));
  if (verdict?.action === 'allow' && real?.action !== 'allow') return noRuling;
  return single(verdict);
}

function single(v: RuleVerdict | undefined): RequestRuling {
  return v ? { verdict: v, allowedBy: v.action === 'allow' ? [v.rule] : [] } : noRuling;
}

function rulingOf(r: { readonly verdict?: RuleVerdict; readonly allowedBy: readonly Rule[] }): RequestRuling {
  return r.verdict ? { verdict: r.verdict, allowedBy: r.allowedBy } : noRuling;
}

/** Deny or ask on any subject decides; allow needs every subject allowed. */
function combine(rulings: readonly RequestRuling[]): RequestRuling {
  if (rulings.length === 0) return noRuling;
  let strongest: RuleVerdict | undefined;
  for (const r of rulings) strongest = stronger(strongest, r.verdict);
  if (!strongest) return noRuling;
  if (strongest.action !== 'allow') return { verdict: strongest, allowedBy: [] };
  if (rulings.some((r) => r.verdict?.action !== 'allow')) return noRuling;
  return { verdict: strongest, allowedBy: [...new Set(rulings.flatMap((r) => r.allowedBy))] };
}

/** The command line of a `rawInput`, analysed: a string is a shell line, an argv array runs without a shell. */
export function commandOf(parser: ShellParser, rawInput: unknown): ShellAnalysis | undefined {
  const command = rawCommand(rawInput);
  if (!command) return undefined;
  return 'argv' in command ? parser.analyzeArgv(command.argv) : parser.analyze(command.line);
}

function commandCwd(rawInput: unknown, cwd: string): string {
  const input = asObject(rawInput);
  const dir = input?.cwd ?? input?.workdir;
  return typeof dir === 'string' && dir !== '' ? path.resolve(cwd, dir) : cwd;
}

/**
 * The MCP tool a tool call runs, as `server/tool`: from its `name` in the `mcp__server__tool` form (Claude Code's),
 * or from a `rawInput` with `server` and `tool` (Codex's MCP calls).
 */
export function mcpToolOf(call: RuledCall): string | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(call.toolName ?? '');
  if (m) return `${m[1]}/${m[2]}`;
  const input = asObject(call.rawInput);
  const server = input?.server;
  const tool = input?.tool;
  return typeof server === 'string' && typeof tool === 'string' && server !== '' && tool !== '' ? `${server}/${tool}` : undefined;
}

/** The host a `rawInput`'s `url` points at (http and https only). */
export function hostOf(rawInput: unknown): string | undefined {
  const url = asObject(rawInput)?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
