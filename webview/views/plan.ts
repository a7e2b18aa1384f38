/**
 * The agent's plan: every entry with its status (pending, in progress, completed, or cancelled when the turn
 * ended before the step did) and priority. Each plan update replaces the whole plan: the agent sends all of
 * it every time, so the client must not merge (https://agentclientprotocol.com/protocol/agent-plan).
 *
 * Compact: one line (the progress, a bar, and the step in progress) that expands to the list. It starts
 * collapsed and collapses again when the plan is done or cancelled; the user's open/closed choice survives
 * re-renders while the plan runs.
 */
import type { PlanEntryView } from '../../src/shared/viewModel';
import { h } from './dom';

const statusIcons: Record<string, string> = {
  pending: 'circle-large-outline', in_progress: 'arrow-right', completed: 'pass-filled', cancelled: 'circle-slash',
};
const statusLabels: Record<string, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed', cancelled: 'Cancelled' };
let open = false;
let wasFinished = false;

/** The plan, or undefined when there is none. */
export function planNode(plan: readonly PlanEntryView[]): HTMLElement | undefined {
  if (!plan.length) return undefined;
  const done = plan.filter((p) => p.status === 'completed').length;
  const cancelled = plan.some((p) => p.status === 'cancelled');
  const finished = done === plan.length || cancelled;
  if (finished && !wasFinished) open = false; // done: back to one line
  wasFinished = finished;
  const current = plan.find((p) => p.status === 'in_progress') ?? plan.find((p) => p.status === 'pending');
  const progress = cancelled ? `${done}/${plan.length} done, cancelled` : `${done}/${plan.length} done`;
  const fill = h('span', { class: 'plan-bar-fill' });
  fill.style.width = `${Math.round((done / plan.length) * 100)}%`; // CSSOM, not a style attribute: the CSP allows it
  const bar = h('span', { class: 'plan-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(plan.length), 'aria-valuenow': String(done), 'aria-label': 'Plan progress' }, fill);
  const details = h('details', { class: `plan${cancelled ? ' cancelled' : ''}`, 'data-testid': 'plan', 'data-finished': String(finished) },
    h('summary', { class: 'plan-title', 'data-testid': 'plan-summary' },
      h('span', { class: 'codicon codicon-checklist', 'aria-hidden': 'true' }),
      h('span', { class: 'plan-progress' }, ` Plan · ${progress}`),
      bar,
      ...(current && !finished ? [h('span', { class: 'plan-current', 'data-testid': 'plan-current', title: current.content }, current.content)] : [])),
    h('ol', { class: 'plan-entries' }, ...plan.map((p) => h('li', {
      class: `plan-entry ${p.status} priority-${p.priority}`, 'data-testid': 'plan-entry', 'data-status': p.status, 'data-priority': p.priority,
    },
    h('span', { class: `codicon codicon-${statusIcons[p.status] ?? 'circle-large-outline'} plan-status`, role: 'img', 'aria-label': statusLabels[p.status] ?? p.status }),
    h('span', { class: 'plan-content' }, p.content),
    h('span', { class: `plan-priority ${p.priority}`, title: `Priority: ${p.priority}` }, p.priority)))));
  details.open = open;
  details.addEventListener('toggle', () => { open = details.open; });
  return details;
}
