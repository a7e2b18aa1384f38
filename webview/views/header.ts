/** The session header: title, agent, status, the Follow Agent toggle and the plan. */
import type { ThreadStateView } from '../../src/shared/viewModel';
import { h } from './dom';

const statusLabels: Record<string, string> = {
  starting: 'Starting…', idle: 'Ready', working: 'Working…', awaitingPermission: 'Waiting for your permission', disconnected: 'Disconnected', error: 'Error',
};

/** What the header's buttons do. */
export interface HeaderActions {
  toggleFollow(): void;
}

/** Renders the header area. */
export class Header {
  /** Kept across renders so that it keeps the keyboard focus when the state changes. */
  private readonly follow: HTMLButtonElement;

  constructor(private readonly root: HTMLElement, actions: HeaderActions) {
    // a toggle button: a constant label, the state in aria-pressed (and in the pressed look)
    this.follow = h('button', { class: 'follow-toggle', type: 'button', 'data-testid': 'follow-toggle', 'aria-pressed': 'false' }, 'Follow');
    this.follow.addEventListener('click', () => actions.toggleFollow());
  }

  render(state: ThreadStateView | undefined): void {
    if (!state) return;
    const hadFocus = document.activeElement === this.follow;
    this.follow.setAttribute('aria-pressed', String(state.following));
    this.follow.title = state.following
      ? 'Follow Agent is on: the files the agent works on open beside the chat. Click to stop following.'
      : 'Follow Agent: open the files the agent works on beside the chat as it goes.';
    const title = state.title || 'New session';
    document.title = title;
    const children: Node[] = [
      h('div', { class: 'title-row' },
        h('span', { class: 'title', 'data-testid': 'session-title' }, title),
        h('span', { class: 'agent' }, state.agentName),
        h('span', { class: `status ${state.status}`, 'data-testid': 'session-status', 'data-status': state.status, role: 'status' }, statusLabels[state.status] ?? state.status),
        this.follow),
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
    if (hadFocus) this.follow.focus();
  }
}
