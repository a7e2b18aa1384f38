/**
 * The session header: the title (from `session_info_update`), agent, the account chip (accountChip.ts), status,
 * the Follow Agent toggle, the plan and the context usage meter.
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/header.css';
import { untitledSession, type ThreadStateView } from '../../src/shared/viewModel';
import type { AgentAccountView } from '../../src/shared/accountModel';
import { AccountChip, type AccountActions } from './accountChip';
import { revealInvisible } from '../../src/shared/inertText';
import { h } from './dom';
import { actionButton, type NoticeActions } from './notice';
import { planNode } from './plan';
import { usageNode } from './usage';
import { visibleText } from './visibleText';

const statusLabels: Record<string, string> = {
  starting: 'Starting…', idle: 'Ready', working: 'Working…', awaitingPermission: 'Waiting for your permission', disconnected: 'Disconnected', error: 'Error',
};

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
        h('span', { class: 'agent', 'data-testid': 'session-agent', ...(state.roots?.length ? { title: `Folders of this session:\n${state.roots.join('\n')}` } : {}) }, state.agentName),
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
    const usage = usageNode(state.usage);
    if (usage) children.push(usage);
    const planHadFocus = Boolean(document.activeElement?.closest('.plan'));
    this.root.replaceChildren(...children);
    if (planHadFocus) this.root.querySelector<HTMLElement>('.plan summary')?.focus();
    if (hadFocus) this.follow.focus();
    this.account.restoreFocus(accountFocus);
  }
}
