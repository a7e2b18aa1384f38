/**
 * The chat's copy of each agent terminal of a session, keyed by terminalId: the command, the tail of its
 * output (decoded text, ANSI kept), its exit status and whether the agent released it. Tool-call cards that
 * embed `{type:'terminal', terminalId}` show it live and keep showing it after release
 * (https://agentclientprotocol.com/protocol/terminals). Appends are O(chunk) (text pieces are joined lazily); every terminal keeps a bounded tail and the
 * store keeps a bounded number of terminals, dropping the oldest.
 */
import { terminalTailChars, terminalTailStart } from '../../shared/terminalTail';

/** Characters of output the chat keeps per terminal (the tail). */
export const chatTerminalTailChars = terminalTailChars;
/** Terminals whose output the chat keeps per session; the oldest are forgotten first. */
export const maxChatTerminals = 50;

/** What changed in the store (delivered as a thread change). */
export type TerminalStoreChange =
  /** Output appended (raw text, ANSI kept). */
  | { readonly type: 'terminalOutput'; readonly terminalId: string; readonly text: string }
  /** A terminal was added, exited, was released or forgotten: send its whole view again. */
  | { readonly type: 'terminal'; readonly terminalId: string };

/** How a terminal's command ended. */
export interface TerminalExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/**
 * One terminal as the store keeps it (and as the transcript store records it): the command, the kept tail of its
 * output, its exit status once known, and whether the agent released it.
 */
export interface TerminalSnapshot {
  readonly terminalId: string;
  /** The command line. */
  readonly command: string;
  /** The kept tail of the output (raw text, ANSI kept). */
  readonly output: string;
  /** True when the start of the output was dropped (a bounded tail is kept). */
  readonly truncated: boolean;
  /** Characters of output before `output` that were dropped (set when `truncated`; absent in older transcripts). */
  readonly droppedChars?: number;
  /** Set once the command ended. */
  readonly exitStatus?: TerminalExit;
  /** True once the agent released the terminal. */
  readonly released: boolean;
  /** An ACP v2 terminal: the agent runs it, there is no VS Code terminal to show (docs/acp-v2.md "Terminals"). */
  readonly agentRun?: boolean;
  /** The agent lets the user stop it (`terminal/cancel`); never true once it ended, nor in a restored transcript. */
  readonly cancellable?: boolean;
}

interface Record {
  readonly terminalId: string;
  readonly command: string;
  /** Output pieces; joined and trimmed to the tail when they grow past twice the tail size. */
  pieces: string[];
  length: number;
  truncated: boolean;
  /** Characters dropped from the start. */
  dropped: number;
  exitStatus?: TerminalExit;
  released: boolean;
  agentRun?: boolean;
  cancellable?: boolean;
}

/** The terminal output of one thread. Never imports vscode or node. */
export class TerminalOutputStore {
  private readonly _records = new Map<string, Record>();

  /** @param fire reports each change (the thread forwards it to its listeners) */
  constructor(private readonly fire: (change: TerminalStoreChange) => void, private readonly tailChars = chatTerminalTailChars) {}

  /** A new terminal started running `command` (one line); `agentRun`: an ACP v2 agent's own. */
  create(terminalId: string, command: string, agentRun = false): void {
    this._records.delete(terminalId);
    this._records.set(terminalId, { terminalId, command, pieces: [], length: 0, truncated: false, dropped: 0, released: false, ...(agentRun ? { agentRun } : {}) });
    this.fire({ type: 'terminal', terminalId });
    while (this._records.size > maxChatTerminals) {
      const oldest = this._records.keys().next().value as string;
      this._records.delete(oldest);
      this.fire({ type: 'terminal', terminalId: oldest });
    }
  }

  /** Appends decoded output. O(text) amortized. */
  append(terminalId: string, text: string): void {
    const r = this._records.get(terminalId);
    if (!r || text.length === 0) return;
    r.pieces.push(text);
    r.length += text.length;
    if (r.length > 2 * this.tailChars) this.compact(r);
    this.fire({ type: 'terminalOutput', terminalId, text });
  }

  /** The command ended. */
  exit(terminalId: string, exitStatus: TerminalExit): void {
    const r = this._records.get(terminalId);
    if (!r) return;
    r.exitStatus = { exitCode: exitStatus.exitCode, signal: exitStatus.signal };
    this.fire({ type: 'terminal', terminalId });
  }

  /** Whether the agent lets the user stop the terminal (ACP v2 `terminal/cancel`). */
  setCancellable(terminalId: string, cancellable: boolean): void {
    const r = this._records.get(terminalId);
    if (!r || !!r.cancellable === cancellable) return;
    r.cancellable = cancellable;
    this.fire({ type: 'terminal', terminalId });
  }

  /** The agent released the terminal: its output stays. */
  release(terminalId: string): void {
    const r = this._records.get(terminalId);
    if (!r || r.released) return;
    r.released = true;
    this.fire({ type: 'terminal', terminalId });
  }

  /**
   * Puts back terminals recorded in the client's transcript store (a reopened session): released, with the
   * output they had. Fires nothing (meant for a thread no view shows yet).
   */
  restore(views: readonly TerminalSnapshot[]): void {
    for (const v of views.slice(-maxChatTerminals)) {
      this._records.set(v.terminalId, {
        terminalId: v.terminalId, command: v.command, pieces: v.output ? [v.output] : [], length: v.output.length,
        truncated: v.truncated, dropped: v.droppedChars ?? 0, released: true, ...(v.agentRun ? { agentRun: true } : {}), ...(v.exitStatus ? { exitStatus: { exitCode: v.exitStatus.exitCode, signal: v.exitStatus.signal } } : {}),
      });
    }
  }

  /** True while the store has the terminal. */
  has(terminalId: string): boolean {
    return this._records.has(terminalId);
  }

  /** The terminal as the chat renders it (its output is the kept tail), or undefined when unknown or forgotten. */
  view(terminalId: string): TerminalSnapshot | undefined {
    const r = this._records.get(terminalId);
    if (!r) return undefined;
    this.compact(r);
    return {
      terminalId,
      command: r.command,
      output: r.pieces[0] ?? '',
      truncated: r.truncated,
      ...(r.dropped ? { droppedChars: r.dropped } : {}),
      released: r.released,
      ...(r.exitStatus ? { exitStatus: r.exitStatus } : {}),
      ...(r.agentRun ? { agentRun: true } : {}),
      ...(r.cancellable && !r.exitStatus && !r.released ? { cancellable: true } : {}),
    };
  }

  /** Every kept terminal, oldest first. */
  views(): TerminalSnapshot[] {
    return [...this._records.keys()].map((id) => this.view(id)).filter((v): v is TerminalSnapshot => v !== undefined);
  }

  /** Joins the pieces into one tail of at most `tailChars` characters, from a line start where it can (see terminalTail.ts). */
  private compact(r: Record): void {
    if (r.pieces.length <= 1 && r.length <= this.tailChars) return;
    let text = r.pieces.join('');
    if (text.length > this.tailChars) {
      const start = terminalTailStart(text, this.tailChars);
      text = text.slice(start);
      r.dropped += start;
      r.truncated = true;
    }
    r.pieces = text.length > 0 ? [text] : [];
    r.length = text.length;
  }
}
