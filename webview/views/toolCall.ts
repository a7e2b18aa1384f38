/**
 * Tool-call cards: a codicon per kind, the title, the status (spinner while running, ✓ done, ✗ failed),
 * the raw input (collapsible), the content (text, inline diff with Open Diff, live terminal), the raw output
 * (the command's output and diffs when there is no content, the rest collapsible: rawOutput.ts), locations as
 * links that open the file at the line, and the permission dialog. The dialog shows what is approved
 * verbatim (the command line, its directory, the paths), invisible characters made visible, and its
 * buttons act only deliberately (permissionGuard.ts).
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/cards.css';
import type { ContentView, PermissionSubjectView, ToolCallView, ToolTextCut } from '../../src/shared/viewModel';
import { formatChars } from '../../src/shared/terminalTail';
import { stripAnsi, hasAnsiEscapes } from '../lib/ansi';
import { button } from '../components/button';
import { progressRing } from '../components/progressRing';
import { foldEnvelopes, titleNodes } from './agentText';
import { diffNode } from './diff';
import { elicitationNode } from './elicitation';
import { h } from './dom';
import { stopButton } from './stopButton';
import { jsonDisclosureNode } from './jsonDisclosure';
import { contentNode, markdownContentMax } from './messages';
import { outputNote } from './outputNote';
import { guardActivation } from './permissionGuard';
import { rawOutputNodes } from './rawOutput';
import type { RenderContext } from './renderContext';
import { ansiNodes, terminalNode } from './terminal';
import { visibleText } from './visibleText';

const kindIcons: Record<string, string> = {
  read: 'eye', edit: 'edit', delete: 'trash', move: 'arrow-swap', search: 'search', execute: 'terminal', think: 'lightbulb', fetch: 'globe', switch_mode: 'sync', other: 'tools',
};
const statusLabels: Record<string, string> = {
  pending: 'Pending', in_progress: 'Running', completed: 'Done', failed: 'Failed', cancelled: 'Cancelled', waitingForConfirmation: 'Needs your permission',
};
const statusIcons: Record<string, string> = {
  pending: 'clock', completed: 'check', failed: 'close', cancelled: 'circle-slash', waitingForConfirmation: 'shield',
};
/** Permission option kinds: the button's look and icon. */
const optionLooks: Record<string, { appearance: 'primary' | 'secondary'; icon: string }> = {
  allow_once: { appearance: 'primary', icon: 'check' },
  allow_always: { appearance: 'primary', icon: 'check-all' },
  reject_once: { appearance: 'secondary', icon: 'close' },
  reject_always: { appearance: 'secondary', icon: 'circle-slash' },
  rule: { appearance: 'secondary', icon: 'law' }, // the host's "Always allow …" button: opens its rule editor
};

function statusNode(e: ToolCallView): HTMLElement {
  const label = statusLabels[e.status] ?? e.status;
  const icon = e.status === 'in_progress' ? progressRing(label) : h('span', { class: `codicon codicon-${statusIcons[e.status] ?? 'circle-large-outline'}`, 'aria-hidden': 'true' });
  return h('span', { class: 'tool-status', 'data-testid': 'tool-status', 'data-status': e.status }, icon, h('span', { class: 'tool-status-label' }, label));
}

/**
 * Content of a tool call: text as sanitized Markdown (agents write tool output as Markdown), or, when it holds
 * escape sequences, as terminal text with its colours (like a terminal card); an envelope the agent wrote for
 * its model (a `<system-reminder>` block) folded away (agentText.ts).
 */
function toolContentNode(c: ContentView): Node {
  if (c.type !== 'text') return contentNode(c);
  const render = (text: string): Node => (hasAnsiEscapes(text) ? ansiTextNode(text) : contentNode({ type: 'text', text }, { markdown: true }));
  return h('div', { class: 'tool-text', 'data-testid': 'tool-text' }, ...(foldEnvelopes(c.text, render) ?? [render(c.text)]));
}

