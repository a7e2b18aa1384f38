/**
 * Text checks and line windows for `fs/read_text_file` (https://agentclientprotocol.com/protocol/file-system),
 * with no vscode import so they are unit-tested in plain Node. A disk file is checked and sliced as bytes: only
 * the lines of the window are decoded, and newlines are searched only up to the end of the window.
 */
import { isUtf8 } from 'node:buffer';

/** A line window: the 0-based first line and the number of lines (undefined: to the end). */
export interface LineWindow {
  readonly first: number;
  readonly count: number | undefined;
}

/**
 * The window of `line` (1-based; absent, null or 0 means the first line) and `limit` (absent or null:
 * every line to the end; 0: no line).
 */
export function lineWindow(line?: number | null, limit?: number | null): LineWindow {
  const first = line !== undefined && line !== null && line > 1 ? Math.floor(line) - 1 : 0;
  const count = limit !== undefined && limit !== null ? Math.max(0, Math.floor(limit)) : undefined;
  return { first, count };
}

/** Why bytes are not readable as text. */
export type NotTextReason = 'binary' | 'invalidUtf8';

/** The reason `bytes` cannot be read as UTF-8 text, or undefined when they can. */
export function notTextReason(bytes: Uint8Array): NotTextReason | undefined {
  if (bytes.indexOf(0) !== -1) return 'binary';
  if (!isUtf8(bytes)) return 'invalidUtf8';
  return undefined;
}

/** A sentence for the agent saying why a file is not text, e.g. "/x.png is a binary file (it contains NUL bytes)". */
export function notTextMessage(path: string, reason: NotTextReason): string {
  return reason === 'binary'
    ? `Cannot read ${path} as text: it contains NUL bytes (a binary file, or a text encoding such as UTF-16)`
    : `Cannot read ${path} as text: it is not valid UTF-8`;
}

const LF = 0x0a;

/**
 * The bytes of the lines in `window`: from the start of line `first` to the start of the line after the
 * window (so every line keeps its own ending, `\n` or `\r\n`; the last line of a file without a trailing
 * newline has none). Lines end at `\n`. Past the end: empty. Returns a view, nothing is copied.
 */
export function sliceLines(bytes: Uint8Array, window: LineWindow): Uint8Array {
  const start = lineStart(bytes, 0, window.first);
  if (start === undefined || window.count === 0) return bytes.subarray(bytes.length);
  if (window.count === undefined) return bytes.subarray(start);
  const end = lineStart(bytes, start, window.count) ?? bytes.length;
  return bytes.subarray(start, end);
}

/** The offset of the line `lines` lines after the one starting at `from`, or undefined past the end. */
function lineStart(bytes: Uint8Array, from: number, lines: number): number | undefined {
  let offset = from;
  for (let i = 0; i < lines; i++) {
    const nl = bytes.indexOf(LF, offset);
    if (nl === -1) return undefined;
    offset = nl + 1;
  }
  return offset;
}

const fileDecoder = new TextDecoder('utf-8', { ignoreBOM: false });
const windowDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes UTF-8 bytes already checked by {@link notTextReason}. With `atFileStart`, a byte order mark
 * is dropped, as VS Code's editor does; elsewhere a U+FEFF is kept as the character it is.
 */
export function decodeText(bytes: Uint8Array, atFileStart = true): string {
  return (atFileStart ? fileDecoder : windowDecoder).decode(bytes);
}

/** Reads the window of a whole file's bytes: the text of its lines, or why the file is not text. */
export function readTextWindow(bytes: Uint8Array, window: LineWindow): { text: string } | { reason: NotTextReason } {
  const reason = notTextReason(bytes);
  if (reason) return { reason };
  const slice = sliceLines(bytes, window);
  return { text: decodeText(slice, slice.byteOffset === bytes.byteOffset) };
}
