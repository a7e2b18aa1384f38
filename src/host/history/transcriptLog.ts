/**
 * The client's own transcript of a session, as an append-only JSONL log (one file per session): what the
 * user saw, entry by entry, so history can be browsed (and resumed sessions rendered) even for agents that
 * cannot list or load sessions. No vscode: the store around it lives in src/host/history/transcriptStore.ts.
 *
 * Crash safety: every flush appends whole lines ending in `\n`. A write torn by a crash leaves at most one
 * partial last line; {@link parseTranscript} ignores it (and any line that is not a valid record), and
 * {@link TranscriptWriter} cuts it off before appending again. Rewrites (compaction after `session/load`)
 * go to a temporary file that is renamed over the log, which is atomic on POSIX and NTFS.
 *
 * Secrets: every record but the header (ids and the cwd needed to reopen the session) and the user's queued
 * prompts (sent again as they are) is masked as it is written (src/shared/secretMasker.ts). A message still
 * streaming keeps its last (maybe unfinished) word back until the next write, so a secret split across two
 * writes is masked whole; it is written at the end of the turn (`flush(true)`) and by `flushSync`. Appended text
 * is masked together with the end of what was written before it, so `Bearer <token>` split across two writes
 * is masked too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlanEntry } from '../../acp/schema/types.gen';
import { maskStrings } from '../../shared/secretMasker';
import { settleEntry, storedEntry } from '../../thread/model/entryKinds';
import type { SubagentEntry, ThreadEntry } from '../../thread/model/thread';
import { storedPlans } from '../../thread/model/plans';
import type { PlanState } from '../../thread/model/plans';
import type { TerminalSnapshot } from '../../thread/model/terminalOutputStore';

/** The first line of every log. */
export interface TranscriptHeader {
  readonly k: 'meta';
  readonly v: 1;
  readonly sessionId: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly cwd: string;
  readonly createdAt: number;
}

/** One line of a transcript log. */
export type TranscriptRecord =
  | TranscriptHeader
  /** The entry at index `i`, whole (new or changed). */
  | { readonly k: 'e'; readonly i: number; readonly e: ThreadEntry }
  /** Text appended to the message at index `i`. */
  | { readonly k: 'a'; readonly i: number; readonly t: string }
  | { readonly k: 'title'; readonly t: string }
  /** The plan; `c`: the turn that ran it was stopped, its unfinished steps show as cancelled. */
  | { readonly k: 'plan'; readonly p: PlanEntry[]; readonly c?: true }
  /** The plans the agent keeps by id (src/thread/model/plans.ts), all of them. */
  | { readonly k: 'plans'; readonly p: PlanState[] }
  /** The user's queued prompts (not sent yet), as the session's queue serializes them. */
  | { readonly k: 'queue'; readonly q: unknown[] }
  /** An agent terminal as the chat shows it (its kept output tail), whole; the latest per terminal wins. */
  | { readonly k: 'term'; readonly v: TerminalSnapshot };

/** A transcript read back. */
export interface Transcript {
  readonly header: TranscriptHeader;
  readonly entries: ThreadEntry[];
  readonly title: string;
  readonly plan: PlanEntry[];
  /** The turn that ran the plan was stopped: its unfinished steps show as cancelled. */
  readonly planCancelled: boolean;
  /** The plans by id. */
  readonly plans: PlanState[];
  readonly queue: unknown[];
  /** The agent terminals shown in the chat, with the output they had when last recorded. */
  readonly terminals: TerminalSnapshot[];
}

/** The result of parsing a log's text. */
export interface ParsedLog {
  readonly records: TranscriptRecord[];
  /** Bytes up to the end of the last complete line (where the next append must start). */
  readonly validBytes: number;
  /** True when a partial last line (a torn write) was ignored. */
  readonly torn: boolean;
}

/** Parses a log; a partial last line and lines that are not records are ignored. */
export function parseTranscript(buf: Buffer): ParsedLog {
  const records: TranscriptRecord[] = [];
  const end = buf.lastIndexOf(0x0a) + 1; // bytes of complete lines
  const text = buf.subarray(0, end).toString('utf8');
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as TranscriptRecord;
      if (r && typeof r === 'object' && typeof r.k === 'string') records.push(r);
    } catch {
      // a corrupt line (should not happen: only the last line can be torn) is skipped
    }
  }
  return { records, validBytes: end, torn: end < buf.length };
}

