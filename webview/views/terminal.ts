/**
 * An agent terminal inside a tool-call card: its command, its status (running, exit code, signal), a button
 * that shows the command in the VS Code terminal, and its output in a `<pre>` with ANSI colours, bold,
 * underline… as CSS classes (terminal theme colours). Output streams in by appending runs, O(chunk),
 * carrying the text attributes from chunk to chunk; the DOM keeps a bounded tail like the store, and a line
 * above it says how much was truncated (docs/chat.md#terminal-output-in-the-chat). The output stays
 * after the agent released the terminal.
 */
import { formatChars } from '../../src/shared/terminalTail';
import { terminalTailChars } from '../../src/shared/viewModel';
import type { TerminalView } from '../../src/shared/viewModel';
import { ansiColorRules, ansiSegments, incompleteTailStart } from '../lib/ansi';
import type { AnsiSegment, SgrState } from '../lib/ansi';
import { h } from './dom';
import { stopButton } from './stopButton';
import type { RenderContext } from './renderContext';

/** Characters of plain text a terminal's `<pre>` holds before it is rebuilt from the kept tail. */
const maxDomChars = 2 * terminalTailChars;
/** Per rendered `<pre>`: characters shown, and the text attributes at the end of its output. */
const preState = new WeakMap<Element, { chars: number; sgr: SgrState }>();

/** "running", "exit code 2", "killed (SIGKILL)", … */
export function terminalStatus(view: TerminalView | undefined): string {
  if (!view) return 'output not kept';
  const exit = view.exitStatus;
  if (exit) return exit.signal ? `ended by ${exit.signal}` : `exit code ${exit.exitCode ?? '?'}`;
  return view.released ? 'released' : 'running…';
}

let colorsAdopted = false;
/** The ANSI colour classes' rules, in a constructed style sheet of the page (once, at the first coloured run). */
function adoptColors(): void {
  colorsAdopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(ansiColorRules());
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function segmentNodes(segments: readonly AnsiSegment[]): Node[] {
  if (!colorsAdopted && segments.some((s) => s.classes.length)) adoptColors();
  return segments.map((s) => (s.classes.length ? h('span', { class: s.classes.join(' ') }, s.text) : document.createTextNode(s.text)));
}

/** Complete terminal text (e.g. a command's output in a tool call's raw output) as styled text nodes, and its length. */
export function ansiNodes(text: string): { readonly nodes: Node[]; readonly chars: number } {
  const { segments } = ansiSegments(text);
  return { nodes: segmentNodes(segments), chars: segments.reduce((n, s) => n + s.text.length, 0) };
}

/** "5.1 MB truncated, showing the last 64 KB": what the card says above a tail whose start was dropped. */
export function truncationText(view: Pick<TerminalView, 'droppedChars'>, shownChars: number): string {
  const dropped = view.droppedChars ? formatChars(view.droppedChars) : 'Earlier output';
  return `${dropped} truncated, showing the last ${formatChars(shownChars)}`;
}

/** Updates the truncation line above a terminal's `<pre>` (hidden while nothing was dropped). */
function updateTruncation(pre: HTMLElement, view: TerminalView | undefined, shownChars: number): void {
  const note = pre.parentElement?.querySelector<HTMLElement>('[data-role="terminal-truncated"]');
  if (!note) return;
  note.hidden = !view?.truncated;
  note.textContent = view?.truncated ? truncationText(view, shownChars) : '';
}

/** Fills a `<pre>` with a terminal's kept output, and says above it how much was truncated. */
function fillOutput(pre: HTMLElement, view: TerminalView | undefined): void {
  // a sequence cut off at the end is left for the next chunk (see the store's carry)
  const output = view ? view.output.slice(0, incompleteTailStart(view.output)) : '';
  const { segments, state } = ansiSegments(output);
  pre.replaceChildren(...segmentNodes(segments));
  const chars = segments.reduce((n, s) => n + s.text.length, 0);
  preState.set(pre, { chars, sgr: state });
  updateTruncation(pre, view, chars);
}

/** The element of one terminal, for a tool-call card. */
export function terminalNode(terminalId: string, view: TerminalView | undefined, ctx: RenderContext): HTMLElement {
  const failed = view?.exitStatus && (view.exitStatus.signal !== null || view.exitStatus.exitCode !== 0);
  const running = view !== undefined && !view.exitStatus && !view.released;
  const pre = h('pre', { class: 'terminal-output', 'data-role': 'terminal-output', tabindex: '0', 'aria-label': `Output of ${view?.command ?? 'the terminal'}` });
  // an ACP v2 agent's terminal runs on its side: nothing to show in the panel, and it may offer Stop
  const show = view?.agentRun ? undefined : h('button', { type: 'button', class: 'terminal-show', 'data-testid': 'terminal-show', title: 'Show this command in the terminal panel (its whole output, as far as the terminal keeps it)' },
    h('span', { class: 'codicon codicon-link-external', 'aria-hidden': 'true' }), ' Show in terminal');
  show?.addEventListener('click', () => ctx.actions.showTerminal(terminalId));
  const stop = view?.cancellable ? stopButton(`Stop ${view.command || 'this terminal'}`, 'terminal-stop', () => ctx.actions.stopWork('terminal', terminalId)) : undefined;
  const node = h('div', { class: `terminal${failed ? ' failed' : ''}`, 'data-testid': 'terminal', 'data-terminal-id': terminalId, 'data-running': String(running) },
    h('div', { class: 'terminal-head' },
      h('span', { class: 'codicon codicon-terminal', 'aria-hidden': 'true' }),
      h('span', { class: 'terminal-command', title: view?.command ?? terminalId }, view?.command ? `$ ${view.command}` : `terminal ${terminalId}`),
      h('span', { class: 'terminal-status', 'data-role': 'terminal-status', 'data-testid': 'terminal-status' }, terminalStatus(view)),
      stop, show),
    h('div', { class: 'terminal-truncated', 'data-role': 'terminal-truncated', 'data-testid': 'terminal-truncated', hidden: '' }),
    pre);
  fillOutput(pre, view);
  return node;
}

function nodesOf(root: ParentNode, terminalId: string): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('[data-terminal-id]')].filter((n) => n.dataset.terminalId === terminalId);
}

