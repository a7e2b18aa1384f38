/**
 * Terminal output for the chat: {@link ansiSegments} turns SGR sequences (colours, bold, underline, …) into
 * CSS classes (themed by `--vscode-terminal-ansi*`) and drops every other escape; {@link stripAnsi} gives the
 * plain text. Line breaks are normalized.
 * Streaming-safe: {@link incompleteTailStart} finds a sequence cut at the end of a chunk, which the caller
 * carries over to the next chunk.
 */

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), other ESC sequences (intermediates + final), 8-bit CSI
const escapes = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]|\x9b[0-?]*[ -/]*[@-~]/g;
const controls = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
// what a cut-off sequence at the very end can look like
const partialEscape = /^\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]*)$/;
/** A cut-off sequence longer than this is not held back any longer (it was never going to end). */
const maxCarry = 512;

/**
 * True when `text` holds an escape sequence (ESC followed by `[`, `]`, or the 8-bit CSI): terminal text, which
 * the chat renders with its colours (a tool's text content, webview/views/toolCall.ts) instead of as Markdown.
 */
export function hasAnsiEscapes(text: string): boolean {
  return /\x1b[[\]]|\x9b/.test(text);
}

/** Removes escape sequences and control characters; `\r\n` and a lone `\r` become `\n`. */
export function stripAnsi(text: string): string {
  return text.replace(escapes, '').replace(/\r\n?/g, '\n').replace(controls, '');
}

/**
 * Where a cut-off escape sequence (or a `\r` that may be the first half of `\r\n`) starts at the end of
 * `text`; `text.length` when the text ends cleanly.
 */
export function incompleteTailStart(text: string): number {
  if (text.endsWith('\r')) return text.length - 1;
  const esc = text.lastIndexOf('\x1b');
  if (esc === -1 || text.length - esc > maxCarry) return text.length;
  return partialEscape.test(text.slice(esc)) ? esc : text.length;
}

/**
 * The plain text of a chunk that follows `carry` (the cut-off tail of what came before), and the new
 * carry for the next chunk.
 */
export function stripAnsiChunk(carry: string, chunk: string): { readonly text: string; readonly carry: string } {
  const all = carry + chunk;
  const cut = incompleteTailStart(all);
  return { text: stripAnsi(all.slice(0, cut)), carry: all.slice(cut) };
}

/** The 16 ANSI colour names, in SGR order (30–37 / 90–97); CSS classes use `ansi-fg-<name>` / `ansi-bg-<name>`. */
export const ansiColorNames = [
  'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white',
  'bright-black', 'bright-red', 'bright-green', 'bright-yellow', 'bright-blue', 'bright-magenta', 'bright-cyan', 'bright-white',
] as const;

/**
 * The colour rules of the `ansi-fg-<name>` / `ansi-bg-<name>` classes, each the terminal theme's colour
 * (`--vscode-terminal-ansiBrightRed`). Made here rather than written out in the style sheet: 32 rules of the
 * same shape cost the webview's size budget (docs/performance.md) more than the code that makes them.
 */
export function ansiColorRules(): string {
  return ansiColorNames.map((name) => {
    const color = `var(--vscode-terminal-ansi${name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase())})`;
    return `.ansi-fg-${name}{color:${color}}.ansi-bg-${name}{background:${color}}`;
  }).join('');
}

/** The text attributes set by SGR sequences (`ESC [ … m`) so far; colours are indexes into {@link ansiColorNames}. */
export interface SgrState {
  readonly fg?: number;
  readonly bg?: number;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
  readonly strike?: boolean;
}

/** A run of text with the CSS classes of its attributes (empty: plain). */
export interface AnsiSegment {
  readonly text: string;
  readonly classes: readonly string[];
}

/** Applies the parameters of one SGR sequence. 256-colour values 0–15 map to the 16 theme colours; others are ignored. */
export function applySgr(state: SgrState, params: string): SgrState {
  const codes = params === '' ? [0] : params.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  let s: { -readonly [K in keyof SgrState]: SgrState[K] } = { ...state };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c === 0) s = {};
    else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 7) s.inverse = true;
    else if (c === 9) s.strike = true;
    else if (c === 22) { delete s.bold; delete s.dim; }
    else if (c === 23) delete s.italic;
    else if (c === 24) delete s.underline;
    else if (c === 27) delete s.inverse;
    else if (c === 29) delete s.strike;
    else if (c >= 30 && c <= 37) s.fg = c - 30;
    else if (c === 39) delete s.fg;
    else if (c >= 40 && c <= 47) s.bg = c - 40;
    else if (c === 49) delete s.bg;
    else if (c >= 90 && c <= 97) s.fg = c - 90 + 8;
    else if (c >= 100 && c <= 107) s.bg = c - 100 + 8;
    else if (c === 38 || c === 48) {
      // 38;5;n (256 colours) or 38;2;r;g;b (true colour): only the 16 theme colours are shown
      const mode = codes[i + 1];
      if (mode === 5) {
        const n = codes[i + 2];
        if (n !== undefined && n < 16) s[c === 38 ? 'fg' : 'bg'] = n;
        i += 2;
      } else if (mode === 2) i += 4;
      else i += 1;
    }
  }
  return s;
}

/** The CSS classes of a state (`ansi-fg-red`, `ansi-bold`, …); inverse swaps foreground and background. */
export function sgrClasses(s: SgrState): string[] {
  const classes: string[] = [];
  let fg = s.fg === undefined ? undefined : `ansi-fg-${ansiColorNames[s.fg]}`;
  let bg = s.bg === undefined ? undefined : `ansi-bg-${ansiColorNames[s.bg]}`;
  if (s.inverse) {
    const swappedFg = s.bg === undefined ? 'ansi-fg-inverse' : `ansi-fg-${ansiColorNames[s.bg]}`;
    bg = s.fg === undefined ? 'ansi-bg-inverse' : `ansi-bg-${ansiColorNames[s.fg]}`;
    fg = swappedFg;
  }
  if (fg) classes.push(fg);
  if (bg) classes.push(bg);
  if (s.bold) classes.push('ansi-bold');
  if (s.dim) classes.push('ansi-dim');
  if (s.italic) classes.push('ansi-italic');
  if (s.underline) classes.push('ansi-underline');
  if (s.strike) classes.push('ansi-strike');
  return classes;
}

/**
 * Splits complete terminal output (no cut-off sequence at its end, see {@link incompleteTailStart}) into
 * styled runs, starting from `state` (the attributes at the end of the previous chunk). SGR sequences
 * change the attributes; every other escape sequence and control character is dropped, line breaks are
 * normalized as in {@link stripAnsi}.
 */
export function ansiSegments(text: string, state: SgrState = {}): { readonly segments: AnsiSegment[]; readonly state: SgrState } {
  const segments: AnsiSegment[] = [];
  let current = state;
  let last = 0;
  const push = (raw: string): void => {
    const plain = raw.replace(/\r\n?/g, '\n').replace(controls, '');
    if (!plain) return;
    const classes = sgrClasses(current);
    const prev = segments[segments.length - 1];
    if (prev && prev.classes.join(' ') === classes.join(' ')) segments[segments.length - 1] = { text: prev.text + plain, classes };
    else segments.push({ text: plain, classes });
  };
  for (const m of text.matchAll(escapes)) {
    push(text.slice(last, m.index));
    last = m.index + m[0].length;
    const sgr = /^(?:\x1b\[|\x9b)([0-9;:]*)m$/.exec(m[0]);
    if (sgr) current = applySgr(current, sgr[1]);
  }
  push(text.slice(last));
  return { segments, state: current };
}
