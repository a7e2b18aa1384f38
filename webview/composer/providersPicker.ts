/**
 * The Model Provider picker in the composer's settings popover (docs/acp-features.md#accounts-and-model-providers),
 * shown only for an agent that advertises `providers`: each provider with its current routing (protocol and base
 * URL, or Disabled) and the protocols it supports; Set… asks the host to run its input flow, Disable is offered
 * for a provider that is set and not `required`. Provider ids, protocols and URLs come from the agent: text only.
 */
import '../styles/account.css';
import { protocolLabel, type ProviderView, type ProvidersView } from '../../src/shared/accountModel';
import { button } from '../components/button';
import { h } from '../views/dom';

/** What the picker asks the host to do. */
export interface ProviderActions {
  setProvider(providerId: string): void;
  disableProvider(providerId: string): void;
}

/** The picker; its element stays the same across renders. */
export class ProvidersPicker {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private key = '';

  constructor(private readonly actions: ProviderActions) {
    this.list = h('ul', { class: 'providers-list', 'data-testid': 'providers-list' });
    this.status = h('div', { class: 'providers-status', role: 'status', 'data-testid': 'providers-status' });
    this.error = h('div', { class: 'providers-error', role: 'alert', 'data-testid': 'providers-error' });
    this.element = h('section', { class: 'providers', 'data-testid': 'providers', 'aria-labelledby': 'providers-title' },
      h('div', { class: 'providers-title', id: 'providers-title' }, 'Model Provider'), this.list, this.status, this.error);
  }

  /** Renders the providers; returns whether there is anything to show (the agent advertises `providers`). */
  render(view: ProvidersView | undefined): boolean {
    if (!view) return false;
    const key = JSON.stringify(view);
    if (key === this.key) return true;
    this.key = key;
    const active = document.activeElement as HTMLElement | null;
    const focused = active && this.element.contains(active) ? { id: active.closest<HTMLElement>('[data-provider-id]')?.dataset.providerId, testId: active.dataset.testid } : undefined;
    const busy = view.busy ?? false;
    this.list.replaceChildren(...view.providers.map((p) => this.row(p, busy)));
    this.status.textContent = busy ? (view.providers.length ? 'Sending…' : 'Loading the providers…') : view.providers.length ? '' : 'The agent lists no providers.';
    this.status.hidden = !this.status.textContent;
    this.error.textContent = view.error ?? '';
    this.error.hidden = !view.error;
    if (focused?.id && focused.testId) {
      const row = [...this.list.querySelectorAll<HTMLElement>('[data-provider-id]')].find((r) => r.dataset.providerId === focused.id);
      (row?.querySelector<HTMLElement>(`[data-testid="${focused.testId}"]`) ?? row?.querySelector<HTMLElement>('[data-testid="provider-set"]'))?.focus();
    }
    return true;
  }

  private row(p: ProviderView, busy: boolean): HTMLElement {
    const current = p.current ? `${protocolLabel(p.current.apiType)} · ${p.current.baseUrl}` : 'Disabled';
    const supported = p.supported.length ? `Supports: ${p.supported.map(protocolLabel).join(', ')}${p.required ? ' · required' : ''}` : p.required ? 'Required' : '';
    const text = h('div', { class: 'provider-text' },
      h('span', { class: 'provider-id' }, p.providerId),
      h('span', { class: 'provider-current', 'data-testid': 'provider-current' }, current),
      supported ? h('span', { class: 'provider-supported' }, supported) : undefined);
    const controls: HTMLElement[] = [button({
      label: 'Set…', title: `Set the endpoint of ${p.providerId}: protocol, base URL and API key`, testId: 'provider-set', disabled: busy,
      onClick: () => this.actions.setProvider(p.providerId),
    })];
    if (p.current && !p.required) {
      controls.push(button({
        label: 'Disable', title: `Disable ${p.providerId} (the agent goes back to not using it)`, testId: 'provider-disable', disabled: busy,
        onClick: () => this.actions.disableProvider(p.providerId),
      }));
    }
    return h('li', { class: `provider${p.current ? '' : ' disabled'}`, 'data-testid': 'provider', 'data-provider-id': p.providerId }, text, ...controls);
  }
}
