/**
 * The words of a bash syntax tree as the shell passes them (src/host/permissions/rules/shellCommand.ts): quotes
 * removed, escapes applied (`\x`, "…", '…', $'…'), and whether the word is dynamic (an expansion, or a glob, brace
 * expansion or tilde outside quotes). Pure.
 */
import type { Node } from 'web-tree-sitter';
import type { ArgWord } from './shellWrappers';

/** A word and where it is in its script (start and end are -1 for a word of an argv, which has no source). */
export interface SourceWord extends ArgWord {
  readonly start: number;
  readonly end: number;
}

/** A word being built: `mask` is `text` with every quoted or escaped character as \0 (what globbing sees). */
interface Piece {
  text: string;
  mask: string;
  dynamic: boolean;
  split: boolean;
}

/** One word (an argument, a command name, a redirection target). */
export function wordOf(node: Node): SourceWord {
  const p = piece(node, false);
  const expands = /[*?]|\[.*\]|\{[^{}]*(,|\.\.)[^{}]*\}/.test(p.mask);
  const dynamic = p.dynamic || expands || /^~|[=:]~/.test(p.mask);
  return { text: dynamic ? node.text : p.text, dynamic, split: p.split || expands, start: node.startIndex, end: node.endIndex };
}

/** A `variable_assignment` node as NAME and value (literal when it is: assignments neither split nor glob). */
export function assignmentOf(node: Node): { name: string; value: string } {
  const name = node.childForFieldName('name')?.text ?? '';
  const value = node.childForFieldName('value');
  if (!value) return { name, value: '' };
  const p = piece(value, false);
  return { name, value: p.dynamic || /^~|:~/.test(p.mask) ? value.text : p.text };
}

/** A `variable_assignment` that is an argument (`export A=1`): one word `A=1`. */
export function assignmentWord(node: Node): SourceWord {
  const value = node.childForFieldName('value');
  const p = value ? piece(value, false) : literal('');
  const dynamic = p.dynamic || /^~|:~/.test(p.mask);
  const prefix = value ? node.text.slice(0, value.startIndex - node.startIndex) : node.text;
  return { text: dynamic ? node.text : prefix + p.text, dynamic, split: false, start: node.startIndex, end: node.endIndex };
}

/**
 * Adds a word to a command's words, joined to the previous one when they touch: tree-sitter-bash splits some words
 * that bash reads as one (x`pwd`y is the arguments `x` and `` `pwd`y `` in its tree; so is a word continued on the next
 * line with a backslash).
 */
export function appendWord(words: SourceWord[], w: SourceWord, src: string): void {
  const last = words[words.length - 1];
  if (!last || last.end < 0 || w.start < last.end || !/^(\\\r?\n)*$/.test(src.slice(last.end, w.start))) return void words.push(w);
  const dynamic = last.dynamic || w.dynamic;
  words[words.length - 1] = { text: dynamic ? src.slice(last.start, w.end) : last.text + w.text, dynamic, split: last.split || w.split, start: last.start, end: w.end };
}

function piece(node: Node, quoted: boolean): Piece {
  switch (node.type) {
    case 'number':
      if (node.namedChildCount > 0) return join(node, quoted);
      return quoted ? literal(node.text) : bare(node.text);
    case 'word': case 'extglob_pattern': case 'variable_name':
      return quoted ? literal(node.text) : bare(node.text);
    case 'raw_string': return literal(node.text.slice(1, -1));
    case 'ansi_c_string': return literal(ansiC(node.text.slice(2, -1)));
    case 'string_content': return literal(doubleQuoted(node.text));
    case 'string': return join(node, true);
    case 'concatenation': return join(node, quoted);
    case 'translated_string': {
      const s = node.namedChild(0);
      return s ? piece(s, quoted) : literal('');
    }
    case 'simple_expansion': case 'expansion': case 'command_substitution':
      // unquoted, or "$@" / "${a[@]}": any number of words
      return expansion(node.text, !quoted || node.text.includes('@'));
    case 'arithmetic_expansion': case 'process_substitution':
      return expansion(node.text, false);
    default:
      return expansion(node.text, true);
  }
}

/** A string or concatenation: its named children, and the text between them as written. */
function join(node: Node, quoted: boolean): Piece {
  const text = node.text;
  const isString = node.type === 'string';
  const end = isString ? text.length - 1 : text.length;
  const out: Piece = { text: '', mask: '', dynamic: false, split: false };
  const add = (p: Piece) => {
    out.text += p.text;
    out.mask += p.mask;
    out.dynamic ||= p.dynamic;
    out.split ||= p.split;
  };
  const gap = (s: string) => add(quoted ? literal(doubleQuoted(s)) : bare(s));
  let pos = isString ? 1 : 0;
  for (let i = 0; i < node.namedChildCount; i++) {
    const c = node.namedChild(i);
    if (!c) continue;
    const start = c.startIndex - node.startIndex;
    if (start > pos) gap(text.slice(pos, start));
    add(piece(c, quoted));
    pos = c.endIndex - node.startIndex;
  }
  if (end > pos) gap(text.slice(pos, end));
  return out;
}

const literal = (text: string): Piece => ({ text, mask: '\0'.repeat(text.length), dynamic: false, split: false });
const expansion = (text: string, split: boolean): Piece => ({ text, mask: '\0'.repeat(text.length), dynamic: true, split });

/** Unquoted text: `\x` is x (quoted), `\` newline is nothing. */
function bare(raw: string): Piece {
  let text = '';
  let mask = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\' || i + 1 >= raw.length) {
      text += c;
      mask += c;
      continue;
    }
    const next = raw[++i];
    if (next === '\n') continue;
    text += next;
    mask += '\0';
  }
  return { text, mask, dynamic: false, split: false };
}

/** Text in double quotes: a backslash escapes only $ ` " \ and newline (https://www.gnu.org/software/bash/manual/bash.html#Double-Quotes). */
function doubleQuoted(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const ANSI_C: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** The text of $'…' (https://www.gnu.org/software/bash/manual/bash.html#ANSI_002dC-Quoting). */
function ansiC(s: string): string {
  return s.replace(/\\(?:([abeEfnrtv\\'"?])|([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c([\s\S]))/g,
    (m: string, simple?: string, octal?: string, hex?: string, u?: string, bigU?: string, control?: string) => {
      if (simple !== undefined) return ANSI_C[simple];
      if (octal !== undefined) return String.fromCharCode(parseInt(octal, 8) & 0xff);
      if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
      const code = u ?? bigU;
      if (code !== undefined) {
        const cp = parseInt(code, 16);
        return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
      }
      return String.fromCharCode((control ?? '').charCodeAt(0) & 0x1f);
    });
}
