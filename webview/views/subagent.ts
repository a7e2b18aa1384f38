/**
 * A subagent's card (src/thread/model/subagents.ts): one disclosure line with its title (the parent's name for it, plain
 * text), its description and its status (a spinner while it runs, then done, failed or cancelled), and, expandable,
 * its own transcript: messages, thoughts, tool calls, plans and nested subagents, rendered by the same components as
 * the session's, indented. Open while it works, collapsed once it finished unless the user opened or closed it
 * (like a compaction, webview/views/compaction.ts). A Cancel button when the agent permits cancelling it.
 *
 * Updated in place: the store copies a card along the path of a change only (webview/lib/nestedEntries.ts), so the
 * entries that kept their identity are not touched, a streaming message grows by its new text, and a focused line
 * keeps the focus.
 */
import '../styles/subagents.css';
import type { EntryView, SubagentStatusView, SubagentView } from '../../src/shared/viewModel';
import { button } from '../components/button';
import { progressRing } from '../components/progressRing';
import { updateCompactionNode } from './compaction';
import { h } from './dom';
import { collapseThought, commitText, isTextNode, needsRender, renderText, updateAgentText } from './messages';
import { dialogSelector } from './permissionFocus';
import { planViewNode } from './plan';
import type { RenderContext } from './renderContext';
import { visibleText } from './visibleText';

/** Renders one entry of a card (entries.ts: the transcript's renderers, without the message toolbars). */
export type NestedRenderer = (e: EntryView, ctx: RenderContext) => HTMLElement;

const statusLabels: Record<SubagentStatusView, string> = {
  running: 'Running…', waiting: 'Waiting for you', done: 'Done', failed: 'Failed', cancelled: 'Cancelled', unknown: 'Status unknown',
};
const statusIcons: Record<SubagentStatusView, string> = {
  running: '', waiting: 'bell', done: 'check', failed: 'error', cancelled: 'circle-slash', unknown: 'question',
};
const finished = (s: SubagentStatusView): boolean => s === 'done' || s === 'failed' || s === 'cancelled';

/** The user's open/closed choice per card (by entry id), kept across re-renders. */
const userOpen = new Map<string, boolean>();

interface Parts {
  readonly id: string;
  readonly details: HTMLDetailsElement;
  readonly title: HTMLElement;
  readonly state: HTMLElement;
  readonly description: HTMLElement;
  readonly detail: HTMLElement;
  readonly plans: HTMLElement;
  readonly list: HTMLElement;
  readonly cancel: HTMLElement;
  /** The context the card's entries are rendered with (their card actions name this subagent). */
  readonly ctx: RenderContext;
  readonly render: NestedRenderer;
  /** What is rendered now (to skip what did not change). */
  shown?: SubagentView;
  readonly nodes: HTMLElement[];
  readonly entries: EntryView[];
}
const parts = new WeakMap<HTMLElement, Parts>();

/** The node of a subagent's card. */
export function subagentNode(e: SubagentView, ctx: RenderContext, render: NestedRenderer): HTMLElement {
  const title = h('span', { class: 'subagent-title', 'data-testid': 'subagent-title' });
  const state = h('span', { class: 'subagent-state', 'data-testid': 'subagent-status' });
  const description = h('span', { class: 'subagent-description', 'data-testid': 'subagent-description' });
  const summary = h('summary', { class: 'subagent-line', 'data-testid': 'subagent-toggle' },
    h('span', { class: 'subagent-heading' }, h('span', { class: 'codicon codicon-hubot subagent-icon', 'aria-hidden': 'true' }), title, state),
    description);
  const detail = h('div', { class: 'subagent-detail', 'data-testid': 'subagent-detail' });
  const plans = h('div', { class: 'subagent-plans' });
  const list = h('div', { class: 'subagent-entries', role: 'list', 'data-testid': 'subagent-entries' });
  const details = h('details', { class: 'subagent-details' }, summary, h('div', { class: 'subagent-body' }, detail, plans, list));
  const cancel = button({
    label: 'Cancel subagent', appearance: 'icon', icon: 'stop-circle', title: 'Cancel this subagent\'s work', testId: 'subagent-cancel',
    className: 'subagent-cancel', onClick: () => ctx.actions.cancelSubagent(e.sessionId),
  });
  const node = h('div', { class: 'entry subagent', 'data-testid': 'subagent', 'data-session-id': e.sessionId }, details, cancel);
  // a click (or Enter / Space) on the line is the user's choice: it is no longer opened or closed for them
  summary.addEventListener('click', () => userOpen.set(e.id, !details.open));
  // the card's tool calls open their diffs and files in this subagent's session, not the parent's
  const actions = { ...ctx.actions, openDiff: (t: string, i: number) => ctx.actions.openDiff(t, i, e.sessionId), openLocation: (t: string, i: number) => ctx.actions.openLocation(t, i, e.sessionId),
    openToolOutput: (p: Parameters<typeof ctx.actions.openToolOutput>[0]) => ctx.actions.openToolOutput(p, e.sessionId) };
  parts.set(node, { id: e.id, details, title, state, description, detail, plans, list, cancel, ctx: { ...ctx, actions }, render, nodes: [], entries: [] });
  updateSubagentNode(node, e);
  return node;
}

