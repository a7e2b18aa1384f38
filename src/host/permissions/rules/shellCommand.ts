/**
 * The commands a shell command line runs, for permission rules (src/host/permissions/rules/commandRules.ts): a rule
 * allows a line only when it allows every command in it, so the line is read with a real shell grammar
 * (tree-sitter's bash grammar, https://github.com/tree-sitter/tree-sitter-bash; loaded by
 * src/host/permissions/rules/shellParser.ts) and this file walks the tree. Pure: no `vscode`, no I/O.
 *
 * - Every simple command is a part, in source order: in lists, pipelines, `( … )`, `{ …; }`, if/while/until/for/
 *   case/select bodies, `$( … )`, backticks, `<( … )`/`>( … )`, redirection targets, and unquoted heredoc bodies
 *   (their substitutions run); `declaration_command`s (`export A=1`, `local x`) and `unset` are parts too.
 *   `[ … ]`, `[[ … ]]` and `(( … ))` are tests, not parts (the commands substituted in them are).
 * - A command with only assignments (`FOO=1`) is a part with an empty argv; one with only redirections
 *   (`> f`) is no part (its write is in `writes`).
 * - Shell `-c` scripts, wrappers (`sudo`, `env`, `xargs`, `find -exec`, …) and commands that run text
 *   (`eval`, `source`): src/host/permissions/rules/shellWrappers.ts. A wrapped command's part carries the
 *   assignments of its wrapper's part plus the NAME=value pairs the wrapper sets; every part of a `-c` script
 *   carries the assignments of the shell's command (`LD_PRELOAD=x bash -c 'npm test'`).
 * - tree-sitter-bash quirks handled here: words it splits but bash reads as one (x`pwd`y, a backslash-newline
 *   inside a word) are joined; words it puts after a redirection's target (`git 2>/dev/null push`) stay the
 *   command's; backticks in an unquoted heredoc body (which it leaves unparsed) are read as scripts.
 * - Opaque: a syntax error, a dynamic command name, a function definition, what shellWrappers.ts says, a line
 *   over {@link MAX_LINE} characters, `-c` scripts nested deeper than 8, or any node type this file does not know.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { shellQuote } from '../../../thread/view/permissionSubject';
import { clip, judgeArgv } from './shellWrappers';
import type { ArgvVerdict, ArgWord } from './shellWrappers';
import { appendWord, assignmentOf, assignmentWord, wordOf } from './shellWords';
import type { SourceWord } from './shellWords';

/** One word of a command. */
export interface ShellWord {
  /** The word as the shell passes it when literal (quotes removed, escapes applied); when dynamic, its source text. */
  readonly text: string;
  /** True when it holds an expansion: $VAR, ${…}, $(…), `…`, $((…)), a glob * ? […] or a brace expansion outside quotes, or a ~ at its start (or after `=`/`:`). */
  readonly dynamic: boolean;
}

/** A variable a command sets: `FOO=1 npm test`, or `env FOO=1 …`. */
export interface ShellAssignment {
  readonly name: string;
  /** The value as assigned when literal, else its source text. */
  readonly value: string;
}

/** One simple command of a line. */
export interface ShellPart {
  /** Its words, the program first (empty for a command that only assigns variables). */
  readonly argv: readonly ShellWord[];
  readonly assignments: readonly ShellAssignment[];
  /** The command's own source text (for a command given as an argv, the words shell-quoted). */
  readonly text: string;
}

/** A command line read as the commands it runs. */
export interface ShellAnalysis {
  /** Every simple command, in source order (see the file's comment). */
  readonly parts: readonly ShellPart[];
  /** The files the redirections write (`>`, `>>`, `&>`, `&>>`, `>|`, `N>`, `>&FILE`), but not /dev/null, /dev/stdout, /dev/stderr, nor fd duplications. */
  readonly writes: readonly ShellWord[];
  /** Set when the line cannot be judged by its parts, and why (see the file's comment). */
  readonly opaque?: string;
}

/** Parses one script with the bash grammar; undefined when it could not (it took too long). The caller deletes the tree. */
export type ParseScript = (script: string) => Tree | undefined;

/** Lines longer than this (in UTF-16 units) are opaque without being parsed. */
export const MAX_LINE = 100_000;
const MAX_SCRIPT_DEPTH = 8;
const MAX_NESTING = 200;

/** The commands of a shell command line. Never throws. */
export function analyzeLine(line: string, parse: ParseScript): ShellAnalysis {
  return collect((out) => new Walk(out, parse, 0).source(line));
}

