/**
 * The agent's plans. The legacy plan: every entry with its status (pending, in progress, completed, or cancelled
 * when the turn ended before the step did) and priority; each update replaces the whole plan
 * (https://agentclientprotocol.com/protocol/agent-plan). Plans by id (`plan_update`,
 * https://agentclientprotocol.com/rfds/plan-operations) are each shown the same way by their format: steps like the
 * legacy plan, Markdown (rendered sanitized, expandable), or a file (a link that opens it in the editor through the
 * host's link handler). Several plans are shown one under the other, each on its own line, oldest first: every
 * plan's progress stays in view, which a switcher would hide (docs/acp-features.md "Plans and subagents").
 *
 * Compact: one line (the progress, a bar, and the step in progress) that expands to the list. It starts
 * collapsed and collapses again when the plan is done or cancelled; the user's open/closed choice survives
 * re-renders while the plan runs (per plan, by `key`).
 */
import type { PlanEntryView, PlanView } from '../../src/shared/viewModel';
import { h } from './dom';
import { renderMarkdown } from './markdown';

const statusIcons: Record<string, string> = {
  pending: 'circle-large-outline', in_progress: 'arrow-right', completed: 'pass-filled', cancelled: 'circle-slash',
};
const statusLabels: Record<string, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed', cancelled: 'Cancelled' };
/** Per plan (by key): whether the user opened it, and whether it was finished at the last render. */
const plansOpen = new Map<string, { open: boolean; wasFinished: boolean }>();

/** The legacy plan, or undefined when there is none. */
export function planNode(plan: readonly PlanEntryView[], key = 'plan'): HTMLElement | undefined {
  return plan.length ? stepsNode(plan, key) : undefined;
}

/** A plan by id in its format; `scope` tells apart plans of different sessions (a subagent's card). */
export function planViewNode(plan: PlanView, scope = ''): HTMLElement | undefined {
  const key = `${scope}#${plan.planId}`;
  const node = plan.type === 'items' ? stepsNode(plan.entries, key)
    : plan.type === 'markdown' ? markdownNode(plan.content, key)
    : fileNode(plan.uri);
  node?.setAttribute('data-plan-id', plan.planId);
  node?.setAttribute('data-plan-type', plan.type);
  return node;
}

/** A disclosure line that remembers the user's choice under `key`; `finished` collapses it once. */
function disclosure(key: string, finished: boolean, attrs: Record<string, string>, summary: Node[], body: Node): HTMLDetailsElement {
  const memo = plansOpen.get(key) ?? { open: false, wasFinished: false };
  if (finished && !memo.wasFinished) memo.open = false; // done: back to one line
  memo.wasFinished = finished;
  plansOpen.set(key, memo);
  const details = h('details', { ...attrs, 'data-plan-key': key }, h('summary', { class: 'plan-title', 'data-testid': 'plan-summary' }, ...summary), body);
  details.open = memo.open;
  details.addEventListener('toggle', () => { memo.open = details.open; });
  return details;
}

function stepsNode(plan: readonly PlanEntryView[], key: string): HTMLElement | undefined {
  if (!plan.length) return undefined;
  const done = plan.filter((p) => p.status === 'completed').length;
  const cancelled = plan.some((p) => p.status === 'cancelled');
  const finished = done === plan.length || cancelled;
  const current = plan.find((p) => p.status === 'in_progress') ?? plan.find((p) => p.status === 'pending');
  const progress = cancelled ? `${done}/${plan.length} done, cancelled` : `${done}/${plan.length} done`;
  const fill = h('span', { class: 'plan-bar-fill' });
  fill.style.width = `${Math.round((done / plan.length) * 100)}%`; // CSSOM, not a style attribute: the CSP allows it
  const bar = h('span', { class: 'plan-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(plan.length), 'aria-valuenow': String(done), 'aria-label': 'Plan progress' }, fill);
  return disclosure(key, finished, { class: `plan${cancelled ? ' cancelled' : ''}`, 'data-testid': 'plan', 'data-finished': String(finished) }, [
    h('span', { class: 'codicon codicon-checklist', 'aria-hidden': 'true' }),
    h('span', { class: 'plan-progress' }, ` Plan · ${progress}`),
    bar,
    ...(current && !finished ? [h('span', { class: 'plan-current', 'data-testid': 'plan-current', title: current.content }, current.content)] : []),
  ], h('ol', { class: 'plan-entries' }, ...plan.map((p) => h('li', {
    class: `plan-entry ${p.status} priority-${p.priority}`, 'data-testid': 'plan-entry', 'data-status': p.status, 'data-priority': p.priority,
  },
  h('span', { class: `codicon codicon-${statusIcons[p.status] ?? 'circle-large-outline'} plan-status`, role: 'img', 'aria-label': statusLabels[p.status] ?? p.status }),
  h('span', { class: 'plan-content' }, p.content),
  h('span', { class: `plan-priority ${p.priority}`, title: `Priority: ${p.priority}` }, p.priority)))));
}

/** The first line of Markdown with its heading or list marks taken off, for the plan's one line. */
function firstLine(markdown: string): string {
  const line = markdown.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  return line.replace(/^(#{1,6}\s+|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+|>\s*)/, '').slice(0, 200);
}

/** The rendered body of each Markdown plan (by key): the header is drawn again on every state change, the plan only when it changed. */
const markdownBodies = new Map<string, { readonly content: string; readonly body: HTMLElement }>();

function markdownNode(content: string, key: string): HTMLElement {
  const line = firstLine(content);
  let cached = markdownBodies.get(key);
  if (cached?.content !== content) {
    cached = { content, body: h('div', { class: 'plan-markdown-body markdown', 'data-testid': 'plan-markdown' }, renderMarkdown(content)) };
    markdownBodies.set(key, cached);
  }
  return disclosure(key, false, { class: 'plan plan-markdown', 'data-testid': 'plan' }, [
    h('span', { class: 'codicon codicon-note', 'aria-hidden': 'true' }),
    h('span', { class: 'plan-progress' }, ' Plan'),
    ...(line ? [h('span', { class: 'plan-current', title: line }, line)] : []),
  ], cached.body);
}

/** A plan kept in a file: its name as a link; the host resolves and checks the path before it opens anything. */
function fileNode(uri: string): HTMLElement {
  const name = decodeName(uri.split(/[\\/]/).filter(Boolean).pop() ?? uri);
  return h('div', { class: 'plan plan-file', 'data-testid': 'plan' },
    h('span', { class: 'codicon codicon-file', 'aria-hidden': 'true' }),
    h('span', { class: 'plan-progress' }, ' Plan · '),
    // `.markdown [data-href]`: opened through the same link handler as links in agent Markdown (markdown.ts)
    h('span', { class: 'markdown' }, h('span', { class: 'md-link', 'data-href': uri, role: 'link', tabindex: '0', title: uri, 'data-testid': 'plan-file-link' }, name)));
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
