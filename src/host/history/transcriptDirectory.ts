/**
 * The folder of transcript logs (one per session, see transcriptLog.ts) with a small index, size-capped:
 * the oldest sessions are evicted first. The index (`index.json`) is only a cache, written atomically; on
 * load every log whose size does not match its index row is read again, so a crash between a log write and
 * an index write loses nothing. No vscode.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTranscript, readTranscript, replayTranscript, TranscriptWriter } from './transcriptLog';
import type { Transcript, TranscriptHeader } from './transcriptLog';

/** What history shows of a stored session. */
export interface TranscriptInfo {
  readonly sessionId: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly cwd: string;
  readonly createdAt: number;
  updatedAt: number;
  title: string;
  bytes: number;
  readonly file: string;
}

interface IndexFile { readonly v: 1; readonly sessions: TranscriptInfo[] }

/** The key of a session: ids are only unique per agent. */
export function transcriptKey(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}

/** The stored transcripts of one workspace. */
export class TranscriptDirectory {
  private readonly _infos = new Map<string, TranscriptInfo>();
  private readonly _writers = new Map<string, TranscriptWriter>();
  private _indexTimer: NodeJS.Timeout | undefined;

  /** `maxBytes()` is read at each eviction (a setting); `mask` masks secrets in what is written (transcriptLog.ts). */
  constructor(readonly dir: string, private readonly maxBytes: () => number, private readonly mask: (text: string) => string = (text) => text) {}

  /** Reads the index, then checks it against the logs on disk (rebuilding rows that are stale or missing). */
  load(): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const cached = new Map<string, TranscriptInfo>();
    try {
      const index = JSON.parse(fs.readFileSync(this.indexFile, 'utf8')) as IndexFile;
      for (const s of index.sessions ?? []) cached.set(path.basename(s.file), s);
    } catch {
      // missing or corrupt: rebuilt from the logs
    }
    this._infos.clear();
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const file = path.join(this.dir, name);
      const stat = fs.statSync(file);
      const row = cached.get(name);
      const info = row && row.bytes === stat.size ? { ...row, file } : this.scan(file, stat);
      if (info) this._infos.set(transcriptKey(info.agentId, info.sessionId), info);
    }
    this.scheduleIndexWrite();
  }

  /** Stored sessions, most recently updated first. */
  list(): TranscriptInfo[] {
    return [...this._infos.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** One stored session's row. */
  info(agentId: string, sessionId: string): TranscriptInfo | undefined {
    return this._infos.get(transcriptKey(agentId, sessionId));
  }

  /** Reads a stored transcript (pending records of an open writer are flushed first). */
  read(agentId: string, sessionId: string): Transcript | undefined {
    const key = transcriptKey(agentId, sessionId);
    this._writers.get(key)?.flushSync();
    const info = this._infos.get(key);
    return info ? readTranscript(info.file) : undefined;
  }

  /** The writer of a session's log (created with its header on first use). */
  writer(header: TranscriptHeader): TranscriptWriter {
    const key = transcriptKey(header.agentId, header.sessionId);
    let w = this._writers.get(key);
    if (w) return w;
    const file = path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.jsonl`);
    w = new TranscriptWriter(file, header, this.mask);
    this._writers.set(key, w);
    const old = this._infos.get(key);
    this._infos.set(key, old ?? {
      sessionId: header.sessionId, agentId: header.agentId, agentName: header.agentName, cwd: header.cwd,
      createdAt: header.createdAt, updatedAt: Date.now(), title: '', bytes: w.bytes, file,
    });
    this.scheduleIndexWrite();
    return w;
  }

  /** After a flush: updates the row (size, time, title) and evicts the oldest logs over the cap. */
  touched(agentId: string, sessionId: string, title?: string): void {
    const key = transcriptKey(agentId, sessionId);
    const info = this._infos.get(key);
    const w = this._writers.get(key);
    if (!info) return;
    info.updatedAt = Date.now();
    if (w) info.bytes = w.bytes;
    if (title) info.title = this.mask(title);
    this.evict();
    this.scheduleIndexWrite();
  }

  /** Closes the writer of a session (its log stays). */
  release(agentId: string, sessionId: string): void {
    const key = transcriptKey(agentId, sessionId);
    const w = this._writers.get(key);
    w?.close();
    this._writers.delete(key);
    const info = this._infos.get(key);
    if (w && info) info.bytes = w.bytes; // closing wrote what was held back (transcriptLog.ts)
  }

  /** Deletes a stored session. */
  remove(agentId: string, sessionId: string): boolean {
    const key = transcriptKey(agentId, sessionId);
    this.release(agentId, sessionId);
    const info = this._infos.get(key);
    if (!info) return false;
    this._infos.delete(key);
    fs.rmSync(info.file, { force: true });
    this.scheduleIndexWrite();
    return true;
  }

  /** Deletes the least recently updated logs (never one being written) until the total fits the cap. */
  evict(): TranscriptInfo[] {
    const max = this.maxBytes();
    let total = [...this._infos.values()].reduce((n, i) => n + i.bytes, 0);
    const evicted: TranscriptInfo[] = [];
    for (const info of [...this._infos.values()].sort((a, b) => a.updatedAt - b.updatedAt)) {
      if (total <= max) break;
      if (this._writers.has(transcriptKey(info.agentId, info.sessionId))) continue;
      this._infos.delete(transcriptKey(info.agentId, info.sessionId));
      fs.rmSync(info.file, { force: true });
      total -= info.bytes;
      evicted.push(info);
    }
    if (evicted.length) this.scheduleIndexWrite();
    return evicted;
  }

  /** Flushes every writer and writes the index now. */
  flushSync(): void {
    for (const [key, w] of this._writers) {
      w.flushSync();
      const info = this._infos.get(key);
      if (info) info.bytes = w.bytes;
    }
    this.writeIndex();
  }

  /** Closes every writer. */
  dispose(): void {
    this.flushSync();
    for (const w of this._writers.values()) w.close();
    this._writers.clear();
  }

  private get indexFile(): string {
    return path.join(this.dir, 'index.json');
  }

  private scan(file: string, stat: fs.Stats): TranscriptInfo | undefined {
    const t = replayTranscript(parseTranscript(fs.readFileSync(file)).records);
    if (!t) return undefined;
    const h = t.header;
    return { sessionId: h.sessionId, agentId: h.agentId, agentName: h.agentName, cwd: h.cwd, createdAt: h.createdAt, updatedAt: stat.mtimeMs, title: t.title, bytes: stat.size, file };
  }

  private scheduleIndexWrite(): void {
    this._indexTimer ??= setTimeout(() => { this._indexTimer = undefined; this.writeIndex(); }, 500);
  }

  private writeIndex(): void {
    if (this._indexTimer) clearTimeout(this._indexTimer);
    this._indexTimer = undefined;
    const index: IndexFile = { v: 1, sessions: [...this._infos.values()] };
    const tmp = `${this.indexFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(index));
      fs.renameSync(tmp, this.indexFile);
    } catch {
      // the index is a cache: the logs are the truth
    }
  }
}
