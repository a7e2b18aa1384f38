/**
 * The rules a permission card offers (docs/approvals.md, "Rules"), built from what the request carries, never from
 * its title: each command of its line exactly and with open arguments (`npm test`, `npm test *`, `npm *`), each path it
 * writes (or reads) and its folder, its MCP tool and that server's tools, the host it fetches from. Each suggestion
 * says in words exactly what it matches.
 */
import * as path from 'node:path';
import { shellQuote } from '../../../thread/view/permissionSubject';
import { subjectPaths, writesItsPaths } from '../grantLedger';
import { anyWord, compileCommandRule } from './commandRules';
import type { CommandPattern } from './commandRules';
import { code, relativeInside } from './ruleSet';
import type { RuleKind } from './ruleSet';
import { commandOf, hostOf, mcpToolOf } from './requestRules';
import type { RuledCall } from './requestRules';
import type { ShellParser } from './shellParser';

/** A rule to offer, without its action and scope (the user picks those). */
export interface RuleDraft {
  readonly kind: RuleKind;
  readonly pattern: string;
}

/** Rules offered at most. */
const maxSuggestions = 12;

/** The rules to offer for a request, the most exact first for each subject. */
export function suggestRules(parser: ShellParser, call: RuledCall, cwd: string, roots: readonly string[]): RuleDraft[] {
  const out: RuleDraft[] = [];
  const add = (kind: RuleKind, pattern: string): void => {
    if (pattern !== '' && !out.some((d) => d.kind === kind && d.pattern === pattern)) out.push({ kind, pattern });
  };
  const line = commandOf(parser, call.rawInput);
  for (const part of line?.parts ?? []) {
    if (part.argv.length === 0 || part.argv[0].dynamic) continue;
    const literal = part.argv.findIndex((w) => w.dynamic);
    const words = (literal === -1 ? part.argv : part.argv.slice(0, literal)).map((w) => shellQuote(w.text));
    if (literal === -1) add('command', words.join(' '));
    // the program and its subcommand (a word that is not an option), then the program alone, with any arguments
    if (words.length > 1 && !words[1].startsWith('-') && !words[1].includes('/')) add('command', `${words.slice(0, 2).join(' ')} *`);
    add('command', `${words[0]} *`);
  }
  const writes = writesItsPaths(call);
  for (const p of subjectPaths(call, cwd)) {
    const kind = writes ? 'write' : 'read';
    const shown = relativeTo(p, roots);
    add(kind, shown);
    const dir = path.posix.dirname(shown);
    add(kind, dir === '.' || dir === '/' ? '**' : `${dir}/**`);
  }
  const tool = mcpToolOf(call);
  if (tool) {
    add('mcpTool', tool);
    add('mcpTool', `${tool.slice(0, tool.indexOf('/'))}/*`);
  }
  const host = hostOf(call.rawInput);
  if (host) {
    add('host', host);
    const dot = host.indexOf('.');
    if (dot > 0 && host.indexOf('.', dot + 1) > 0) add('host', `*${host.slice(dot)}`);
  }
  return out.slice(0, maxSuggestions);
}

/** A path as a rule writes it: relative to the session folder it is in, absolute otherwise. */
function relativeTo(absolute: string, roots: readonly string[]): string {
  for (const root of roots) {
    const rel = relativeInside(absolute, root);
    if (rel !== undefined) return rel;
  }
  return absolute.split(path.sep).join('/');
}

/** What a rule matches, in words: "`npm test` with any arguments", "files matching `src/**`". */
export function describeMatch(draft: RuleDraft, parser: ShellParser): string {
  switch (draft.kind) {
    case 'command': {
      const compiled = compileCommandRule({ ...draft, action: 'allow', scope: 'session' }, parser.analyzeRule(draft.pattern));
      return typeof compiled === 'string' ? `not a rule: ${compiled}` : commandMatch(compiled);
    }
    case 'read': return `reading files that match ${code(draft.pattern)} (relative to the session's folders, or absolute)`;
    case 'write': return `writing files that match ${code(draft.pattern)} (relative to the session's folders, or absolute)`;
    case 'mcpTool': return `the MCP tools that match ${code(draft.pattern)} (server/tool)`;
    case 'host': return `fetching from hosts that match ${code(draft.pattern)}`;
  }
}

function commandMatch(p: CommandPattern): string {
  const fixed = p.words.map((w) => (w === anyWord ? '*' : shellQuote(w)));
  const open = p.words[p.words.length - 1] === anyWord;
  const inner = p.words.slice(0, open ? -1 : undefined).some((w) => w === anyWord) ? ' (each `*` is one word)' : '';
  if (!open) return `exactly the command ${code(fixed.join(' '))}${inner}, alone or as one part of a chain whose every part is allowed`;
  return `the command ${code(fixed.slice(0, -1).join(' '))} with any arguments or none${inner}, alone or as one part of a chain whose every part is allowed`;
}
