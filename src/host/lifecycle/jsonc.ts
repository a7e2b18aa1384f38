/**
 * A tolerant reader for JSON with comments (VS Code's settings files): `//` and `/* *\/` comments and
 * trailing commas are accepted. Pure (no `vscode`), so it runs in unit tests.
 */

/**
 * Removes comments and trailing commas outside strings, leaving plain JSON.
 * @param text JSONC source
 */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // a string, escapes included, copied as is
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === ',' && /[\]}]/.test(text[skipBlank(text, i + 1)] ?? '')) {
      i++; // a trailing comma: only whitespace or comments before the closing bracket
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The index of the first character at or after `i` that is neither whitespace nor inside a comment.
 * @param text JSONC source
 * @param i where to start
 */
function skipBlank(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      return i;
    }
  }
}

/**
 * Parses JSONC; undefined when the text is not valid even then (a half-typed settings file).
 * @param text JSONC source
 */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(stripJsonc(text)) as unknown;
  } catch {
    return undefined;
  }
}
