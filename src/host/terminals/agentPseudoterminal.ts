/**
 * The VS Code side of one agent terminal: a Pseudoterminal with its own emitters (not a shared one, unlike
 * the extension-terminal sample), output buffered (bounded) until VS Code opens it, ANSI kept and lone
 * `\n` written as `\r\n`, Ctrl+C forwarded as an interrupt (after vscode-jest's
 * `ExtOutputTerminal`). Output is paced: written at most every {@link writeIntervalMs}, and of what
 * one interval brings only the lines the terminal keeps (its scrollback) are written, after a visible
 * "lines skipped" line: a command that prints megabytes does not keep the workbench (and the chat, which
 * shares its thread) busy drawing lines that scroll out at once (docs/chat.md#terminal-output-in-the-chat).
 * The process and its output live elsewhere (TerminalProcess, the thread's store), so closing the terminal
 * never breaks `terminal/output`.
 */
import * as vscode from 'vscode';
import type { TerminalExitStatus } from '../../agents/terminalProcess';

/** What the pseudoterminal asks of its owner. */
export interface AgentPseudoterminalHandlers {
  /** The user typed Ctrl+C: kill the process tree. */
  interrupt(): void;
  /** The terminal was closed (by the user, or disposed). */
  closed(): void;
}

/** Characters kept while the terminal is not open yet; older output is dropped first. */
export const pendingOutputChars = 1024 * 1024;
/** Characters of what was written that {@link AgentPseudoterminal.screenTail} keeps. */
const screenTailChars = 64 * 1024;
/** Output reaches VS Code at most this often (ms); the first write after a pause goes at once. */
export const writeIntervalMs = 100;
/** Lines kept by default: VS Code's default `terminal.integrated.scrollback` plus a screen. */
const defaultKeepLines = 1000 + 100;

const dim = (text: string) => `\x1b[2m${text}\x1b[0m`;

/** How an exit status reads in the terminal. */
export function describeExit(status: TerminalExitStatus): string {
  return status.signal ? `ended by ${status.signal}` : `exited with code ${status.exitCode ?? '?'}`;
}

/** Options of {@link AgentPseudoterminal}. */
export interface AgentPseudoterminalOptions {
  /** Lines the terminal keeps (scrollback and screen): more in one write interval are skipped. */
  readonly keepLines?: number;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The Pseudoterminal of one agent terminal. */
export class AgentPseudoterminal implements vscode.Pseudoterminal, vscode.Disposable {
  private readonly _onDidWrite = new vscode.EventEmitter<string>();
  private readonly _onDidClose = new vscode.EventEmitter<number | void>();
  /** Text for the terminal (VS Code subscribes before `open`). */
  readonly onDidWrite = this._onDidWrite.event;
  /** Closes the terminal. */
  readonly onDidClose = this._onDidClose.event;

  private _pending: string[] = [];
  private _pendingChars = 0;
  private _droppedBeforeOpen = false;
  private _isOpen = false;
  private _isClosed = false;
  private _exit: TerminalExitStatus | undefined;
  private _lastWasCr = false;
  private _screen: string[] = [];
  private _screenChars = 0;
  /** Output for an open terminal not written yet (paced), and its line count. */
  private _out: string[] = [];
  private _outLines = 0;
  private _timer: ReturnType<typeof setTimeout> | undefined;
  private _lastWriteAt = Number.NEGATIVE_INFINITY;
  private readonly keepLines: number;

  constructor(private readonly handlers: AgentPseudoterminalHandlers, options: AgentPseudoterminalOptions = {}) {
    this.keepLines = Math.max(1, Math.floor(options.keepLines ?? defaultKeepLines));
  }

  /** True once VS Code opened the terminal (and until it closed). */
  get isOpen(): boolean {
    return this._isOpen && !this._isClosed;
  }

  /** True once the terminal was closed. */
  get isClosed(): boolean {
    return this._isClosed;
  }

