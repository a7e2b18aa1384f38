import { StringDecoder } from 'node:string_decoder';

/** Limits of a {@link StderrBuffer}. */
export interface StderrBufferOptions {
  /** Keep at most this many lines (oldest dropped first). Default 200. */
  readonly maxLines?: number;
  /** Keep at most this many UTF-8 bytes over all kept lines. Default 64 KiB. */
  readonly maxBytes?: number;
  /**
   * Truncate a single line to this many bytes. Default a quarter of `maxBytes`, at most 8 KiB, so
   * one huge line (a minified bundle in a stack trace) cannot push every other line out.
   */
  readonly maxLineBytes?: number;
  /** Applied to every line before it is kept or returned: masks secrets (src/shared/secretMasker.ts). */
  readonly mask?: (line: string) => string;
}

/** Default number of stderr lines kept per agent. */
export const defaultStderrBufferLines = 200;
/** Default number of stderr bytes kept per agent. */
export const defaultStderrBufferBytes = 64 * 1024;

const maxLineBytesCap = 8 * 1024;
const truncatedMarker = ' …[truncated]';
// CSI (colours, cursor), OSC (titles, hyperlinks) and two-byte escapes: log channels show them raw
const ansiPattern = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/**
 * Splits a byte stream into lines and keeps the last ones within a line-count and a byte budget:
 * the memory of what an agent said before it died. Lines are decoded as UTF-8 (chunks may split
 * characters), CR/LF-trimmed, stripped of ANSI escapes and masked (`mask`); a line over `maxLineBytes` is cut to it
 * (an unterminated line is never accumulated past it), so memory stays bounded whatever the agent
 * writes.
 */
export class StderrBuffer {
  private readonly maxLines: number;
  private readonly maxBytes: number;
  private readonly maxLineBytes: number;
  private readonly mask: (line: string) => string;
  private readonly decoder = new StringDecoder('utf8');
  private readonly lines: string[] = [];
  private readonly lineBytes: number[] = [];
  private totalBytes = 0;
  private partial = '';
  private partialOverflow = false;

  constructor(options: StderrBufferOptions = {}) {
    this.maxLines = Math.max(1, Math.floor(options.maxLines ?? defaultStderrBufferLines));
    this.maxBytes = Math.max(1, Math.floor(options.maxBytes ?? defaultStderrBufferBytes));
    const lineCap = options.maxLineBytes ?? Math.min(maxLineBytesCap, this.maxBytes / 4);
    this.maxLineBytes = Math.max(1, Math.min(this.maxBytes, Math.floor(lineCap)));
    this.mask = options.mask ?? ((line) => line);
  }

  /** Number of lines kept. */
  get lineCount(): number {
    return this.lines.length;
  }

  /** UTF-8 bytes of all kept lines (without line terminators). */
  get byteLength(): number {
    return this.totalBytes;
  }

  /**
   * Feeds a chunk of the stream.
   * @returns the lines completed by this chunk (already cleaned and capped), for live logging
   */
  push(chunk: Buffer | string): string[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const completed: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      this.appendPartial(text.slice(start, nl));
      completed.push(this.commitPartial());
      start = nl + 1;
    }
    this.appendPartial(text.slice(start));
    return completed;
  }

  /**
   * Ends the stream: an unterminated last line is kept too.
   * @returns that line, if there was one
   */
  end(): string[] {
    this.appendPartial(this.decoder.end());
    return this.partial.length > 0 || this.partialOverflow ? [this.commitPartial()] : [];
  }

  /**
   * The last `n` kept lines (all kept lines when `n` is omitted), oldest first. An unterminated
   * line still being written is not included until {@link end}.
   */
  tail(n?: number): string[] {
    if (n === undefined) return this.lines.slice();
    return n <= 0 ? [] : this.lines.slice(-Math.floor(n));
  }

  private appendPartial(text: string): void {
    if (text.length === 0 || this.partialOverflow) return;
    // never hold more than the cap: cap + 1 UTF-16 units are at least cap + 1 bytes
    const cap = this.maxLineBytes;
    this.partial += text.length > cap ? text.slice(0, cap + 1) : text;
    // a UTF-16 unit is at most 3 UTF-8 bytes: only measure when the cap could be exceeded
    if (this.partial.length * 3 > cap && Buffer.byteLength(this.partial) > cap) {
      this.partial = truncateUtf8(this.partial, cap);
      this.partialOverflow = true;
    }
  }

  private commitPartial(): string {
    let line = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial;
    line = this.mask(line.replace(ansiPattern, ''));
    const overflow = this.partialOverflow;
    this.partial = '';
    this.partialOverflow = false;
    let bytes = Buffer.byteLength(line);
    if (overflow || bytes > this.maxLineBytes) {
      const marker = Buffer.byteLength(truncatedMarker) < this.maxLineBytes ? truncatedMarker : '';
      line = truncateUtf8(line, this.maxLineBytes - Buffer.byteLength(marker)) + marker;
      bytes = Buffer.byteLength(line);
    }
    this.lines.push(line);
    this.lineBytes.push(bytes);
    this.totalBytes += bytes;
    while (this.lines.length > this.maxLines || this.totalBytes > this.maxBytes) {
      this.lines.shift();
      this.totalBytes -= this.lineBytes.shift() ?? 0;
    }
    return line;
  }
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // step back over continuation bytes (10xxxxxx) to the start of the character that does not fit
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
