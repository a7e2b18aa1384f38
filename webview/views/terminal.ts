/**
 * An agent terminal inside a tool-call card: its command, its status (running, exit code, signal) and its
 * output as plain text in a `<pre>` (ANSI escapes stripped for now). Output streams in by appending text
 * nodes, O(chunk); the DOM keeps a bounded tail like the store.
 */
import { terminalTailChars } from '../../src/shared/viewModel';
import type { TerminalView } from '../../src/shared/viewModel';
import { incompleteTailStart, stripAnsi, stripAnsiChunk } from './ansi';
import { h } from './dom';

/** Characters of plain text a terminal's `<pre>` holds before it is rebuilt from the kept tail. */
const maxDomChars = 2 * terminalTailChars;
const domChars = new WeakMap<Element, number>();

/** "running", "exit code 2", "killed (SIGKILL)", … */
export function terminalStatus(view: TerminalView | undefined): string {
  if (!view) return 'output not kept';
  const exit = view.exitStatus;
  if (exit) return exit.signal ? `ended by ${exit.signal}` : `exit code ${exit.exitCode ?? '?'}`;
  return view.released ? 'released' : 'running…';
}

/** The plain text of a terminal's kept output (a leading ellipsis line when its start was dropped). */
function plainOutput(view: TerminalView | undefined): string {
  if (!view) return '';
  // a sequence cut off at the end is left for the next chunk (see the store's carry)
  const text = stripAnsi(view.output.slice(0, incompleteTailStart(view.output)));
  return view.truncated ? `…\n${text}` : text;
}

/** The element of one terminal, for a tool-call card. */
export function terminalNode(terminalId: string, view: TerminalView | undefined): HTMLElement {
  const failed = view?.exitStatus && (view.exitStatus.signal !== null || view.exitStatus.exitCode !== 0);
  const pre = h('pre', { class: 'terminal-output', 'data-role': 'terminal-output' }, plainOutput(view));
  domChars.set(pre, pre.textContent?.length ?? 0);
  return h('div', { class: `terminal${failed ? ' failed' : ''}`, 'data-testid': 'terminal', 'data-terminal-id': terminalId },
    h('div', { class: 'terminal-head' },
      h('span', { class: 'terminal-command', title: view?.command ?? terminalId }, view?.command ? `$ ${view.command}` : `terminal ${terminalId}`),
      h('span', { class: 'terminal-status', 'data-role': 'terminal-status' }, terminalStatus(view))),
    pre);
}

function nodesOf(root: ParentNode, terminalId: string): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('[data-terminal-id]')].filter((n) => n.dataset.terminalId === terminalId);
}

/** Replaces every rendered node of a terminal with a fresh one (added, exited, released, forgotten). */
export function refreshTerminal(root: ParentNode, terminalId: string, view: TerminalView | undefined): void {
  for (const node of nodesOf(root, terminalId)) {
    const pre = node.querySelector('pre');
    const atBottom = pre ? isAtBottom(pre) : true;
    const fresh = terminalNode(terminalId, view);
    node.replaceWith(fresh);
    const freshPre = fresh.querySelector('pre');
    if (freshPre && atBottom) freshPre.scrollTop = freshPre.scrollHeight;
  }
}

/**
 * Appends streamed raw output to every rendered node of a terminal. `carry` is the cut-off escape sequence
 * that preceded `text`; `view` (the store's, already updated) rebuilds a `<pre>` that grew too large.
 */
export function appendTerminalOutput(root: ParentNode, terminalId: string, carry: string, text: string, view: TerminalView | undefined): void {
  const plain = stripAnsiChunk(carry, text).text;
  if (!plain) return;
  for (const node of nodesOf(root, terminalId)) {
    const pre = node.querySelector('pre');
    if (!pre) continue;
    const atBottom = isAtBottom(pre);
    const length = (domChars.get(pre) ?? 0) + plain.length;
    if (length > maxDomChars) {
      pre.textContent = plainOutput(view);
      domChars.set(pre, pre.textContent.length);
    } else {
      pre.append(document.createTextNode(plain));
      domChars.set(pre, length);
    }
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  }
}

function isAtBottom(el: Element): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < 16;
}
