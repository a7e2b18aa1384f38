/**
 * Session config options (https://agentclientprotocol.com/protocol/session-config-options) and legacy modes
 * (https://agentclientprotocol.com/protocol/session-modes) in the composer: options of
 * category `model` and `mode` (and the legacy mode picker) sit in the footer, the others in a settings
 * popover (behind a `settings-gear` icon button). Selects are the toolkit's dropdowns (webview/components/), which
 * keep the agent's groups as group headings; booleans are the toolkit's checkboxes. A change is sent to the
 * host; what is shown afterwards is the agent's answer (the whole set replaces the old one). The popover also holds
 * the agent's Model Provider picker (providersPicker.ts), for an agent that advertises `providers`.
 */
import type { ConfigOptionView, ModesView } from '../../src/shared/viewModel';
import type { ProvidersView } from '../../src/shared/accountModel';
import { button } from '../components/button';
import { checkbox } from '../components/checkbox';
import { dropdown } from '../components/dropdown';
import { h, setChildren } from '../views/dom';
import { ProvidersPicker, type ProviderActions } from './providersPicker';

/** What the config controls ask the host to do. */
export interface ConfigActions extends ProviderActions {
  setConfigOption(configId: string, value: string | boolean): void;
  setMode(modeId: string): void;
}

const footerCategories = new Set(['model', 'mode']);

/** A rendered option's control, and what it shows. */
interface Control {
  key: string;
  readonly option: ConfigOptionView;
  readonly inFooter: boolean;
  readonly element: HTMLElement;
}

/** What a control shows: an option rendered with the same key keeps its element. */
function controlKey(o: ConfigOptionView, inFooter: boolean): string {
  return JSON.stringify([o, inFooter]);
}

function selectFor(o: Extract<ConfigOptionView, { type: 'select' }>, onChange: (value: string) => void): HTMLElement {
  return dropdown({
    label: o.name, title: o.description ?? o.name, value: o.currentValue, testId: 'config-option', attrs: { 'data-config-id': o.id },
    groups: o.groups.map((g) => ({ name: g.name, options: g.options.map((c) => ({ value: c.value, label: c.name, description: c.description })) })),
    onChange,
  });
}

function checkboxFor(o: Extract<ConfigOptionView, { type: 'boolean' }>, onChange: (value: boolean) => void): HTMLElement {
  return checkbox({ label: o.name, title: o.description ?? o.name, checked: o.currentValue, testId: 'config-option', attrs: { 'data-config-id': o.id }, onChange });
}

/** The config controls of the composer footer and the settings popover. */
export class ConfigOptionsView {
  /** The footer part (model, mode, the settings button). */
  readonly element: HTMLElement;
  private readonly settingsButton: HTMLElement;
  private readonly popover: HTMLElement;
  private readonly providers: ProvidersPicker;
  private hasProviders = false;
  /** The popover's config controls (the providers come after them). */
  private others: HTMLElement[] = [];
  private key = '';
  /**
   * The controls of the last render by option id, with the option they show: an option that did not change
   * keeps its element, so a click on one control is not lost when another option's answer re-renders.
   */
  private controls = new Map<string, Control>();

  constructor(private readonly actions: ConfigActions) {
    this.settingsButton = button({
      label: 'Session settings', appearance: 'icon', icon: 'settings-gear', title: 'More session settings', testId: 'config-settings', className: 'config-settings',
      attrs: { 'aria-haspopup': 'dialog', 'aria-expanded': 'false' },
      onClick: () => this.togglePopover(this.popover.hidden),
    });
    this.popover = h('div', { class: 'config-popover', role: 'dialog', 'aria-label': 'Session settings', 'data-testid': 'config-popover' });
    this.popover.hidden = true;
    this.providers = new ProvidersPicker(actions);
    this.element = h('div', { class: 'config-options', 'data-testid': 'config-options' });
    this.popover.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        this.togglePopover(false);
      }
    });
  }

  /** Renders the options; unchanged options keep their elements (and the keyboard focus). */
  render(options: readonly ConfigOptionView[] | undefined, modes: ModesView | undefined): void {
    const key = JSON.stringify([options ?? [], modes ?? null]);
    if (key === this.key) return;
    this.key = key;
    const focusedId = (document.activeElement as HTMLElement | null)?.dataset?.configId;
    const gearFocused = document.activeElement === this.settingsButton;
    const footer: HTMLElement[] = [];
    const others: HTMLElement[] = [];
    const controls = new Map<string, Control>();
    for (const o of options ?? []) {
      const inFooter = !!o.category && footerCategories.has(o.category);
      const kept = this.controls.get(o.id);
      const control = kept?.key === controlKey(o, inFooter) ? kept : { key: controlKey(o, inFooter), option: o, inFooter, element: this.controlFor(o, inFooter) };
      controls.set(o.id, control);
      (inFooter ? footer : others).push(control.element);
    }
    this.controls = controls;
    if (modes) {
      const select = selectFor(
        { type: 'select', id: '__mode', name: 'Mode', currentValue: modes.currentModeId, groups: [{ options: modes.available }] },
        (v) => {
          this.key = ''; // the next state is rendered even if unchanged (the request failed)
          this.actions.setMode(v);
        });
      select.setAttribute('data-testid', 'mode-select');
      footer.unshift(select);
    }
    this.others = others;
    this.layoutPopover();
    setChildren(this.element, [...footer, this.settingsButton, this.popover]);
    if (focusedId) this.element.querySelector<HTMLElement>(`[data-config-id="${CSS.escape(focusedId)}"]`)?.focus();
    else if (gearFocused && !this.settingsButton.hidden) this.settingsButton.focus();
  }

  /** A new control for one option: in the footer the bare control, in the popover a select gets its label row. */
  private controlFor(o: ConfigOptionView, inFooter: boolean): HTMLElement {
    const control = o.type === 'select'
      ? selectFor(o, (v) => this.change(o.id, v))
      : checkboxFor(o, (v) => this.change(o.id, v));
    return inFooter || o.type !== 'select' ? control : h('label', { class: 'config-row' }, h('span', {}, o.name), control);
  }

  /** The agent's model providers (absent: it does not advertise `providers`). */
  renderProviders(view: ProvidersView | undefined): void {
    const shown = this.providers.render(view);
    if (shown === this.hasProviders) return;
    this.hasProviders = shown;
    this.layoutPopover();
  }

  /** The popover's children: the config controls, then the providers; the gear only when there is something. */
  private layoutPopover(): void {
    setChildren(this.popover, [...this.others, ...(this.hasProviders ? [this.providers.element] : [])]);
    const empty = !this.others.length && !this.hasProviders;
    this.settingsButton.hidden = empty;
    if (empty) this.togglePopover(false);
  }

  private change(configId: string, value: string | boolean): void {
    this.key = ''; // the next state is rendered even if unchanged (the request failed)
    // the control already shows the chosen value: the host's state that says so keeps it, any other rebuilds it
    const control = this.controls.get(configId);
    if (control) control.key = controlKey({ ...control.option, currentValue: value } as ConfigOptionView, control.inFooter);
    this.actions.setConfigOption(configId, value);
  }

  private togglePopover(open: boolean): void {
    const wasOpen = !this.popover.hidden;
    this.popover.hidden = !open;
    this.settingsButton.setAttribute('aria-expanded', String(open));
    if (open) this.popover.querySelector<HTMLElement>('vscode-dropdown, vscode-checkbox, vscode-button')?.focus();
    else if (wasOpen) this.settingsButton.focus();
  }
}