  /** The last 64 KiB of what was written to the terminal (`\r\n` line ends; before pacing skipped any lines). */
  screenTail(): string {
    const text = this._screen.join('');
    this._screen = [text];
    return text;
  }

  /** VS Code shows the terminal: flush what was buffered. */
  open(): void {
    if (this._isClosed) return;
    this._isOpen = true;
    const pending = this._pending.join('');
    this._pending = [];
    this._pendingChars = 0;
    if (this._droppedBeforeOpen) this.emit(dim('[earlier output dropped]\r\n'));
    if (pending) this.emit(pending);
  }

  /** The terminal was closed (its tab closed, or disposed). */
  close(): void {
    if (this._isClosed) return;
    this._isClosed = true;
    this._pending = [];
    this._pendingChars = 0;
    this.stopPacing();
    this.handlers.closed();
  }

  /** Keys typed into the terminal: Ctrl+C interrupts a running command; after the exit any key closes it. */
  handleInput(data: string): void {
    if (this._isClosed) return;
    if (this._exit) {
      this._onDidClose.fire();
      return;
    }
    if (data.includes('\x03')) {
      this.emit(dim('^C\r\n'));
      this.handlers.interrupt();
    }
  }

  /** Writes process output (ANSI kept; a lone `\n` becomes `\r\n`). */
  write(text: string): void {
    if (this._isClosed || text.length === 0) return;
    let out = text.replace(/(?<!\r)\n/g, '\r\n');
    // a `\n` at the very start follows the previous chunk's last character
    if (this._lastWasCr && text.startsWith('\n') && out.startsWith('\r\n')) out = out.slice(1);
    this._lastWasCr = text.endsWith('\r');
    this.emit(out);
  }

  /** The command ended: says how, and that any key closes the terminal. */
  exited(status: TerminalExitStatus): void {
    if (this._exit) return;
    this._exit = status;
    this.emit(`\r\n${dim(`[${describeExit(status)}. Press any key to close this terminal.]`)}\r\n`);
    if (this._isOpen) this.writeOut();
  }

  private emit(text: string): void {
    if (this._isClosed) return;
    this.record(text);
    if (this._isOpen) {
      this._out.push(text);
      this._outLines += countLines(text);
      if (this._timer) return;
      const wait = this._lastWriteAt + writeIntervalMs - Date.now();
      if (wait <= 0) this.writeOut();
      else this._timer = setTimeout(() => this.writeOut(), wait);
      return;
    }
    this._pending.push(text);
    this._pendingChars += text.length;
    while (this._pendingChars > pendingOutputChars && this._pending.length > 1) {
      this._pendingChars -= (this._pending.shift() as string).length;
      this._droppedBeforeOpen = true;
    }
  }

  /** Writes the paced output: only its last {@link keepLines} lines when it has more, after a line that says so. */
  private writeOut(): void {
    this.stopPacing();
    if (this._isClosed || !this._out.length) return;
    let text = this._out.join('');
    const skipped = this._outLines - this.keepLines;
    this._out = [];
    this._outLines = 0;
    if (skipped > 0) {
      let start = -1;
      for (let i = 0; i < skipped; i++) start = text.indexOf('\n', start + 1);
      text = `${dim(`[${skipped} lines skipped: more than this terminal keeps in its scrollback]`)}\r\n${text.slice(start + 1)}`;
    }
    this._lastWriteAt = Date.now();
    this._onDidWrite.fire(text);
  }

  private stopPacing(): void {
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
  }

  private record(text: string): void {
    this._screen.push(text);
    this._screenChars += text.length;
    if (this._screenChars > 2 * screenTailChars) {
      const joined = this._screen.join('');
      const tail = joined.slice(joined.length - screenTailChars);
      this._screen = [tail];
      this._screenChars = tail.length;
    }
  }

  dispose(): void {
    this.stopPacing();
    this._onDidWrite.dispose();
    this._onDidClose.dispose();
  }
}
