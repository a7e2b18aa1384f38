/**
 * The chat's pending deltas between two posts to the webview, coalesced so that a burst of thread changes
 * costs what its result does: consecutive appends to one entry become one append, a full entry makes the
 * deltas of that entry before it redundant, only the newest state is kept, and terminal output is merged up
 * to the chat's tail size (a longer burst becomes one whole terminal view). This is what keeps a long
 * streamed answer O(chunk) per update (docs/architecture.md#the-chat-webview). No vscode here: unit-tested
 * in plain node.
 */
import type { EntryView, TerminalView, ThreadDelta, ThreadStateView } from '../../shared/viewModel';
import { chatTerminalTailChars } from '../../thread/terminalOutputStore';
import type { ThreadChange } from '../../thread/thread';

/** The current views of what a change refers to, read when the change is queued. */
export interface DeltaSource {
  /** The entry at `index` as the chat renders it. */
  entry(index: number): EntryView;
  /** The thread-level state. */
  state(): ThreadStateView;
  /** A terminal's whole view, or null when the thread forgot it. */
  terminal(terminalId: string): TerminalView | null;
}

/** The deltas not posted yet, coalesced. */
export class DeltaQueue {
  private _deltas: ThreadDelta[] = [];

  constructor(private readonly source: DeltaSource, private readonly terminalTailChars = chatTerminalTailChars) {}

  /** How many deltas are queued. */
  get length(): number {
    return this._deltas.length;
  }

  /** Queues the delta of one thread change, merged with the queued ones where it can be. */
  add(c: ThreadChange): void {
    const last = this._deltas[this._deltas.length - 1];
    if (c.type === 'terminalOutput' || c.type === 'terminal') {
      this.addTerminalChange(c);
    } else if (c.type === 'append' && last?.op === 'append' && last.index === c.index) {
      this._deltas[this._deltas.length - 1] = { op: 'append', index: c.index, text: last.text + c.text };
    } else if (c.type === 'append') {
      this._deltas.push({ op: 'append', index: c.index, text: c.text });
    } else if (c.type === 'entry') {
      // a later full entry makes earlier deltas of the same entry redundant only if they are the tail
      if (last && (last.op === 'append' || last.op === 'entry') && last.index === c.index) this._deltas.pop();
      this._deltas.push({ op: 'entry', index: c.index, entry: this.source.entry(c.index) });
    } else {
      // a title, status, plan, usage, commands, config, modes or following change: the newest state is enough
      if (last?.op === 'state') this._deltas.pop();
      this._deltas.push({ op: 'state', state: this.source.state() });
    }
  }

  /** Removes and returns every queued delta, oldest first. */
  take(): ThreadDelta[] {
    const deltas = this._deltas;
    this._deltas = [];
    return deltas;
  }

  /** Drops every queued delta (a snapshot replaces them). */
  clear(): void {
    this._deltas = [];
  }

  /**
   * Terminal output: consecutive appends to one terminal are merged (a merge that outgrows the chat's tail
   * becomes one whole view); a whole view makes the queued appends of that terminal redundant.
   */
  private addTerminalChange(c: Extract<ThreadChange, { type: 'terminalOutput' | 'terminal' }>): void {
    const last = this._deltas[this._deltas.length - 1];
    if (c.type === 'terminalOutput') {
      if (last?.op !== 'terminalOutput' || last.terminalId !== c.terminalId) {
        this._deltas.push({ op: 'terminalOutput', terminalId: c.terminalId, text: c.text });
        return;
      }
      if (last.text.length + c.text.length <= this.terminalTailChars) {
        this._deltas[this._deltas.length - 1] = { op: 'terminalOutput', terminalId: c.terminalId, text: last.text + c.text };
        return;
      }
    }
    this._deltas = this._deltas.filter((d) => !((d.op === 'terminalOutput' || d.op === 'terminal') && d.terminalId === c.terminalId));
    this._deltas.push({ op: 'terminal', terminalId: c.terminalId, terminal: this.source.terminal(c.terminalId) });
  }
}
