/**
 * The agent's plan: every entry with its status (pending, in progress, completed) and priority (high,
 * medium, low). Each plan update replaces the whole plan: the agent sends all of it every time, so the client must not merge
 * (https://agentclientprotocol.com/protocol/agent-plan).
 * Collapsible; the open/closed choice survives re-renders.
 */
import type { PlanEntryView } from '../../src/shared/viewModel';
import { h } from './dom';

const statusIcons: Record<string, string> = { pending: 'circle-large-outline', in_progress: 'arrow-right', completed: 'pass-filled' };
const statusLabels: Record<string, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed' };
let open = true;

/** The plan, or undefined when there is none. */
export function planNode(plan: readonly PlanEntryView[]): HTMLElement | undefined {
  if (!plan.length) return undefined;
  const done = plan.filter((p) => p.status === 'completed').length;
  const details = h('details', { class: 'plan', 'data-testid': 'plan' },
    h('summary', { class: 'plan-title' }, h('span', { class: 'codicon codicon-checklist', 'aria-hidden': 'true' }), ` Plan · ${done}/${plan.length} done`),
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
