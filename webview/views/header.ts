/**
 * The session header: the title (the user's, else the agent's `session_info_update`, else the first prompt;
 * click it, or press F2 anywhere in the chat, to rename the session), agent (its title, version and the session's
 * folders in the tooltip), the account chip (accountChip.ts), status, Fork Session (only when the agent can fork),
 * the approval level (a button: ACP: Set Approval Level… for this session), the Follow Agent toggle, the plans, the context usage meter and the last turn's tokens.
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/header.css';
import { untitledSession, type ThreadStateView } from '../../src/shared/viewModel';
import type { AgentAccountView } from '../../src/shared/accountModel';
import { AccountChip, type AccountActions } from './accountChip';
import { revealInvisible } from '../../src/shared/inertText';
import { agentTooltip } from '../lib/agentTooltip';
import { h } from './dom';
import { button } from '../components/button';
import { actionButton, type NoticeActions } from './notice';
import { planNode, planViewNode } from './plan';
import { usageNode } from './usage';
import { visibleText } from './visibleText';

const statusLabels: Record<string, string> = {
  starting: 'Starting…', idle: 'Ready', working: 'Working…', awaitingPermission: 'Waiting for your permission', disconnected: 'Disconnected', reconnecting: 'Reconnecting…', error: 'Error',
};

function withTitle(title: string | undefined): { title?: string } {
  return title ? { title } : {};
}

/** What the header's buttons do. */
export interface HeaderActions extends NoticeActions, AccountActions {
  toggleFollow(): void;
  renameSession(): void;
  forkSession(): void;
  setApprovals(): void;
}

/** Renders the header area. */
export class Header {
  /** Kept across renders so that they keep the keyboard focus when the state changes. */
  private readonly follow: HTMLButtonElement;
  private readonly title: HTMLElement;
  private readonly fork: HTMLElement;
  private readonly approvals: HTMLElement;
  /** Kept across renders too (its buttons keep the focus). */
  private readonly account: AccountChip;
  private accountView: AgentAccountView = {};
  private agentName = '';

  constructor(private readonly root: HTMLElement, private readonly actions: HeaderActions) {
    // a toggle button: a constant label, the state in aria-pressed (and in the pressed look)
    this.follow = h('button', { class: 'follow-toggle', type: 'button', 'data-testid': 'follow-toggle', 'aria-pressed': 'false' }, 'Follow');
    this.follow.addEventListener('click', () => actions.toggleFollow());
    // the title is a button: it keeps its text look, and renames (the host asks for the new title)
    this.title = h('span', { class: 'title', role: 'button', tabindex: '0', 'data-testid': 'session-title' });
    this.title.addEventListener('click', () => actions.renameSession());
    this.title.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      actions.renameSession();
    });
    this.fork = button({
      label: 'Fork Session', appearance: 'icon', icon: 'repo-forked', testId: 'fork-session', className: 'fork-session',
      title: 'Fork Session: a new chat that starts with this conversation so far (this one stays as it is)', onClick: () => actions.forkSession(),
    });
    this.approvals = button({ label: '', icon: 'shield', testId: 'approval-level', className: 'approval-level', onClick: () => actions.setApprovals() });
    // F2 renames, as in the Sessions view; nothing else in the chat uses it
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'F2' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      actions.renameSession();
    });
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
    const titleHadFocus = document.activeElement === this.title;
    const forkHadFocus = document.activeElement === this.fork;
    const approvalsHadFocus = document.activeElement === this.approvals;
    const accountFocus = this.account.focusedControl();
    this.agentName = state.agentName;
    this.account.render(this.accountView.auth, state.agentName);
    this.follow.setAttribute('aria-pressed', String(state.following));
    this.follow.title = state.following
      ? 'Follow Agent is on: the files the agent works on open beside the chat. Click to stop following.'
      : 'Follow Agent: open the files the agent works on beside the chat as it goes.';
    const a = state.approvals;
    if (a) {
      this.approvals.title = a.title;
      this.approvals.firstElementChild!.className = `codicon codicon-${a.icon}`;
      this.approvals.lastChild!.textContent = a.label;
    }
    const title = state.title || state.untitledTitle || untitledSession;
    document.title = revealInvisible(title);
    // an earlier message's Edit & Resend says where it goes on (messageActions.ts): a fork, or a new session
    document.documentElement.toggleAttribute('data-can-fork', state.canFork === true);
    this.title.title = `${revealInvisible(title)}\nClick or press F2 to rename this session`;
    this.title.setAttribute('aria-label', `Session title: ${revealInvisible(title)}. Rename Session`);
    this.title.replaceChildren(visibleText(title));
    const children: Node[] = [
      h('div', { class: 'title-row' },
        this.title,
        h('span', { class: 'agent', 'data-testid': 'session-agent', ...withTitle(agentTooltip(state)) }, state.agentName),
        this.account.element,
        h('span', { class: `status ${state.status}`, 'data-testid': 'session-status', 'data-status': state.status, role: 'status' }, statusLabels[state.status] ?? state.status),
        ...(state.canFork ? [this.fork] : []),
        ...(a ? [this.approvals] : []),
        this.follow),
    ];
    if (state.error) {
      // reconnecting is not a failure: a warning, announced politely (src/host/lifecycle/reconnect.ts)
      const reconnecting = state.status === 'reconnecting';
      const banner = h('div', { class: `error-banner${reconnecting ? ' warning' : ''}`, role: reconnecting ? 'status' : 'alert', 'data-testid': 'session-error' }, h('span', { class: 'error-text' }, state.error));
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
    if (titleHadFocus) this.title.focus();
    if (forkHadFocus && state.canFork) this.fork.focus();
    if (approvalsHadFocus) this.approvals.focus();
    this.account.restoreFocus(accountFocus);
  }
}
