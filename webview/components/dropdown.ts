/**
 * A select box (the toolkit's `vscode-dropdown` with `vscode-option`s), e.g. for a model or a mode. Keyboard as
 * in VS Code's own dropdowns: ↑/↓ (also while closed), Home/End, type-ahead, Enter/Space/Alt+↓ to open, Esc.
 * The toolkit has no option groups: a group's name is a disabled option (the keyboard skips it) before its options.
 */
import { ensureToolkit } from './designSystem';

/** One choice of a dropdown. */
export interface DropdownOption {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/** A named run of choices (the agent's option groups). */
export interface DropdownGroup {
  readonly name?: string;
  readonly options: readonly DropdownOption[];
}

/** What a dropdown shows and reports. */
export interface DropdownOptions {
  readonly label: string;
  readonly value: string;
  /** The choices, or `groups` for grouped ones. */
  readonly options?: readonly DropdownOption[];
  readonly groups?: readonly DropdownGroup[];
  readonly testId?: string;
  readonly title?: string;
  readonly disabled?: boolean;
  /** More attributes (`data-*`). */
  readonly attrs?: Readonly<Record<string, string>>;
  readonly onChange: (value: string) => void;
}

function optionElement(opt: DropdownOption, selected: boolean): HTMLElement {
  const option = document.createElement('vscode-option');
  option.setAttribute('value', opt.value);
  if (selected) option.setAttribute('selected', '');
  if (opt.description) option.title = opt.description;
  option.append(document.createTextNode(opt.label));
  return option;
}

/** A new dropdown element (its accessible name is `label`); its `value` property is the chosen value. */
export function dropdown(o: DropdownOptions): HTMLElement & { value: string } {
  ensureToolkit();
  const el = document.createElement('vscode-dropdown') as HTMLElement & { value: string };
  el.setAttribute('aria-label', o.label);
  if (o.testId) el.setAttribute('data-testid', o.testId);
  if (o.title) el.title = o.title;
  if (o.disabled) el.setAttribute('disabled', '');
  for (const [k, v] of Object.entries(o.attrs ?? {})) el.setAttribute(k, v);
  for (const group of o.groups ?? [{ options: o.options ?? [] }]) {
    if (group.name) {
      const header = document.createElement('vscode-option');
      header.className = 'dropdown-group';
      header.setAttribute('disabled', '');
      header.setAttribute('data-group', group.name);
      header.append(document.createTextNode(group.name));
      el.append(header);
    }
    for (const opt of group.options) el.append(optionElement(opt, opt.value === o.value));
  }
  el.addEventListener('change', () => o.onChange(el.value));
  return el;
}
