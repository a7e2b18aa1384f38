/**
 * Plain text from terminal output: ANSI escape sequences and control characters removed, line breaks
 * normalized. Full ANSI colours are for later; until then the chat shows terminal output without escapes.
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
