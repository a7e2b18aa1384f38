/**
 * The webview's copy of the thread: a snapshot plus deltas applied in `seq` order. A gap in the sequence
 * asks the host for a fresh snapshot instead of showing a wrong transcript: a lost or reordered delta must
 * never leave the chat silently different from the session (docs/chat.md).
 */
import type { DidChangeThreadParams, DidLoadEntriesParams } from '../src/shared/chatProtocol';
import { terminalTailStart } from '../src/shared/terminalTail';
import { terminalTailChars } from '../src/shared/viewModel';
import type { AgentTextView, EntryView, TerminalView, ThreadDelta, ThreadSnapshot, ThreadStateView } from '../src/shared/viewModel';
import { incompleteTailStart } from './lib/ansi';
import { appendToText, replaceNested } from './lib/nestedEntries';

/** What a renderer is told after the store changed. */
export type StoreChange =
  | { readonly type: 'reset' }
  | { readonly type: 'append'; readonly index: number; readonly text: string }
  | { readonly type: 'entry'; readonly index: number }
  /** Older entries arrived: indices `from` up to (not including) `to` were put before the others. */
  | { readonly type: 'older'; readonly from: number; readonly to: number }
  | { readonly type: 'state' }
  /** A terminal's whole view changed (or it was forgotten). */
  | { readonly type: 'terminal'; readonly terminalId: string }
  /** Raw output was appended to a terminal; `carry` is the cut-off escape sequence that preceded it. */
  | { readonly type: 'terminalOutput'; readonly terminalId: string; readonly text: string; readonly carry: string };

/** The webview's state of one session. */
export class ChatStore {
  seq = -1;
  state: ThreadStateView | undefined;
  /** By thread index; the indices below {@link firstIndex} are holes until the older entries arrive. */
  entries: EntryView[] = [];
  /** The index of the oldest entry the webview has (0 once it has them all). */
  firstIndex = 0;
  /** Agent terminals by id (output bounded to the tail, like the host's). */
  readonly terminals = new Map<string, TerminalView>();
  /** Per terminal: the cut-off escape sequence at the end of its output, carried to the next chunk. */
  private readonly carries = new Map<string, string>();
  private listeners: Array<(c: StoreChange) => void> = [];

  constructor(private readonly onGap: (reason: string) => void) {}

  /** Subscribes to changes. */
  subscribe(listener: (c: StoreChange) => void): void {
    this.listeners.push(listener);
  }

  /** Replaces everything with a snapshot. */
  applySnapshot(s: ThreadSnapshot): void {
    this.seq = s.seq;
    this.state = s.state;
    this.firstIndex = s.firstIndex ?? 0;
    this.entries = new Array<EntryView>(this.firstIndex);
    for (const e of s.entries) this.entries.push(e);
    this.terminals.clear();
    this.carries.clear();
    for (const t of s.terminals ?? []) this.terminals.set(t.terminalId, t);
    this.emit({ type: 'reset' });
  }

  /**
   * Puts older entries before the ones the store has. They must end where those begin and be current at the
   * store's seq (the host sends its pending deltas first); anything else is stale (a snapshot came in between)
   * and ignored: the caller asks again from {@link firstIndex}.
   */
  applyOlder(p: DidLoadEntriesParams): boolean {
    if (p.seq > this.seq) {
      this.onGap(`older entries at seq ${p.seq}, the webview is at ${this.seq}`);
      return false;
    }
    if (p.seq !== this.seq || p.from + p.entries.length !== this.firstIndex || !p.entries.length) return false;
    p.entries.forEach((e, i) => { this.entries[p.from + i] = e; });
    const to = this.firstIndex;
    this.firstIndex = p.from;
    this.emit({ type: 'older', from: p.from, to });
    return true;
  }

  /** Applies a batch of deltas; a gap requests a resync and drops the batch. */
  applyChange(p: DidChangeThreadParams): void {
    if (this.seq < 0) return; // no snapshot yet: the snapshot will include this
    if (p.firstSeq !== this.seq + 1) {
      if (p.firstSeq + p.deltas.length - 1 <= this.seq) return; // old news
      this.onGap(`expected seq ${this.seq + 1}, got ${p.firstSeq}`);
      return;
    }
    p.deltas.forEach((d) => this.applyDelta(d));
    this.seq = p.firstSeq + p.deltas.length - 1;
  }

  private applyDelta(d: ThreadDelta): void {
    switch (d.op) {
      case 'append': {
        if (d.index < this.firstIndex) return; // not here yet: it comes with the older entries, current
        const e = this.entries[d.index] as AgentTextView | undefined;
        if (!e || (e.kind !== 'agent' && e.kind !== 'thought')) return this.onGap(`append to entry ${d.index}`);
        this.entries[d.index] = { ...e, text: e.text + d.text };
        return this.emit({ type: 'append', index: d.index, text: d.text });
      }
      case 'entry':
        if (d.index < this.firstIndex) return; // likewise
        this.entries[d.index] = d.entry;
        return this.emit({ type: 'entry', index: d.index });
      case 'subAppend':
      case 'subEntry': {
        if (d.index < this.firstIndex) return; // likewise
        const next = replaceNested(this.entries[d.index], d.path, (e) => (d.op === 'subEntry' ? d.entry : appendToText(e, d.text)));
        if (!next) return this.onGap(`${d.op} to entry ${d.index} at ${d.path.join('/')}`);
        this.entries[d.index] = next;
        return this.emit({ type: 'entry', index: d.index }); // the card updates the entries that changed
      }
      case 'state':
        this.state = d.state;
        return this.emit({ type: 'state' });
      case 'terminal':
        if (d.terminal) this.terminals.set(d.terminalId, d.terminal);
        else this.terminals.delete(d.terminalId);
        this.carries.delete(d.terminalId);
        return this.emit({ type: 'terminal', terminalId: d.terminalId });
      case 'terminalOutput': return this.appendTerminalOutput(d.terminalId, d.text);
    }
  }

  /** O(text) amortized: strings are concatenated (ropes) and cut to the tail only past twice its size. */
  private appendTerminalOutput(terminalId: string, text: string): void {
    const t = this.terminals.get(terminalId);
    if (!t) return this.onGap(`output of unknown terminal ${terminalId}`);
    // the carry is tracked here, never read back from the output: reading a concatenated string flattens it
    const carry = this.carries.get(terminalId) ?? carryOf(t.output);
    const all = carry + text;
    this.carries.set(terminalId, all.slice(incompleteTailStart(all)));
    let output = t.output + text;
    let { truncated, droppedChars } = t;
    if (output.length > 2 * terminalTailChars) {
      const start = terminalTailStart(output, terminalTailChars);
      output = output.slice(start);
      truncated = true;
      droppedChars = (droppedChars ?? 0) + start;
    }
    this.terminals.set(terminalId, { ...t, output, truncated, ...(droppedChars ? { droppedChars } : {}) });
    this.emit({ type: 'terminalOutput', terminalId, text, carry });
  }

  private emit(c: StoreChange): void {
    for (const l of this.listeners) l(c);
  }
}

/** The cut-off escape sequence at the end of a terminal's output (read once, after a whole view). */
function carryOf(output: string): string {
  return output.slice(incompleteTailStart(output));
}