/**
 * A command rule's text (`timeout *`, `sudo npm test`) read as written: like {@link analyzeLine}, but a wrapper, a
 * shell's `-c` script or `eval` is one command with its words (not unwrapped, not opaque), so that a rule can name
 * the wrapper part of a line. Never throws.
 */
export function analyzeRuleText(text: string, parse: ParseScript): ShellAnalysis {
  return collect((out) => new Walk(out, parse, 0, [], false).source(text));
}

/**
 * The commands of an argv run without a shell (`terminal/create` `{command, args}`): one part from the literal words,
 * with shell `-c` scripts and wrappers read as in a line. Never throws.
 */
export function analyzeWords(argv: readonly string[], parse: ParseScript): ShellAnalysis {
  return collect((out) => {
    if (argv.reduce((n, a) => n + a.length + 1, 0) > MAX_LINE) return out.fail(`the command is too long to analyse (over ${MAX_LINE} characters)`);
    const words = argv.map((text): SourceWord => ({ text, dynamic: false, split: false, start: -1, end: -1 }));
    new Walk(out, parse, 0).command(words, [], argv.map(shellQuote).join(' '), 0);
  });
}

class Out {
  readonly parts: ShellPart[] = [];
  readonly writes: ShellWord[] = [];
  opaque: string | undefined;
  fail(reason: string): void { this.opaque ??= reason; }
}

function collect(run: (out: Out) => void): ShellAnalysis {
  const out = new Out();
  try {
    run(out);
  } catch (e) {
    out.fail(`the line could not be analysed (${e instanceof Error ? e.message : String(e)})`);
  }
  return { parts: out.parts, writes: out.writes, ...(out.opaque !== undefined ? { opaque: out.opaque } : {}) };
}

const toShellWord = (w: ArgWord): ShellWord => ({ text: w.text, dynamic: w.dynamic });
const NOT_WRITTEN = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const WRITE_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);
/** Nodes whose named children are walked for the commands in them. */
const CONTAINERS = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'do_group', 'if_statement', 'elif_clause', 'else_clause',
  'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'case_item', 'negated_command', 'test_command',
  'command_substitution', 'process_substitution', 'herestring_redirect', 'string', 'concatenation', 'expansion',
  'simple_expansion', 'arithmetic_expansion', 'array', 'number', 'binary_expression', 'unary_expression', 'postfix_expression',
  'ternary_expression', 'parenthesized_expression', 'subscript', 'translated_string', 'brace_expression', 'command_name',
]);
/** Nodes that hold no command. */
const INERT = new Set([
  'word', 'raw_string', 'ansi_c_string', 'string_content', 'heredoc_content', 'heredoc_start', 'heredoc_end', 'comment',
  'variable_name', 'special_variable_name', 'file_descriptor', 'test_operator', 'extglob_pattern', 'regex',
]);

/** One script's walk (the line, or a `-c` script in it); every walk of a line adds to the same {@link Out}. */
class Walk {
  private src = '';

  /** `env`: the variables the shell running this script was given (`FOO=1 bash -c '…'`): every part of the script has them. */
  /** `unwrap`: false to read every command as its own words only ({@link analyzeRuleText}). */
  constructor(
    private readonly out: Out,
    private readonly parse: ParseScript,
    private readonly depth: number,
    private readonly env: readonly ShellAssignment[] = [],
    private readonly unwrap = true,
  ) {}

  source(text: string): void {
    if (text.length > MAX_LINE) return this.out.fail(`the line is too long to analyse (${text.length} characters, at most ${MAX_LINE})`);
    const tree = this.parse(text);
    if (!tree) return this.out.fail('the line took too long to parse');
    try {
      this.src = text;
      const root = tree.rootNode;
      if (root.hasError) this.out.fail(syntaxError(root));
      this.visit(root, 0);
    } finally {
      tree.delete();
    }
  }

