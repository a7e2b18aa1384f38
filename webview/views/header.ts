/** The session header: title, agent, status and the plan. */
import type { ThreadStateView } from '../../src/shared/viewModel';
import { h } from './dom';

const statusLabels: Record<string, string> = {
  starting: 'Starting…', idle: 'Ready', working: 'Working…', awaitingPermission: 'Waiting for your permission', disconnected: 'Disconnected', error: 'Error',
};

/** Renders the header area. */
export class Header {
  constructor(private readonly root: HTMLElement) {}

  render(state: ThreadStateView | undefined): void {
    if (!state) return;
    const title = state.title || 'New session';
    document.title = title;
    const children: Node[] = [
      h('div', { class: 'title-row' },
        h('span', { class: 'title', 'data-testid': 'session-title' }, title),
        h('span', { class: 'agent' }, state.agentName),
        h('span', { class: `status ${state.status}`, 'data-testid': 'session-status', 'data-status': state.status, role: 'status' }, statusLabels[state.status] ?? state.status)),
    ];
    if (state.error) children.push(h('div', { class: 'error-banner', role: 'alert', 'data-testid': 'session-error' }, state.error));
    if (state.plan.length) {
      children.push(h('div', { class: 'plan', 'data-testid': 'plan' }, h('div', { class: 'plan-title' }, 'Plan'),
        ...state.plan.map((p) => h('div', { class: `plan-entry ${p.status}` }, `${p.status === 'completed' ? '✓' : p.status === 'in_progress' ? '▸' : '○'} ${p.content}`))));
    }
    if (state.usage) {
      const pct = state.usage.size > 0 ? Math.round((state.usage.used / state.usage.size) * 100) : 0;
      const cost = state.usage.cost ? ` · ${state.usage.cost.amount.toFixed(2)} ${state.usage.cost.currency}` : '';
      children.push(h('div', { class: 'usage', 'data-testid': 'usage' }, `Context ${state.usage.used.toLocaleString()} / ${state.usage.size.toLocaleString()} tokens (${pct}%)${cost}`));
    }
    this.root.replaceChildren(...children);
  }
}
