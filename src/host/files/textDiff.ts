/**
 * The smallest single replacement that turns one text into another (common prefix and suffix trimmed),
 * so that an agent's whole-file write touches only the changed part of an open editor: the cursor,
 * folds and scroll position outside it stay put, and Undo restores exactly that part. No vscode import.
 */

/** One replacement: `a.slice(start, endA)` becomes `b.slice(start, endB)`. */
export interface ChangedSpan {
  readonly start: number;
  readonly endA: number;
  readonly endB: number;
}

/** Every line break (`\r\n`, `\r`, `\n`) of `text` as `eol`, as VS Code does with text inserted into a document. */
export function normalizeEol(text: string, eol: '\n' | '\r\n'): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** True when `text` has a `\r\n` at `i`. */
const isCrLf = (text: string, i: number) => text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a;

/**
 * The span that differs between `a` and `b`, or undefined when they are equal. It never splits a
 * surrogate pair, nor a `\r\n`.
 */
export function changedSpan(a: string, b: string): ChangedSpan | undefined {
  if (a === b) return undefined;
  const max = Math.min(a.length, b.length);
  let start = 0;
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  if (start > 0 && (isHighSurrogate(a.charCodeAt(start - 1)) || isCrLf(a, start - 1) || isCrLf(b, start - 1))) start--;
  let suffix = 0;
  const maxSuffix = max - start;
  while (suffix < maxSuffix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  if (suffix > 0 && (isLowSurrogate(a.charCodeAt(a.length - suffix)) || isCrLf(a, a.length - suffix - 1) || isCrLf(b, b.length - suffix - 1))) suffix--;
  return { start, endA: a.length - suffix, endB: b.length - suffix };
}
