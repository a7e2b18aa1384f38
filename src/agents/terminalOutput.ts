/**
 * The output buffer of one agent terminal (https://agentclientprotocol.com/protocol/terminals): raw bytes, bounded by
 * the agent's `outputByteLimit`. When the output exceeds the limit the oldest bytes are dropped, and the kept tail
 * starts at a UTF-8 character boundary (so it may be slightly shorter than the limit); `truncated` then
 * stays true. Appending is O(chunk): bytes are copied into a ring of at most `limit` bytes, so 100 MB through
 * a 1 MB limit holds 1 MB and copies each byte once. Decoding happens only when asked.
 */

/** Bytes kept when the agent gives no `outputByteLimit`, and the most kept whatever it asks for. */
export const maxTerminalOutputBytes = 16 * 1024 * 1024;

const empty = Buffer.alloc(0);

/** What {@link TerminalOutputBuffer.read} returns. */
export interface TerminalOutputSnapshot {
  /** The kept output, decoded as UTF-8 (starts at a character boundary; never ends inside a character while `complete` is false). */
  readonly output: string;
  /** True once any byte was dropped from the start. */
  readonly truncated: boolean;
}

/** True for a UTF-8 continuation byte (`10xxxxxx`): no character starts there. */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Length of the trailing incomplete UTF-8 sequence of `bytes` (0 when it ends at a character boundary). */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  const n = bytes.length;
  // a sequence is at most 4 bytes: look at the last 3 for its lead byte
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back];
    if (isContinuation(b)) continue;
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

/**
 * A bounded byte buffer for terminal output: a ring of at most `limit` bytes that grows (doubling) only as
 * output arrives. Appended chunks are copied, so callers may reuse their buffers and nothing pins a
 * producer's memory; the ring is the only memory held, whatever passes through it.
 */
export class TerminalOutputBuffer {
  /** The effective byte limit (the agent's `outputByteLimit`, capped at {@link maxTerminalOutputBytes}). */
  readonly limit: number;
  private _ring: Buffer = empty;
  /** Index in `_ring` of the oldest byte held. */
  private _start = 0;
  /** Bytes held (at most `limit`). */
  private _size = 0;
  private _dropped = false;
  private _totalBytes = 0;
  private _cache: { output: string; complete: boolean } | undefined;

  /** @param outputByteLimit the agent's limit; `undefined`/`null` means "as much as the client keeps". */
  constructor(outputByteLimit?: number | null) {
    const requested = outputByteLimit ?? maxTerminalOutputBytes;
    this.limit = Math.max(0, Math.min(Math.floor(requested), maxTerminalOutputBytes));
  }

  /** Every byte ever appended (kept or not). */
  get totalBytes(): number {
    return this._totalBytes;
  }

  /** Bytes held right now (at most the limit). */
  get heldBytes(): number {
    return this._size;
  }

  /** Bytes allocated for the ring (at most the limit). */
  get capacity(): number {
    return this._ring.length;
  }

  /** True once output was dropped from the start. */
  get truncated(): boolean {
    return this._dropped;
  }

  /** Appends (copies) a chunk of raw output. O(chunk) amortized. */
  append(chunk: Uint8Array): void {
    const n = chunk.length;
    if (n === 0) return;
    this._totalBytes += n;
    this._cache = undefined;
    if (n >= this.limit) {
      // this chunk alone fills the limit: everything before it goes
      this._dropped = this._dropped || this._size > 0 || n > this.limit;
      this.ensureCapacity(this.limit);
      this._ring.set(chunk.subarray(n - this.limit));
      this._start = 0;
      this._size = this.limit;
      return;
    }
    this.ensureCapacity(Math.min(this.limit, this._size + n));
    const cap = this._ring.length;
    const overflow = this._size + n - cap;
    if (overflow > 0) {
      this._start = (this._start + overflow) % cap;
      this._size -= overflow;
      this._dropped = true;
    }
    const end = (this._start + this._size) % cap;
    const first = Math.min(n, cap - end);
    this._ring.set(chunk.subarray(0, first), end);
    if (first < n) this._ring.set(chunk.subarray(first), 0);
    this._size += n;
  }

  /** Grows the ring (doubling, at most to the limit) so that it holds `needed` bytes; keeps the content. */
  private ensureCapacity(needed: number): void {
    if (needed <= this._ring.length) return;
    const capacity = Math.min(this.limit, Math.max(needed, this._ring.length * 2, 4096));
    const ring = Buffer.allocUnsafe(capacity);
    this.copyOut(ring);
    this._ring = ring;
    this._start = 0;
  }

  /** Copies the held bytes, oldest first, to the start of `target`. */
  private copyOut(target: Buffer): void {
    const cap = this._ring.length;
    const first = Math.min(this._size, cap - this._start);
    this._ring.copy(target, 0, this._start, this._start + first);
    if (first < this._size) this._ring.copy(target, first, 0, this._size - first);
  }

  /**
   * The kept output: the last `limit` bytes, moved forward to the next character boundary when the start
   * was dropped.
   * @param complete true once the process has ended: a trailing incomplete character is then decoded
   *   (as U+FFFD) instead of held back for the bytes still to come
   */
  read(complete = false): TerminalOutputSnapshot {
    if (this._cache?.complete === complete) return { output: this._cache.output, truncated: this._dropped };
    const bytes = Buffer.allocUnsafe(this._size);
    this.copyOut(bytes);
    let start = 0;
    if (this._dropped) while (start < bytes.length && isContinuation(bytes[start])) start++;
    const end = complete ? bytes.length : bytes.length - incompleteUtf8Tail(bytes.subarray(start));
    const output = bytes.toString('utf8', start, Math.max(start, end));
    this._cache = { output, complete };
    return { output, truncated: this._dropped };
  }
}
