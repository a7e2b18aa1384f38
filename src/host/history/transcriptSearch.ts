/**
 * Search over the client's transcript store (docs/sessions.md "A home for all sessions"): which stored
 * sessions contain some text, with a snippet of where. It never loads a whole session: each log
 * (transcriptLog.ts, one JSON record per line) is read in fixed-size chunks into one reused buffer, the chunk's
 * complete lines are scanned for the query as it is spelled inside JSON (case-insensitive; an ASCII query on the
 * bytes themselves, so a chunk never becomes a string), and only a line that contains it is decoded and parsed, to check that the match is in text the user saw (a message, a tool call's
 * title, a notice, the session title) and not in a key or an id. A session stops being read at its first match.
 * Memory: one buffer per reader (32 KiB; it grows only for a single longer line, up to a cap), whatever
 * the number and size of the sessions. No vscode.
 */
import * as fs from 'node:fs';

/** A session file to search. */
export interface SearchTarget {
  readonly agentId: string;
  readonly sessionId: string;
  readonly file: string;
}

/** A session whose transcript contains the query. */
export interface TranscriptMatch {
  readonly agentId: string;
  readonly sessionId: string;
  /** The text around the first match (raw agent or user text: neutralise it for its sink). */
  readonly snippet: string;
}

/** How a search runs. */
export interface SearchOptions {
  /** Checked between reads: a search the user has replaced stops early (its results are not wanted). */
  readonly isCancelled?: () => boolean;
  /** At most this many sessions are returned (in the order of `targets`). */
  readonly maxResults?: number;
  /** Bytes per read (default 32 KiB: each chunk's text is a young, short-lived string, not a large object kept until a full GC). */
  readonly chunkBytes?: number;
  /** Files read at the same time (default 4). */
  readonly concurrency?: number;
}

/** Queries shorter than this are not searched (every session would match). */
export const minQueryLength = 2;
/** A single line longer than this is skipped (the buffer does not grow past it). */
const maxLineBytes = 16 * 1024 * 1024;
/** Characters of context on each side of a match in a snippet. */
const snippetContext = 40;

/** Thrown (as a rejection) when `isCancelled` said so. */
export class SearchCancelled extends Error {
  constructor() {
    super('The search was cancelled.');
  }
}