/** Rebuilds the transcript from records (undefined without a header). Unfinished tool calls show as cancelled. */
export function replayTranscript(records: readonly TranscriptRecord[]): Transcript | undefined {
  const first = records[0];
  if (first?.k !== 'meta') return undefined;
  const entries: ThreadEntry[] = [];
  let title = '';
  let plan: PlanEntry[] = [];
  let planCancelled = false;
  let plans: PlanState[] = [];
  let queue: unknown[] = [];
  const terminals = new Map<string, TerminalSnapshot>();
  for (const r of records) {
    switch (r.k) {
      case 'e': if (Number.isInteger(r.i) && r.i >= 0) entries[r.i] = r.e; break;
      case 'a': {
        const e = entries[r.i];
        if (e && (e.kind === 'agent' || e.kind === 'thought')) e.text += r.t;
        break;
      }
      case 'title': title = r.t; break;
      case 'plan': plan = r.p; planCancelled = r.c === true; break;
      case 'plans': plans = storedPlans(r.p); break;
      case 'queue': queue = Array.isArray(r.q) ? r.q : []; break;
      case 'term': if (isTerminalSnapshot(r.v)) { terminals.delete(r.v.terminalId); terminals.set(r.v.terminalId, r.v); } break;
    }
  }
  const dense = entries.map(storedEntry).filter((e): e is ThreadEntry => e !== undefined).map(settleEntry);
  return { header: first, entries: dense, title, plan, planCancelled, plans, queue, terminals: [...terminals.values()] };
}

/** A recorded terminal view that has what the chat needs (a line written by another version may not). */
function isTerminalSnapshot(v: unknown): v is TerminalSnapshot {
  const t = v as Partial<TerminalSnapshot> | null;
  return !!t && typeof t.terminalId === 'string' && typeof t.command === 'string' && typeof t.output === 'string';
}

/** Reads a log file (undefined when it is missing or has no header). */
export function readTranscript(file: string): Transcript | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  return replayTranscript(parseTranscript(buf).records);
}

/** A record waiting for a flush (an append's text grows in place until then). */
type Pending = { k: 'e'; i: number; e: ThreadEntry } | { k: 'a'; i: number; t: string } | Exclude<TranscriptRecord, { k: 'e' | 'a' }>;

/**
 * Appends records to one log. Records are buffered and written in batches (`flush`); an entry recorded
 * again before a flush replaces the earlier record, and appends to one message are merged, so a streamed
 * answer costs a few lines, not one per chunk. Entries are held by reference and serialized at flush time.
 */
export class TranscriptWriter {
  private _pending: Pending[] = [];
  /** The tail of a streaming message not written yet, by entry index (see the module header). */
  private readonly _held = new Map<number, string>();
  /** The end of what was written of a streaming message, by entry index: the context its next append is masked in. */
  private readonly _written = new Map<number, string>();
  /** Subagent cards written with the tails of their streaming messages held back, by entry index: written whole at the end of the turn. */
  private readonly _heldCards = new Map<number, ThreadEntry>();
  private _chain: Promise<void> = Promise.resolve();
  /** Batches taken by `flush` whose append has not started yet: `flushSync` writes them first, in order. */
  private readonly _queued: { data: string; started: boolean }[] = [];
  private _bytes: number;
  private _closed = false;

