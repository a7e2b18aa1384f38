/**
 * The tail of terminal output that the chat keeps and renders, on both sides of the IPC (the thread's
 * store and the webview's): where the kept tail starts, and how its size reads in the card's
 * "… truncated, showing the last …" line. A 5 MB output costs what its tail does in the chat; the whole
 * output stays in the VS Code terminal and, up to the agent's `outputByteLimit`, in `terminal/output`
 * (docs/chat.md#terminal-output-in-the-chat).
 */

/**
 * Characters of output the chat keeps and renders per agent terminal (the tail), on both sides of the IPC:
 * about 400 lines. Every update of a card lays its whole tail out again, so this bounds what a burst of
 * output costs the chat; the whole output is in the VS Code terminal (docs/chat.md#terminal-output-in-the-chat).
 */
export const terminalTailChars = 32 * 1024;

/** How far past the cut the tail looks for a line break to start at (so it starts with a whole line). */
const lineSearchChars = 4096;

/**
 * Where the kept tail of `text` starts when at most `tailChars` characters are kept: at the start of the
 * first whole line (when one starts within a few KB of the cut), never inside a surrogate pair.
 */
export function terminalTailStart(text: string, tailChars: number): number {
  if (text.length <= tailChars) return 0;
  const cut = text.length - tailChars;
  const newline = text.indexOf('\n', cut);
  if (newline !== -1 && newline - cut < lineSearchChars && newline + 1 < text.length) return newline + 1;
  const code = text.charCodeAt(cut);
  return code >= 0xdc00 && code <= 0xdfff ? cut + 1 : cut; // the low half of a pair: drop it with its high half
}

/** A size in characters as people read it: `812 B`, `64 KB`, `5.1 MB` (1 KB = 1024). */
export function formatChars(chars: number): string {
  if (chars < 1024) return `${chars} B`;
  if (chars < 1024 * 1024) return `${Math.round(chars / 1024)} KB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}
