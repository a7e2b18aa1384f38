/**
 * A tool call's raw output in its card (the host mapped and capped it, src/thread/view/rawOutput.ts): the command line and
 * exit code above what it printed, as terminal text with ANSI colours (the look of an agent terminal, without Show in
 * terminal: there is none); the diffs of a `changes` map as inline diffs (no Open Diff: only the hunks are known);
 * the rest as collapsible JSON. All of it is text nodes (docs/chat.md "Raw output of a tool call").
 *
 * Each printed text sits in a box with a `data-terminal-id` of its own (`raw-output:<entry>:<label>`, which no agent
 * terminal has: those ids are the client's), so that it follows its last line and keeps the user's scroll across
 * re-renders like terminal output (terminal.ts `restoreTerminalScroll`).
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/cards.css';
import type { RawDiffView, RawOutputView, RawTextView } from '../../src/shared/rawOutputModel';
import { hunkRows } from '../lib/diffLines';
import { diffFrame } from './diff';
import { h } from './dom';
import { jsonDisclosureNode } from './jsonDisclosure';
import { outputNote } from './outputNote';
import { ansiNodes, truncationText } from './terminal';
import { visibleText } from './visibleText';

/** The nodes of a raw output, in card order: the command and its output, the diffs, the JSON. */
export function rawOutputNodes(v: RawOutputView, entryId: string, open?: OpenRawOutput): HTMLElement[] {
  const nodes: HTMLElement[] = [];
  if (v.command !== undefined || v.exitCode !== undefined || v.texts.length) nodes.push(commandNode(v, entryId, open));
  for (const d of v.diffs) nodes.push(rawDiffNode(d));
  if (v.omittedDiffs) nodes.push(h('div', { class: 'diff-note' }, `${v.omittedDiffs} more changed files not shown.`));
  if (v.json !== undefined) {
    nodes.push(jsonDisclosureNode({ key: `${entryId}-output`, label: 'Raw output', json: v.json, droppedChars: v.jsonDroppedChars, testId: 'raw-output', ...(open ? { openAll: () => open('rawJson') } : {}) }));
  }
  return nodes;
}

/** Open full output of a capped text of the raw output (a printed text by its label, or the JSON). */
export type OpenRawOutput = (part: 'rawText' | 'rawJson', label?: RawTextView['label']) => void;

/** The command line, its exit code and what it printed. */
function commandNode(v: RawOutputView, entryId: string, open: OpenRawOutput | undefined): HTMLElement {
  const failed = v.exitCode !== undefined && v.exitCode !== 0;
  const labelled = v.texts.length > 1 || v.texts.some((t) => t.label !== 'output');
  return h('div', { class: `terminal raw-output-command${failed ? ' failed' : ''}`, 'data-testid': 'raw-output-command' },
    h('div', { class: 'terminal-head' },
      h('span', { class: 'codicon codicon-terminal', 'aria-hidden': 'true' }),
      v.command !== undefined
        ? h('span', { class: 'terminal-command', 'data-testid': 'raw-output-command-line', title: v.command }, '$ ', visibleText(v.command))
        : h('span', { class: 'terminal-command' }, 'Output'),
      v.exitCode !== undefined ? h('span', { class: 'terminal-status', 'data-testid': 'raw-output-exit' }, `exit code ${v.exitCode}`) : undefined),
    ...v.texts.map((t) => textNode(t, entryId, labelled, v.command, open && (() => open('rawText', t.label)))));
}

/** One printed text: its label (stdout, stderr) when there are several, what was truncated, the text. */
function textNode(t: RawTextView, entryId: string, labelled: boolean, command: string | undefined, open: (() => void) | undefined): HTMLElement {
  const { nodes, chars } = ansiNodes(t.text);
  const pre = h('pre', {
    class: 'terminal-output', 'data-testid': 'raw-output-text', 'data-label': t.label, tabindex: '0',
    'aria-label': `${t.label === 'output' ? 'Output' : t.label} of ${command ?? 'the tool'}`,
  });
  pre.append(...nodes);
  return h('div', { class: 'raw-output-stream', 'data-terminal-id': `raw-output:${entryId}:${t.label}` },
    labelled ? h('div', { class: 'raw-output-label' }, t.label) : undefined,
    t.droppedChars ? outputNote(truncationText(t, chars), open, 'raw-output-truncated') : undefined,
    pre);
}

/** One file of a `changes` map: the inline diff of its hunks. */
function rawDiffNode(d: RawDiffView): HTMLElement {
  const notes = [d.movePath ? `Moved to ${d.movePath}.` : '', d.omittedLines ? `${d.omittedLines} more lines not shown.` : ''].filter(Boolean);
  const node = diffFrame(d.path, d.change, hunkRows(d.hunks), [], notes.join(' ') || undefined);
  node.dataset.source = 'raw-output';
  return node;
}