  /** Opens (or creates) the log at `file`, cutting off a torn last line; `mask` masks secrets in what is written. */
  constructor(readonly file: string, header: TranscriptHeader, private readonly mask: (text: string) => string = (text) => text) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let buf: Buffer | undefined;
    try { buf = fs.readFileSync(file); } catch { buf = undefined; }
    if (!buf || buf.length === 0 || parseTranscript(buf).records[0]?.k !== 'meta') {
      fs.writeFileSync(file, `${JSON.stringify(header)}\n`);
    } else {
      const { validBytes, torn } = parseTranscript(buf);
      if (torn) fs.truncateSync(file, validBytes);
    }
    this._bytes = fs.statSync(file).size;
  }

  /** Bytes written so far (after the last flush). */
  get bytes(): number { return this._bytes; }
  /** True when records wait for a flush. */
  get hasPending(): boolean { return this._pending.length > 0 || this._held.size > 0 || this._heldCards.size > 0; }

  /** The entry at `index` is new or changed. */
  entry(index: number, entry: ThreadEntry): void {
    this._pending = this._pending.filter((p) => !((p.k === 'e' || p.k === 'a') && p.i === index));
    this._pending.push({ k: 'e', i: index, e: entry });
  }

  /** Text was appended to the message at `index`. */
  append(index: number, text: string): void {
    // a streamed answer: the newest record is this message's (one per chunk, so no search and no new record)
    const newest = this._pending[this._pending.length - 1];
    if (newest?.k === 'a' && newest.i === index) {
      newest.t += text;
      return;
    }
    const same = this._pending.findIndex((p) => (p.k === 'e' || p.k === 'a') && p.i === index);
    const p = this._pending[same];
    if (p?.k === 'e') return; // serialized at flush time with the appended text
    if (p?.k === 'a') p.t += text;
    else this._pending.push({ k: 'a', i: index, t: text });
  }

  /** Records a terminal's view (the latest per terminal wins). */
  terminal(view: TerminalSnapshot): void {
    this._pending = this._pending.filter((p) => !(p.k === 'term' && p.v.terminalId === view.terminalId));
    this._pending.push({ k: 'term', v: view });
  }

  /** Records a title, plan, plans or queue (the latest wins). */
  state(record: Extract<TranscriptRecord, { k: 'title' | 'plan' | 'plans' | 'queue' }>): void {
    this._pending = this._pending.filter((p) => p.k !== record.k);
    this._pending.push(record);
  }

  /** Writes the buffered records (one append; calls are serialized); `final` (a turn ended) also the held-back tails. */
  flush(final = false): Promise<void> {
    const data = this.take(final);
    if (!data) return this._chain;
    const batch = { data, started: false };
    this._queued.push(batch);
    this._chain = this._chain.then(() => {
      this._queued.splice(this._queued.indexOf(batch), 1);
      if (batch.started) return; // flushSync wrote it
      batch.started = true;
      // written synchronously (one small append, off the caller's stack): a batch is either not started or
      // on disk, never half-way, so a flushSync right after (a session closed and reopened) sees it
      fs.appendFileSync(this.file, data);
      this._bytes += Buffer.byteLength(data);
    }).catch(() => undefined);
    return this._chain;
  }

  /**
   * Writes the buffered records now (closing a session, deactivation, tests), after the batches an earlier
   * `flush` took but has not started to write: a reader right after (a session reopened from the store)
   * sees every record, in order.
   */
  flushSync(): void {
    for (const batch of this._queued) {
      if (batch.started) continue;
      batch.started = true;
      fs.appendFileSync(this.file, batch.data);
      this._bytes += Buffer.byteLength(batch.data);
    }
    const data = this.take(true);
    if (!data) return;
    fs.appendFileSync(this.file, data);
    this._bytes += Buffer.byteLength(data);
  }

  /**
   * Replaces the whole log with `header` and the given state (after `session/load` replayed the history),
   * atomically: a temporary file renamed over the log. Pending records are dropped (the state includes them).
   */
  async rewrite(header: TranscriptHeader, entries: readonly ThreadEntry[], title: string, plan: PlanEntry[], terminals: readonly TerminalSnapshot[] = [], plans: PlanState[] = [], planCancelled = false): Promise<void> {
    this._pending = [];
    this._held.clear();
    this._written.clear();
    this._heldCards.clear();
    const lines: Pending[] = [
      ...entries.map((e, i) => ({ k: 'e' as const, i, e })), { k: 'title', t: title }, { k: 'plan', p: plan, ...(planCancelled ? { c: true as const } : {}) },
      ...(plans.length ? [{ k: 'plans' as const, p: plans }] : []), ...terminals.map((v) => ({ k: 'term' as const, v })),
    ];
    const data = [JSON.stringify(header), ...lines.map((l) => this.line(l))].join('\n') + '\n';
    const tmp = `${this.file}.${process.pid}.tmp`;
    this._chain = this._chain.then(async () => {
      await fs.promises.writeFile(tmp, data);
      await fs.promises.rename(tmp, this.file);
      this._bytes = Buffer.byteLength(data);
    }).catch(() => undefined);
    return this._chain;
  }

  /** Flushes and stops accepting writes. */
  close(): void {
    if (this._closed) return;
    this.flushSync();
    this._closed = true;
  }

  private take(final: boolean): string | undefined {
    if (this._closed || !this.hasPending) return undefined;
    const lines: string[] = [];
    for (const p of this._pending) {
      // a message: its text so far (an entry whole, or what is appended to it, after the tail held back before)
      const streaming = p.k === 'a' ? { i: p.i, text: (this._held.get(p.i) ?? '') + p.t, message: undefined }
        : p.k === 'e' && (p.e.kind === 'agent' || p.e.kind === 'thought') ? { i: p.i, text: p.e.text, message: p.e } : undefined;
      if (streaming) {
        const { i, text, message } = streaming;
        const cut = final ? text.length : safeCut(text);
        this._held.delete(i);
        if (cut < text.length) this._held.set(i, text.slice(cut));
        if (message) {
          this._written.set(i, text.slice(0, cut).slice(-contextChars));
          lines.push(this.line({ k: 'e', i, e: { ...message, text: text.slice(0, cut) } }));
        } else if (cut > 0) {
          lines.push(JSON.stringify({ k: 'a', i, t: this.maskAppended(i, text.slice(0, cut)) }));
        }
      } else if (p.k === 'e' && p.e.kind === 'subagent') {
        // a card is written whole each time: its streaming messages keep their last word back like the session's
        const cut = final ? p.e : heldBack(p.e);
        if (cut === p.e) this._heldCards.delete(p.i);
        else this._heldCards.set(p.i, p.e);
        lines.push(this.line({ ...p, e: cut }));
      } else {
        if (p.k === 'e') this._held.delete(p.i);
        lines.push(this.line(p));
      }
    }
    this._pending = [];
    if (final) {
      for (const [i, t] of this._held) lines.push(JSON.stringify({ k: 'a', i, t: this.maskAppended(i, t) }));
      this._held.clear();
      for (const [i, e] of this._heldCards) lines.push(this.line({ k: 'e', i, e }));
      this._heldCards.clear();
    }
    return lines.length ? lines.join('\n') + '\n' : undefined;
  }

  /**
   * Text appended to message `i`, masked in the context of what was written of it before (a key word, `Bearer`).
   * When the context itself would change (a match reaching back into written text), the text is masked alone.
   */
  private maskAppended(i: number, text: string): string {
    const context = this._written.get(i) ?? '';
    this._written.set(i, (context + text).slice(-contextChars));
    const before = this.mask(context);
    const after = this.mask(context + text);
    return after.startsWith(before) ? after.slice(before.length) : this.mask(text);
  }

  /** One record as a line, masked (the queue is the user's own, sent again as it is). */
  private line(record: Pending): string {
    return JSON.stringify(record.k === 'queue' ? record : maskStrings(record, this.mask));
  }
}

// a streaming message keeps back its last word up to this length (a longer run is written as it is)
const maxHeldChars = 4096;
// how much of what was written of a message its next append is masked with
const contextChars = 256;

/** A subagent's card with the last word of its messages held back (the same card when nothing is held). */
function heldBack(card: SubagentEntry): SubagentEntry {
  let changed = false;
  const entries = card.entries.map((e): ThreadEntry => {
    const next = e.kind === 'subagent' ? heldBack(e)
      : (e.kind === 'agent' || e.kind === 'thought') && safeCut(e.text) < e.text.length ? { ...e, text: e.text.slice(0, safeCut(e.text)) } : e;
    if (next !== e) changed = true;
    return next;
  });
  return changed ? { ...card, entries } : card;
}

/** Where a streaming message's text may be cut for writing: after its last whitespace (see the module header). */
function safeCut(text: string): number {
  let cut = text.length;
  while (cut > 0 && !/\s/.test(text[cut - 1] ?? '')) cut--;
  return text.length - cut > maxHeldChars ? text.length : cut;
}
