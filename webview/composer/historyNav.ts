/**
 * Prompt history recall with ↑/↓ (pure): ↑ walks back through earlier prompts, ↓ forward, and past the
 * newest one the text that was being written comes back, so recalling never loses a draft.
 */

/** Walks a prompt history. */
export class HistoryNavigator {
  /** Position in the history while recalling; -1 when not recalling. */
  private index = -1;
  private saved = '';

  constructor(private history: readonly string[] = []) {}

  /** True while a history entry is shown. */
  get recalling(): boolean {
    return this.index !== -1;
  }

  /** Replaces the history (a new prompt was sent, or the host's copy arrived); stops recalling. */
  setHistory(history: readonly string[]): void {
    this.history = history;
    this.index = -1;
  }

  /** The previous (older) prompt, or undefined at the oldest. `current` is kept to come back to. */
  previous(current: string): string | undefined {
    if (!this.history.length) return undefined;
    if (this.index === -1) {
      this.saved = current;
      this.index = this.history.length - 1;
      return this.history[this.index];
    }
    if (this.index === 0) return undefined;
    this.index -= 1;
    return this.history[this.index];
  }

  /** The next (newer) prompt, the saved draft past the newest, or undefined when not recalling. */
  next(): string | undefined {
    if (this.index === -1) return undefined;
    this.index += 1;
    if (this.index >= this.history.length) {
      this.index = -1;
      return this.saved;
    }
    return this.history[this.index];
  }

  /** Stops recalling (the user edited the text). */
  reset(): void {
    this.index = -1;
  }
}
