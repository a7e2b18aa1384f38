/**
 * The session header: the title (from `session_info_update`), agent (its title, version and the session's folders
 * in the tooltip), the account chip (accountChip.ts), status, the Follow Agent toggle, the plan, the context usage
 * meter and the last turn's tokens.
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/header.css';
import { untitledSession, type ThreadStateView } from '../../src/shared/viewModel';
import type { AgentAccountView } from '../../src/shared/accountModel';
import { AccountChip, type AccountActions } from './accountChip';
import { revealInvisible } from '../../src/shared/inertText';
import { agentTooltip } from '../lib/agentTooltip';
import { h } from './dom';
import { actionButton, type NoticeActions } from './notice';
import { planNode, planViewNode } from './plan';
import { usageNode } from './usage';
import { visibleText } from './visibleText';

const statusLabels: Record<string, string> = {
  starting: 'Starting…', idle: 'Ready', working: 'Working…', awaitingPermission: 'Waiting for your permission', disconnected: 'Disconnected', error: 'Error',
};

function withTitle(title: string | undefined): { title?: string } {
  return title ? { title } : {};
}

/** What the header's buttons do. */
export interface HeaderActions extends NoticeActions, AccountActions {
  toggleFollow(): void;
}

/** Renders the header area. */
export class Header {
  /** Kept across renders so that it keeps the keyboard focus when the state changes. */
  private readonly follow: HTMLButtonElement;
  /** Kept across renders too (its buttons keep the focus). */
  private readonly account: AccountChip;
  private accountView: AgentAccountView = {};
  private agentName = '';

  constructor(private readonly root: HTMLElement, private readonly actions: HeaderActions) {
    // a toggle button: a constant label, the state in aria-pressed (and in the pressed look)
    this.follow = h('button', { class: 'follow-toggle', type: 'button', 'data-testid': 'follow-toggle', 'aria-pressed': 'false' }, 'Follow');
    this.follow.addEventListener('click', () => actions.toggleFollow());
    this.account = new AccountChip(actions);
  }

  /** The agent's sign-in state (the account chip; nothing for an agent without `auth.status`). */
  renderAccount(view: AgentAccountView): void {
    this.accountView = view;
    this.account.render(view.auth, this.agentName);
  }

  render(state: ThreadStateView | undefined): void {
    if (!state) return;
    const hadFocus = document.activeElement === this.follow;
    const accountFocus = this.account.focusedControl();
    this.agentName = state.agentName;
    this.account.render(this.accountView.auth, state.agentName);
    this.follow.setAttribute('aria-pressed', String(state.following));
    this.follow.title = state.following
      ? 'Follow Agent is on: the files the agent works on open beside the chat. Click to stop following.'
      : 'Follow Agent: open the files the agent works on beside the chat as it goes.';
    const title = state.title || untitledSession;
    document.title = revealInvisible(title);
    const children: Node[] = [
      h('div', { class: 'title-row' },
        h('span', { class: 'title', 'data-testid': 'session-title', title: revealInvisible(title) }, visibleText(title)),
        h('span', { class: 'agent', 'data-testid': 'session-agent', ...withTitle(agentTooltip(state)) }, state.agentName),
        this.account.element,
        h('span', { class: `status ${state.status}`, 'data-testid': 'session-status', 'data-status': state.status, role: 'status' }, statusLabels[state.status] ?? state.status),
        this.follow),
    ];
    if (state.error) {
      const banner = h('div', { class: 'error-banner', role: 'alert', 'data-testid': 'session-error' }, h('span', { class: 'error-text' }, state.error));
      if (state.errorAction) banner.append(actionButton(state.errorAction, this.actions));
      children.push(banner);
    }
    const plan = planNode(state.plan);
    if (plan) children.push(plan);
    for (const p of state.plans ?? []) {
      const node = planViewNode(p);
      if (node) children.push(node);
    }
    const usage = usageNode(state.usage, state.turnUsage);
    if (usage) children.push(usage);
    // the plan that had the focus keeps it (by its key; a file plan by its link)
    const focusedPlan = document.activeElement?.closest<HTMLElement>('.plan');
    const planKey = focusedPlan?.getAttribute('data-plan-key') ?? focusedPlan?.getAttribute('data-plan-id');
    this.root.replaceChildren(...children);
    if (focusedPlan && planKey) {
      const again = [...this.root.querySelectorAll<HTMLElement>('.plan')].find((n) => (n.getAttribute('data-plan-key') ?? n.getAttribute('data-plan-id')) === planKey);
      again?.querySelector<HTMLElement>('summary, [data-href]')?.focus();
    }
    if (hadFocus) this.follow.focus();
    this.account.restoreFocus(accountFocus);
  }
}