  /** A command's words: its part, then the parts of what it runs (a `-c` script replaces the shell's part). */
  command(words: readonly SourceWord[], assignments: readonly ShellAssignment[], text: string, level: number): void {
    if (words.length === 0) {
      if (assignments.length > 0) this.part([], assignments, text);
      return;
    }
    const verdict: ArgvVerdict = this.unwrap ? judgeArgv(words) : { kind: 'plain' };
    if (verdict.kind === 'script') return this.script(words[verdict.index].text, assignments);
    this.part(words.map(toShellWord), assignments, text);
    if (words[0].dynamic) this.out.fail(`the command name ${clip(words[0].text)} is dynamic`);
    if (verdict.kind === 'opaque') this.out.fail(verdict.reason);
    if (verdict.kind !== 'wrapper') return;
    if (level > MAX_NESTING) return this.out.fail('wrappers nested too deeply');
    for (const w of verdict.wrapped) {
      const inner = words.slice(w.start, w.end).map((x) => (w.replace && x.text.includes(w.replace) ? { ...x, dynamic: true, split: true } : x));
      if (inner.length === 0) continue;
      const innerText = inner[0].start >= 0 ? this.src.slice(inner[0].start, inner[inner.length - 1].end) : inner.map((x) => shellQuote(x.text)).join(' ');
      this.command(inner, [...assignments, ...w.assignments], innerText, level + 1);
    }
  }

  private part(argv: readonly ShellWord[], assignments: readonly ShellAssignment[], text: string): void {
    this.out.parts.push({ argv, assignments: this.env.length > 0 ? [...this.env, ...assignments] : assignments, text });
  }

  private script(text: string, assignments: readonly ShellAssignment[] = []): void {
    if (this.depth + 1 > MAX_SCRIPT_DEPTH) return this.out.fail(`shell -c scripts nested more than ${MAX_SCRIPT_DEPTH} deep`);
    new Walk(this.out, this.parse, this.depth + 1, [...this.env, ...assignments]).source(text);
  }

  private visit(node: Node, level: number): void {
    if (level > MAX_NESTING) return this.out.fail('the line is nested too deeply');
    const type = node.type;
    if (INERT.has(type) || !node.isNamed) return;
    if (CONTAINERS.has(type)) return this.children(node, level);
    switch (type) {
      case 'command': return this.simpleCommand(node, [], level);
      case 'redirected_statement': return this.redirected(node, level);
      case 'declaration_command': case 'unset_command': return this.declaration(node, level);
      case 'variable_assignment': case 'variable_assignments': {
        const list = type === 'variable_assignment' ? [node] : node.namedChildren.filter((c): c is Node => c?.type === 'variable_assignment');
        this.part([], list.map(assignmentOf), node.text);
        for (const a of list) this.children(a, level);
        return;
      }
      case 'function_definition':
        this.out.fail(`it defines a function (${clip(node.childForFieldName('name')?.text ?? '?')})`);
        return this.children(node, level);
      case 'file_redirect': case 'heredoc_redirect': {
        const later: Node[] = [];
        this.redirect(node, later, later);
        return this.visitAll(later, level);
      }
      case 'heredoc_body': return this.heredocBody(node, level);
      case 'ERROR':
        this.out.fail(syntaxError(node));
        return this.children(node, level);
      default:
        this.out.fail(`unexpected shell syntax (${type})`);
        return this.children(node, level);
    }
  }

  private children(node: Node, level: number): void {
    for (let i = 0; i < node.namedChildCount; i++) {
      const c = node.namedChild(i);
      if (c) this.visit(c, level + 1);
    }
  }

  private visitAll(nodes: readonly Node[], level: number): void {
    for (const n of nodes) this.visit(n, level + 1);
  }

