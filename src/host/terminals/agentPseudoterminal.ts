/**
 * The VS Code side of one agent terminal: a Pseudoterminal with its own emitters (not a shared one, unlike
 * the extension-terminal sample), output buffered (bounded) until VS Code opens it, ANSI kept and lone
 * `\n` written as `\r\n`, Ctrl+C forwarded as an interrupt (after vscode-jest's
 * `ExtOutputTerminal`). The process and its output live elsewhere (TerminalProcess, the thread's store),
 * so closing the terminal never breaks `terminal/output`.
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

const dim = (text: string) => `\x1b[2m${text}\x1b[0m`;

/** How an exit status reads in the terminal. */
export function describeExit(status: TerminalExitStatus): string {
  return status.signal ? `ended by ${status.signal}` : `exited with code ${status.exitCode ?? '?'}`;
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

  constructor(private readonly handlers: AgentPseudoterminalHandlers) {}

  /** True once VS Code opened the terminal (and until it closed). */
  get isOpen(): boolean {
    return this._isOpen && !this._isClosed;
  }

  /** True once the terminal was closed. */
  get isClosed(): boolean {
    return this._isClosed;
  }

  /** The last 64 KiB of what was written to the terminal (as VS Code got it, `\r\n` line ends). */
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
  }

  private emit(text: string): void {
    if (this._isClosed) return;
    this.record(text);
    if (this._isOpen) {
      this._onDidWrite.fire(text);
      return;
    }
    this._pending.push(text);
    this._pendingChars += text.length;
    while (this._pendingChars > pendingOutputChars && this._pending.length > 1) {
      this._pendingChars -= (this._pending.shift() as string).length;
      this._droppedBeforeOpen = true;
    }
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
    this._onDidWrite.dispose();
    this._onDidClose.dispose();
  }
}
