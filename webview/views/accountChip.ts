/**
 * The account chip in the chat's header (docs/acp-features.md#accounts-and-model-providers), shown only for an agent
 * that advertises `auth.status`: the sign-in state in a few words (the active account's name when signed in), the
 * accounts in its tooltip, Log In when not signed in (the agent offers login methods) and a Log Out icon button
 * when signed in (the agent advertises `auth.logout`). Account names and labels come from the agent: text only.
 */
import '../styles/account.css';
import { authSummary, authTooltip, type AuthStatusView } from '../../src/shared/accountModel';
import { button } from '../components/button';
import { h } from './dom';

/** What the chip's buttons do. */
export interface AccountActions {
  logIn(): void;
  logOut(): void;
}

const icons: Record<AuthStatusView['state'], string> = {
  authenticated: 'account', unauthenticated: 'warning', not_required: 'pass', unknown: 'question',
};

/** The chip; its element stays the same across renders (the header moves it into each new title row). */
export class AccountChip {
  readonly element: HTMLElement;
  private key = '';

  constructor(private readonly actions: AccountActions) {
    this.element = h('span', { class: 'account', 'data-testid': 'account' });
    this.element.hidden = true;
  }

  /** Renders the state of `auth` (absent: the agent has no `auth.status`, nothing is shown). */
  render(auth: AuthStatusView | undefined, agentName: string): void {
    const key = JSON.stringify([auth ?? null, agentName]);
    if (key === this.key) return;
    this.key = key;
    const focused = this.focusedControl();
    this.element.hidden = !auth;
    if (!auth) return void this.element.replaceChildren();
    const tooltip = authTooltip(auth, agentName);
    const chip = h('span', { class: `account-chip ${auth.state}`, 'data-testid': 'account-chip', 'data-state': auth.state, tabindex: '0', title: tooltip, 'aria-label': tooltip },
      h('span', { class: `codicon codicon-${icons[auth.state]}`, 'aria-hidden': 'true' }),
      h('span', { class: 'account-label' }, authSummary(auth)));
    const parts: HTMLElement[] = [chip];
    if (auth.state === 'unauthenticated' && auth.canLogIn) {
      parts.push(button({ label: 'Log In', appearance: 'primary', icon: 'sign-in', title: `Log in to ${agentName}`, testId: 'account-login', className: 'account-action', onClick: () => this.actions.logIn() }));
    }
    if (auth.state === 'authenticated' && auth.canLogOut) {
      parts.push(button({ label: `Log out of ${agentName}`, appearance: 'icon', icon: 'sign-out', title: `Log out of ${agentName}`, testId: 'account-logout', className: 'account-action', onClick: () => this.actions.logOut() }));
    }
    this.element.replaceChildren(...parts);
    this.restoreFocus(focused);
  }

  /** The test id of the control inside the chip that has the focus, if any. */
  focusedControl(): string | undefined {
    const active = document.activeElement;
    return active && this.element.contains(active) ? (active as HTMLElement).dataset.testid : undefined;
  }

  /** Gives the focus back to a control after the chip was rendered or moved (or to the chip, when the control is gone). */
  restoreFocus(testId: string | undefined): void {
    if (!testId) return;
    (this.element.querySelector<HTMLElement>(`[data-testid="${testId}"]`) ?? this.element.querySelector<HTMLElement>('[data-testid="account-chip"]'))?.focus();
  }
}
