/**
 * The chat's pending deltas between two posts to the webview, coalesced so that a burst of thread changes
 * costs what its result does: consecutive appends to one entry become one append, a full entry makes the
 * deltas of that entry before it redundant, only the newest state is kept, and terminal output is merged per
 * terminal up to the chat's tail size (a longer burst becomes one whole terminal view, read when it is
 * posted). Terminal output is also paced: it goes out at most once per {@link terminalOutputIntervalMs}, so
 * a command that prints megabytes costs the chat a few tails per second, not its whole output
 * (docs/chat.md#terminal-output-in-the-chat). This is what keeps a long streamed answer O(chunk)
 * per update (docs/chat.md). No vscode here: unit-tested in plain node.
 */
import type { EntryView, TerminalView, ThreadDelta, ThreadStateView } from '../shared/viewModel';
import { chatTerminalTailChars } from '../thread/model/terminalOutputStore';
import type { ThreadChange } from '../thread/model/thread';

/** The current views of what a change refers to, read when the change is queued. */
export interface DeltaSource {
  /** The entry at `index` as the chat renders it. */
  entry(index: number): EntryView;
  /** The entry at `path` inside the subagent card at `index`, undefined when there is none. */
  nestedEntry(index: number, path: readonly number[]): EntryView | undefined;
  /** The thread-level state. */
  state(): ThreadStateView;
  /** A terminal's whole view, or null when the thread forgot it. */
  terminal(terminalId: string): TerminalView | null;
}

/** Terminal output is posted at most this often (ms); everything else goes out with the next frame. */
export const terminalOutputIntervalMs = 200;

/** Output of one terminal not posted yet: the text, or (past the tail size) just the fact that there is more. */
interface PendingOutput {
  text: string;
  overflow: boolean;
}

/** The deltas not posted yet, coalesced. */
export class DeltaQueue {
  private _deltas: ThreadDelta[] = [];
  /** Terminal output by terminal, posted after the other deltas when due. */
  private _output = new Map<string, PendingOutput>();
  /** When terminal output was last taken (ms, the clock passed to {@link take}). */
  private _outputTakenAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly source: DeltaSource, private readonly terminalTailChars = chatTerminalTailChars, private readonly outputIntervalMs = terminalOutputIntervalMs) {}

  /** How many deltas are queued (a terminal's pending output counts as one). */
  get length(): number {
    return this._deltas.length + this._output.size;
  }

  /**
   * In how many ms something is due to be posted at time `now`: 0 when deltas other than terminal output
   * are queued, the wait until terminal output may go again when only that is, undefined when nothing is.
   */
  dueIn(now: number): number | undefined {
    if (this._deltas.length) return 0;
    if (!this._output.size) return undefined;
    return Math.max(0, this._outputTakenAt + this.outputIntervalMs - now);
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
    } else if (c.type === 'subAppend' || c.type === 'subEntry') {
      this.addNested(c, last);
    } else if (c.type === 'entry') {
      // a later full entry makes earlier deltas of the same entry redundant only if they are the tail
      if (last && (last.op === 'append' || last.op === 'entry') && last.index === c.index) this._deltas.pop();
      this._deltas.push({ op: 'entry', index: c.index, entry: this.source.entry(c.index) });
    } else {
      this.addState(); // a title, status, plan, usage, commands, config or modes change
    }
  }

  /** Queues the state (the thread's, or the host's part of the header: Follow Agent): the newest state is enough. */
  addState(): void {
    if (this._deltas[this._deltas.length - 1]?.op === 'state') this._deltas.pop();
    this._deltas.push({ op: 'state', state: this.source.state() });
  }

  /**
   * Removes and returns the queued deltas, oldest first, then each terminal's pending output (its text, or
   * its whole view when the text outgrew the tail). Without `now` everything goes; with it, terminal output
   * stays queued until {@link terminalOutputIntervalMs} after it was last taken.
   */
  take(now?: number): ThreadDelta[] {
    const deltas = this._deltas;
    this._deltas = [];
    if (!this._output.size || (now !== undefined && now < this._outputTakenAt + this.outputIntervalMs)) return deltas;
    for (const [terminalId, pending] of this._output) {
      deltas.push(pending.overflow
        ? { op: 'terminal', terminalId, terminal: this.source.terminal(terminalId) }
        : { op: 'terminalOutput', terminalId, text: pending.text });
    }
    this._output.clear();
    if (now !== undefined) this._outputTakenAt = now;
    return deltas;
  }

  /** Drops every queued delta (a snapshot replaces them). */
  clear(): void {
    this._deltas = [];
    this._output.clear();
  }

  /**
   * A change inside a subagent's card: appends to one entry are merged, a whole entry makes the deltas of that
   * entry before it redundant, like at the top level. An entry the thread no longer has is not posted.
   */
  private addNested(c: Extract<ThreadChange, { type: 'subAppend' | 'subEntry' }>, last: ThreadDelta | undefined): void {
    const same = (last?.op === 'subAppend' || last?.op === 'subEntry') && last.index === c.index && samePath(last.path, c.path);
    if (c.type === 'subAppend') {
      if (same && last.op === 'subAppend') this._deltas[this._deltas.length - 1] = { ...last, text: last.text + c.text };
      else this._deltas.push({ op: 'subAppend', index: c.index, path: c.path, text: c.text });
      return;
    }
    if (same) this._deltas.pop();
    const entry = this.source.nestedEntry(c.index, c.path);
    if (entry) this._deltas.push({ op: 'subEntry', index: c.index, path: c.path, entry });
  }

  /**
   * Terminal output: merged per terminal (past the tail size, only "there is more" is kept: the whole view
   * is read when it is taken); a whole view makes the queued output and views of that terminal redundant.
   */
  private addTerminalChange(c: Extract<ThreadChange, { type: 'terminalOutput' | 'terminal' }>): void {
    if (c.type === 'terminalOutput') {
      const pending = this._output.get(c.terminalId);
      if (!pending) this._output.set(c.terminalId, { text: c.text, overflow: c.text.length > this.terminalTailChars });
      else if (!pending.overflow && pending.text.length + c.text.length <= this.terminalTailChars) pending.text += c.text;
      else this._output.set(c.terminalId, { text: '', overflow: true });
      return;
    }
    this._output.delete(c.terminalId);
    this._deltas = this._deltas.filter((d) => !(d.op === 'terminal' && d.terminalId === c.terminalId));
    this._deltas.push({ op: 'terminal', terminalId: c.terminalId, terminal: this.source.terminal(c.terminalId) });
  }
}

function samePath(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