/** The sessions among `targets` whose transcript contains `query` (case-insensitive), in the order of `targets`. */
export async function searchTranscripts(targets: readonly SearchTarget[], query: string, options: SearchOptions = {}): Promise<TranscriptMatch[]> {
  const q = query.trim();
  if (q.length < minQueryLength) return [];
  const inJson = JSON.stringify(q).slice(1, -1);
  const needle = new RegExp(escapeRegExp(inJson), 'gi');
  const lower = q.toLowerCase();
  // an ASCII query is matched on the bytes (ASCII letters folded), other text on the decoded chunk
  const ascii = /^[\x20-\x7e]*$/.test(inJson);
  const scanner = (): Scan => ascii ? new ByteScan(Buffer.from(inJson.toLowerCase(), 'latin1'), lower).scan
    : (buf, start, end) => matchIn(buf.toString('utf8', start, end), new RegExp(needle), lower);
  const found = new Array<TranscriptMatch | undefined>(targets.length);
  const max = options.maxResults ?? 100;
  let next = 0;
  let count = 0;
  const worker = async (): Promise<void> => {
    const reader = new ChunkReader(options.chunkBytes ?? 32 * 1024);
    const scan = scanner();
    while (next < targets.length && count < max) {
      if (options.isCancelled?.()) throw new SearchCancelled();
      const i = next++;
      const t = targets[i];
      const snippet = await reader.firstMatch(t.file, scan, options.isCancelled).catch((e: unknown) => {
        if (e instanceof SearchCancelled) throw e;
        return undefined; // a log that is gone or unreadable has no match
      });
      if (snippet !== undefined) {
        found[i] = { agentId: t.agentId, sessionId: t.sessionId, snippet };
        count++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return found.filter((m): m is TranscriptMatch => m !== undefined).slice(0, max);
}

/** Looks through the complete lines `buf[start, end)` for the query: the snippet of the first record that shows it. */
type Scan = (buf: Buffer, start: number, end: number) => string | undefined;

/**
 * The scan of an ASCII query on bytes: a copy of the chunk with ASCII letters lowered (one reused buffer) is
 * searched natively for the lowered needle; only a line with a hit is decoded. UTF-8 bytes of other characters are
 * all >= 0x80, so they never match an ASCII needle and are copied as they are.
 */
class ByteScan {
  private folded = Buffer.allocUnsafe(0);

  constructor(private readonly needle: Buffer, private readonly lower: string) {}

  readonly scan: Scan = (buf, start, end) => {
    if (this.folded.length < buf.length) this.folded = Buffer.allocUnsafe(buf.length);
    const f = this.folded;
    for (let i = start; i < end; i++) {
      const c = buf[i];
      f[i] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
    }
    for (let at = f.indexOf(this.needle, start); at !== -1 && at < end; at = f.indexOf(this.needle, at)) {
      const lineStart = f.lastIndexOf(0x0a, at) + 1;
      let lineEnd = f.indexOf(0x0a, at);
      if (lineEnd === -1 || lineEnd > end) lineEnd = end;
      const snippet = recordSnippet(buf.toString('utf8', Math.max(lineStart, start), lineEnd), this.lower);
      if (snippet !== undefined) return snippet;
      at = lineEnd; // the rest of this line was checked
    }
    return undefined;
  };
}

/** Reads a file's complete lines chunk by chunk into one buffer. */
class ChunkReader {
  private buf: Buffer;

  constructor(chunkBytes: number) {
    this.buf = Buffer.allocUnsafe(chunkBytes);
  }

  /** Runs `scan` over the text of each run of complete lines until it returns a snippet. */
  async firstMatch(file: string, scan: Scan, isCancelled?: () => boolean): Promise<string | undefined> {
    const fh = await fs.promises.open(file, 'r');
    try {
      let kept = 0; // bytes of an unfinished line, carried to the front of the buffer
      let skipping = false; // inside a line longer than the cap: dropped up to its end
      for (;;) {
        if (isCancelled?.()) throw new SearchCancelled();
        if (kept === this.buf.length) {
          if (this.buf.length * 2 <= maxLineBytes) this.grow();
          else { skipping = true; kept = 0; }
        }
        const { bytesRead } = await fh.read(this.buf, kept, this.buf.length - kept, null);
        const end = kept + bytesRead;
        const eof = bytesRead === 0;
        // complete lines end at the last line break; at the end of the file, a last line without one (a torn write) counts
        const linesEnd = eof ? end : this.buf.lastIndexOf(0x0a, end - 1);
        if (linesEnd < 0) { kept = end; continue; }
        let start = 0;
        if (skipping) {
          const nl = this.buf.indexOf(0x0a);
          if (nl === -1 || nl >= end) { kept = 0; if (eof) return undefined; continue; }
          skipping = false;
          start = nl + 1;
        }
        const hit = start < linesEnd ? scan(this.buf, start, linesEnd) : undefined;
        if (hit !== undefined || eof) return hit;
        this.buf.copy(this.buf, 0, linesEnd + 1, end);
        kept = end - (linesEnd + 1);
      }
    } finally {
      await fh.close();
    }
  }

  private grow(): void {
    const bigger = Buffer.allocUnsafe(this.buf.length * 2);
    this.buf.copy(bigger);
    this.buf = bigger;
  }
}

/** The snippet of the first line of `text` whose record shows the query, if any. */
function matchIn(text: string, needle: RegExp, lower: string): string | undefined {
  for (let m = needle.exec(text); m; m = needle.exec(text)) {
    const start = text.lastIndexOf('\n', m.index) + 1;
    let end = text.indexOf('\n', m.index);
    if (end === -1) end = text.length;
    const snippet = recordSnippet(text.slice(start, end), lower);
    if (snippet !== undefined) return snippet;
    needle.lastIndex = end; // the rest of this line was checked
  }
  return undefined;
}

/** The snippet of a record (one log line) whose shown text contains `lower`, else undefined. */
export function recordSnippet(line: string, lower: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  for (const text of shownTexts(record)) {
    const at = text.toLowerCase().indexOf(lower);
    if (at !== -1) return snippetAround(text, at, lower.length);
  }
  return undefined;
}

/** The texts of a log record that the chat shows: an entry's text and titles, appended text, the title. */
function shownTexts(record: unknown): string[] {
  if (!isObject(record)) return [];
  if ((record.k === 'a' || record.k === 'title') && typeof record.t === 'string') return [record.t];
  if (record.k !== 'e') return [];
  const texts: string[] = [];
  collectTexts(record.e, texts, 0);
  return texts;
}

/** The `text` and `title` strings of an entry and its nested content (tool call content, subagent entries). */
function collectTexts(value: unknown, out: string[], depth: number): void {
  if (depth > 8) return;
  if (Array.isArray(value)) {
    for (const v of value) collectTexts(v, out, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && (key === 'text' || key === 'title' || key === 'description')) out.push(v);
    else if (typeof v === 'object' && v !== null && key !== 'rawInput' && key !== 'rawOutput') collectTexts(v, out, depth + 1);
  }
}

/** About `snippetContext` characters each side of the match, whitespace collapsed, with ellipses where cut. */
export function snippetAround(text: string, at: number, length: number): string {
  const from = Math.max(0, at - snippetContext);
  const to = Math.min(text.length, at + length + snippetContext);
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