/** Replaces every rendered node of a terminal with a fresh one (added, exited, released, forgotten). */
export function refreshTerminal(root: ParentNode, terminalId: string, view: TerminalView | undefined, ctx: RenderContext): void {
  for (const node of nodesOf(root, terminalId)) {
    const pre = node.querySelector('pre');
    const atBottom = pre ? isAtBottom(pre) : true;
    const fresh = terminalNode(terminalId, view, ctx);
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
  const all = carry + text;
  const complete = all.slice(0, incompleteTailStart(all));
  if (!complete) return;
  for (const node of nodesOf(root, terminalId)) {
    const pre = node.querySelector('pre');
    if (!pre) continue;
    const atBottom = isAtBottom(pre);
    const before = preState.get(pre) ?? { chars: 0, sgr: {} };
    const { segments, state } = ansiSegments(complete, before.sgr);
    const added = segments.reduce((n, s) => n + s.text.length, 0);
    if (before.chars + added > maxDomChars) {
      fillOutput(pre, view);
    } else {
      pre.append(...segmentNodes(segments));
      preState.set(pre, { chars: before.chars + added, sgr: state });
      if (view?.truncated) updateTruncation(pre, view, before.chars + added);
    }
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  }
}

/** Where each terminal of a rendered card is scrolled: `bottom` (following its end) or the user's scrollTop. */
export function terminalScroll(node: ParentNode | undefined): Map<string, number | 'bottom'> {
  const memo = new Map<string, number | 'bottom'>();
  for (const t of node ? node.querySelectorAll<HTMLElement>('[data-terminal-id]') : []) {
    const pre = t.querySelector('pre');
    if (pre && t.dataset.terminalId) memo.set(t.dataset.terminalId, isAtBottom(pre) ? 'bottom' : pre.scrollTop);
  }
  return memo;
}

/**
 * After a card was rendered again (or for the first time): each terminal's output shows its last line,
 * unless the user had scrolled it up in the card it replaces ({@link terminalScroll}).
 */
export function restoreTerminalScroll(node: ParentNode, memo: ReadonlyMap<string, number | 'bottom'>): void {
  const pres = [...node.querySelectorAll<HTMLElement>('[data-terminal-id] pre')];
  const targets = pres.map((pre) => {
    const was = memo.get(pre.closest<HTMLElement>('[data-terminal-id]')?.dataset.terminalId ?? '');
    return was === undefined || was === 'bottom' ? pre.scrollHeight : was;
  });
  pres.forEach((pre, i) => { pre.scrollTop = targets[i]; });
}

function isAtBottom(el: Element): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < 16;
}