/**
 * A long text of a tool call as the host previewed it: its head and its tail as plain text (terminal text with its
 * colours), between them what was left out and Open full output.
 */
function cutTextNode(head: ContentView, cut: ToolTextCut, open: () => void): HTMLElement {
  const plain = (text: string): Node => (hasAnsiEscapes(text) ? ansiTextNode(text) : h('div', { class: 'text' }, text));
  return h('div', { class: 'tool-text tool-text-cut', 'data-testid': 'tool-text' },
    plain(head.type === 'text' ? head.text : ''),
    outputNote(`… ${formatChars(cut.omittedChars)} not shown (${formatChars(cut.totalChars)} in all)`, open, 'tool-text-omitted'),
    plain(cut.tail));
}

/** Terminal text in a tool's content: its colours as in a terminal card; past the Markdown cap, plain text without escapes. */
function ansiTextNode(text: string): HTMLElement {
  const pre = h('pre', { class: 'terminal-output tool-ansi-text', 'data-testid': 'tool-ansi-text', tabindex: '0' });
  if (text.length > markdownContentMax) pre.textContent = stripAnsi(text);
  else pre.append(...ansiNodes(text).nodes);
  return h('div', { class: 'terminal tool-ansi' }, pre);
}

/** The raw input, collapsible JSON (collapsed by default). */
function rawInputNode(e: ToolCallView, ctx: RenderContext): HTMLElement | undefined {
  if (e.rawInput === undefined) return undefined;
  return jsonDisclosureNode({
    key: `${e.id}-input`, label: 'Raw input', json: e.rawInput, droppedChars: e.rawInputDroppedChars, testId: 'raw-input',
    openAll: () => ctx.actions.openToolOutput({ toolCallId: e.toolCallId, part: 'rawInput' }),
  });
}

function locationsNode(e: ToolCallView, ctx: RenderContext): HTMLElement | undefined {
  if (!e.locations.length) return undefined;
  return h('div', { class: 'locations', 'aria-label': 'Locations' }, ...e.locations.map((l, index) => {
    const name = l.path.split(/[\\/]/).pop() || l.path;
    const link = h('button', { type: 'button', class: 'location-link', 'data-testid': 'location', title: `Open ${l.path}${l.line ? ` at line ${l.line}` : ''}` },
      h('span', { class: 'codicon codicon-go-to-file', 'aria-hidden': 'true' }), ` ${name}${l.line ? `:${l.line}` : ''}`);
    link.addEventListener('click', () => ctx.actions.openLocation(e.toolCallId, index));
    return link;
  }));
}

const subjectLabels: Record<PermissionSubjectView['kind'], string> = { command: 'Command', cwd: 'In folder', path: 'Path' };

/** What the request is about, verbatim: one labelled `<code>` block per command line, folder or path. */
function subjectNode(subject: readonly PermissionSubjectView[] | undefined, id: string): HTMLElement | undefined {
  if (!subject?.length) return undefined;
  return h('dl', { class: 'permission-subject', 'data-testid': 'permission-subject', id: `${id}-subject` },
    ...subject.flatMap((s) => [
      h('dt', { class: 'permission-subject-label' }, subjectLabels[s.kind]),
      h('dd', { class: 'permission-subject-item', 'data-kind': s.kind },
        h('code', { class: 'permission-subject-text', 'data-testid': 'permission-subject-text', 'data-kind': s.kind, dir: 'ltr', tabindex: '0' }, visibleText(s.text))),
    ]));
}