/** What the live region says when a subagent's work ended ('' while it works). */
export function subagentEnded(e: SubagentView): string {
  return finished(e.status) ? `Subagent ${e.title ?? ''}: ${statusLabels[e.status]}${e.detail ? `. ${e.detail}` : ''}` : '';
}

/** Updates a card's node in place; false when `node` is not this card's. */
export function updateSubagentNode(node: HTMLElement, e: SubagentView): boolean {
  const p = parts.get(node);
  if (!p || p.id !== e.id) return false;
  const was = p.shown;
  node.setAttribute('data-status', e.status);
  if (was?.title !== e.title || !was) p.title.replaceChildren(e.title ? visibleText(e.title) : 'Subagent');
  if (was?.status !== e.status) {
    const icon = e.status === 'running' ? progressRing('Running') : h('span', { class: `codicon codicon-${statusIcons[e.status]} subagent-status-icon`, 'aria-hidden': 'true' });
    p.state.replaceChildren(icon, h('span', {}, statusLabels[e.status]));
  }
  if (was?.description !== e.description || !was) p.description.replaceChildren(...(e.description ? [visibleText(e.description)] : []));
  p.description.hidden = !e.description;
  p.detail.replaceChildren(...(e.detail ? [e.detail] : []));
  p.detail.hidden = !e.detail;
  p.cancel.hidden = !e.canCancel;
  if (was?.plans !== e.plans) p.plans.replaceChildren(...(e.plans ?? []).map((x) => planViewNode(x, e.id)).filter((x): x is HTMLElement => x !== undefined));
  if (was?.entries !== e.entries) syncEntries(p, e.entries);
  // a request waiting for the user inside is never hidden in a collapsed card
  p.details.open = p.list.querySelector(dialogSelector) !== null || (userOpen.get(e.id) ?? !finished(e.status));
  p.shown = e;
  return true;
}

/** Renders the entries that changed (by identity), in place where their node can take it. */
function syncEntries(p: Parts, entries: readonly EntryView[]): void {
  entries.forEach((entry, i) => {
    if (p.entries[i] === entry) return;
    const old = p.nodes[i];
    let node = old && updateInPlace(old, entry) ? old : undefined;
    if (!node) {
      node = p.render(entry, p.ctx);
      node.removeAttribute('tabindex'); // the card is the transcript's item; its entries are not stops of their own
      if (old) old.replaceWith(node);
      else p.list.append(node);
    }
    // a card's messages are rendered at once (the transcript's scheduler slices only its own)
    if (isTextNode(node) && needsRender(node)) {
      renderText(node);
      commitText(node);
    }
    p.nodes[i] = node;
    p.entries[i] = entry;
  });
  // a thought collapses once the subagent's answer after it started, as in the transcript
  const lastAnswer = entries.map((x) => x.kind).lastIndexOf('agent');
  entries.forEach((x, i) => { if (x.kind === 'thought' && i < lastAnswer && p.nodes[i]) collapseThought(p.nodes[i]); });
}

function updateInPlace(node: HTMLElement, e: EntryView): boolean {
  if (e.kind === 'agent' || e.kind === 'thought') return updateAgentText(node, e);
  if (e.kind === 'compaction') return updateCompactionNode(node, e);
  if (e.kind === 'subagent') return updateSubagentNode(node, e);
  return false;
}
