/**
 * What changed in the store since the last frame, coalesced: many deltas to one entry render it once, a
 * snapshot makes every other change moot, appended text goes straight into a rendered message (O(chunk)).
 * No DOM here (docs/chat.md).
 */
import type { StoreChange } from '../store';

/** Store changes not rendered yet. */
export class PendingChanges {
  /** A snapshot arrived: everything is rendered again from the store. */
  reset = false;
  /** Older entries that arrived: indices [from, to) go before the node of `to`. */
  older: { from: number; to: number } | undefined;
  /** The session's state changed. */
  state = false;
  /** Entries to render (again) from the store. */
  readonly entries = new Set<number>();
  /** Terminals whose every node is rebuilt from the store's view. */
  readonly terminals = new Set<string>();
  /** Output appended to terminals: the carry before the first piece, and the pieces. */
  readonly terminalOutput = new Map<string, { carry: string; text: string[] }>();

  /**
   * Records a change. `appendText` puts appended text into the entry's rendered message and returns true,
   * or returns false when the entry has none (it is rendered again instead).
   */
  add(change: StoreChange, appendText: (index: number, text: string) => boolean): void {
    switch (change.type) {
      case 'reset':
        this.reset = true;
        this.older = undefined;
        break;
      case 'older':
        if (this.reset) break; // rendered from the store anyway
        this.older = { from: change.from, to: this.older?.to ?? change.to };
        break;
      case 'append':
        if (this.reset || this.entries.has(change.index)) break; // rendered from the store anyway
        if (!appendText(change.index, change.text)) this.entries.add(change.index);
        break;
      case 'entry':
        this.entries.add(change.index);
        break;
      case 'state':
        this.state = true;
        break;
      case 'terminal':
        this.terminals.add(change.terminalId);
        this.terminalOutput.delete(change.terminalId);
        break;
      case 'terminalOutput': {
        if (this.terminals.has(change.terminalId)) break;
        const queued = this.terminalOutput.get(change.terminalId);
        if (queued) queued.text.push(change.text);
        else this.terminalOutput.set(change.terminalId, { carry: change.carry, text: [change.text] });
        break;
      }
    }
  }

  /** Forgets the changes to entries and terminals (the whole transcript is rendered again from the store). */
  clearRendered(): void {
    this.entries.clear();
    this.terminals.clear();
    this.terminalOutput.clear();
  }
}