  /** A simple command: `extras` are words tree-sitter put after its redirections (`git 2>/dev/null push`). */
  private simpleCommand(node: Node, extras: readonly Node[], level: number, after: readonly Node[] = []): void {
    const words: SourceWord[] = [];
    const assignments: ShellAssignment[] = [];
    const later: Node[] = [];
    const more: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (!c || !c.isNamed || c.isMissing) continue;
      const field = node.fieldNameForChild(i);
      if (c.type === 'variable_assignment') {
        assignments.push(assignmentOf(c));
        for (const x of c.namedChildren) if (x) later.push(x);
      } else if (field === 'name' || field === 'argument') {
        const w = c.type === 'command_name' ? (c.namedChild(0) ?? c) : c;
        if (!w.isMissing) appendWord(words, wordOf(w), this.src);
        later.push(c);
      } else if (field === 'redirect') {
        this.redirect(c, more, later);
        for (const m of more.splice(0)) { appendWord(words, wordOf(m), this.src); later.push(m); }
      } else later.push(c);
    }
    for (const e of extras) { appendWord(words, wordOf(e), this.src); later.push(e); }
    const last = extras[extras.length - 1];
    this.command(words, assignments, last ? this.src.slice(node.startIndex, last.endIndex) : node.text, 0);
    this.visitAll(later, level);
    this.visitAll(after, level);
  }

  private redirected(node: Node, level: number): void {
    const body = node.childForFieldName('body');
    const extras: Node[] = [];
    const later: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (!c || !c.isNamed || (body && c.equals(body))) continue;
      this.redirect(c, extras, later);
    }
    if (body?.type === 'command') return this.simpleCommand(body, extras, level, later);
    if (extras.length > 0) this.out.fail('words after the redirections of a compound command');
    if (body) this.visit(body, level + 1);
    this.visitAll([...extras, ...later], level);
  }

  /** A redirection: records what it writes; words after its target go to `extras`, nodes to walk to `later`. */
  private redirect(node: Node, extras: Node[], later: Node[]): void {
    if (node.type !== 'file_redirect' && node.type !== 'heredoc_redirect') return void later.push(node);
    let operator = '';
    const targets: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (!c) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'destination') targets.push(c);
      else if (field === 'argument') extras.push(c);
      else if (field === 'redirect') this.redirect(c, extras, later);
      else if (!c.isNamed) operator ||= c.type;
      else if (field !== 'descriptor' && c.type !== 'heredoc_start' && c.type !== 'heredoc_end') later.push(c);
    }
    const [target, ...rest] = targets;
    extras.push(...rest);
    if (!target) return;
    later.push(target);
    const fdCopy = operator === '>&' && (/^(\d+|-)$/.test(target.text));
    if (node.type === 'file_redirect' && target.type !== 'process_substitution' && (WRITE_OPERATORS.has(operator) || (operator === '>&' && !fdCopy))) {
      const w = wordOf(target);
      if (w.dynamic || !NOT_WRITTEN.has(w.text)) this.out.writes.push(toShellWord(w));
    }
  }

  /**
   * A heredoc's body: data, but with an unquoted delimiter its substitutions run. tree-sitter-bash parses its `$(…)`
   * but not its backticks: the text between unescaped backticks (outside the parsed substitutions) is read as a script.
   */
  private heredocBody(body: Node, level: number): void {
    const start = body.parent?.children.find((c): c is Node => c?.type === 'heredoc_start');
    const scripts: { at: number; script: string }[] = [];
    if (start && !/['"\\]/.test(start.text)) {
      let text = body.text;
      for (const c of body.namedChildren) {
        if (c?.type === 'command_substitution') text = text.slice(0, c.startIndex - body.startIndex) + ' '.repeat(c.endIndex - c.startIndex) + text.slice(c.endIndex - body.startIndex);
      }
      for (let i = 0; i < text.length; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '`') {
          const at = body.startIndex + i;
          let script = '';
          for (i++; i < text.length && text[i] !== '`'; i++) script += text[i] === '\\' && i + 1 < text.length && '$`\\'.includes(text[i + 1]) ? text[++i] : text[i];
          if (i >= text.length) this.out.fail('an unmatched backtick in a heredoc');
          else scripts.push({ at, script });
        }
      }
    }
    for (const c of body.namedChildren) {
      if (!c) continue;
      while (scripts.length > 0 && scripts[0].at < c.startIndex) this.script(scripts.shift()?.script ?? '');
      this.visit(c, level + 1);
    }
    for (const s of scripts) this.script(s.script);
  }

  /** `export A=1 B`, `local -r x`, `unset y`: a part whose argv is the keyword and its arguments. */
  private declaration(node: Node, level: number): void {
    const words: SourceWord[] = [];
    const later: Node[] = [];
    const keyword = node.child(0);
    if (keyword && !keyword.isNamed) words.push({ text: keyword.text, dynamic: false, split: false, start: keyword.startIndex, end: keyword.endIndex });
    for (let i = 0; i < node.namedChildCount; i++) {
      const c = node.namedChild(i);
      if (!c) continue;
      words.push(c.type === 'variable_assignment' ? assignmentWord(c) : wordOf(c));
      for (const x of c.type === 'variable_assignment' ? c.namedChildren : [c]) if (x) later.push(x);
    }
    this.command(words, [], node.text, 0);
    this.visitAll(later, level);
  }
}

/** Why a tree with errors cannot be judged: where its first ERROR or MISSING node is. */
function syntaxError(root: Node): string {
  let n: Node = root;
  for (let guard = 0; guard < 1000 && !n.isError && !n.isMissing; guard++) {
    const next = n.children.find((c): c is Node => !!c && (c.hasError || c.isMissing || c.isError));
    if (!next) break;
    n = next;
  }
  const what = n.isMissing ? `a missing ${n.type}` : `\`${clip(n.text)}\``;
  return `a syntax error at ${what} (offset ${n.startIndex})`;
}
