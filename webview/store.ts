/**
 * The webview's copy of the thread: a snapshot plus deltas applied in `seq` order. A gap in the sequence
 * asks the host for a fresh snapshot instead of showing a wrong transcript (ARCHITECTURE.md 1.5 item 8).
 */
import type { DidChangeParams } from '../src/shared/chatProtocol';
import type { AgentTextView, EntryView, ThreadDelta, ThreadSnapshot, ThreadStateView } from '../src/shared/viewModel';

/** What a renderer is told after the store changed. */
export type StoreChange =
  | { readonly type: 'reset' }
  | { readonly type: 'append'; readonly index: number; readonly text: string }
  | { readonly type: 'entry'; readonly index: number }
  | { readonly type: 'state' };

/** The webview's state of one session. */
export class ChatStore {
  seq = -1;
  state: ThreadStateView | undefined;
  entries: EntryView[] = [];
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
    this.entries = [...s.entries];
    this.emit({ type: 'reset' });
  }

  /** Applies a batch of deltas; a gap requests a resync and drops the batch. */
  applyChange(p: DidChangeParams): void {
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
        const e = this.entries[d.index] as AgentTextView | undefined;
        if (!e || (e.kind !== 'agent' && e.kind !== 'thought')) return this.onGap(`append to entry ${d.index}`);
        this.entries[d.index] = { ...e, text: e.text + d.text };
        return this.emit({ type: 'append', index: d.index, text: d.text });
      }
      case 'entry':
        this.entries[d.index] = d.entry;
        return this.emit({ type: 'entry', index: d.index });
      case 'state':
        this.state = d.state;
        return this.emit({ type: 'state' });
    }
  }

  private emit(c: StoreChange): void {
    for (const l of this.listeners) l(c);
  }
}