function permissionDialog(e: ToolCallView, ctx: RenderContext): HTMLElement | undefined {
  const p = e.permission;
  if (!p) {
    return e.permissionOutcome
      ? h('div', { class: 'permission-outcome', 'data-testid': 'permission-outcome' }, h('span', { class: 'codicon codicon-shield', 'aria-hidden': 'true' }), ` ${e.permissionOutcome}`)
      : undefined;
  }
  const id = `perm-${p.requestId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const options = p.options.map((o) => {
    const look = optionLooks[o.kind] ?? { appearance: 'secondary' as const, icon: 'question' };
    return button({
      label: o.name, appearance: look.appearance, icon: look.icon, testId: 'permission-option', className: `perm ${o.kind}`,
      attrs: { 'data-kind': o.kind, 'data-option-id': o.optionId },
      onClick: () => ctx.actions.respondPermission(p.requestId, o.optionId),
    });
  });
  const group = h('div', { class: 'permission-options', role: 'group', 'aria-label': 'Options' }, ...options);
  // arrow keys move between the options (Tab works too)
  group.addEventListener('keydown', (ev) => {
    const i = options.findIndex((o) => o === document.activeElement || o.contains(document.activeElement));
    if (i === -1) return;
    const next = ev.key === 'ArrowRight' || ev.key === 'ArrowDown' ? i + 1 : ev.key === 'ArrowLeft' || ev.key === 'ArrowUp' ? i - 1 : ev.key === 'Home' ? 0 : ev.key === 'End' ? options.length - 1 : undefined;
    if (next === undefined) return;
    ev.preventDefault();
    options[(next + options.length) % options.length].focus();
  });
  const subject = subjectNode(p.subject, id);
  const dialog = h('div', {
    class: 'permission', role: 'alertdialog', 'aria-modal': 'false', 'aria-labelledby': `${id}-title`,
    'aria-describedby': subject ? `${id}-desc ${id}-subject` : `${id}-desc`, 'data-testid': 'permission', 'data-request-id': p.requestId,
  },
  h('div', { class: 'permission-title', id: `${id}-title` }, h('span', { class: 'codicon codicon-shield', 'aria-hidden': 'true' }), p.fromClient ? ' Switchboard asks: no answer of yours covers this' : ' The agent asks for permission'),
  h('div', { class: 'permission-desc', id: `${id}-desc` }, titleNodes(e.title)),
  subject,
  group);
  guardActivation(dialog, p.requestId);
  return dialog;
}

/** The card of one tool call. */
export function toolCallNode(e: ToolCallView, ctx: RenderContext): HTMLElement {
  const card = h('div', { class: `entry tool status-${e.status}`, 'data-testid': 'tool-call', 'data-status': e.status, 'data-kind': e.toolKind, 'data-tool-call-id': e.toolCallId },
    h('div', { class: 'tool-head' },
      h('span', { class: `codicon codicon-${kindIcons[e.toolKind] ?? kindIcons.other} tool-icon`, role: 'img', 'aria-label': e.toolKind }),
      h('span', { class: 'tool-title', 'data-testid': 'tool-title' }, titleNodes(e.title)),
      e.toolName ? h('span', { class: 'tool-name', 'data-testid': 'tool-name', title: 'The tool the agent used' }, visibleText(e.toolName)) : undefined,
      statusNode(e),
      e.cancellable ? stopButton('Stop this tool call', 'tool-stop', () => ctx.actions.stopWork('toolCall', e.toolCallId)) : undefined));
  const raw = rawInputNode(e, ctx);
  if (raw) card.append(raw);
  e.content.forEach((c, index) => {
    if (c.type === 'content') card.append(c.cut ? cutTextNode(c.content, c.cut, () => ctx.actions.openToolOutput({ toolCallId: e.toolCallId, part: 'content', index })) : toolContentNode(c.content));
    else if (c.type === 'diff') card.append(diffNode(c, e.toolCallId, index, ctx));
    else card.append(terminalNode(c.terminalId, ctx.terminals(c.terminalId), ctx));
  });
  if (e.rawOutput) card.append(...rawOutputNodes(e.rawOutput, e.id, (part, label) => ctx.actions.openToolOutput({ toolCallId: e.toolCallId, part, ...(label ? { label } : {}) })));
  const locations = locationsNode(e, ctx);
  if (locations) card.append(locations);
  const dialog = permissionDialog(e, ctx);
  if (dialog) card.append(dialog);
  for (const v of e.elicitations ?? []) card.append(elicitationNode(v, ctx));
  return card;
}
