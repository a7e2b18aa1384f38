/** A select box (the toolkit's `vscode-dropdown` with `vscode-option`s), e.g. for a model or a mode. */
import { ensureToolkit } from './designSystem';

/** One choice of a dropdown. */
export interface DropdownOption {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/** What a dropdown shows and reports. */
export interface DropdownOptions {
  readonly label: string;
  readonly value: string;
  readonly options: readonly DropdownOption[];
  readonly testId?: string;
  readonly disabled?: boolean;
  readonly onChange: (value: string) => void;
}

/** A new dropdown element (its accessible name is `label`). */
export function dropdown(o: DropdownOptions): HTMLElement {
  ensureToolkit();
  const el = document.createElement('vscode-dropdown') as HTMLElement & { value: string };
  el.setAttribute('aria-label', o.label);
  if (o.testId) el.setAttribute('data-testid', o.testId);
  if (o.disabled) el.setAttribute('disabled', '');
  for (const opt of o.options) {
    const option = document.createElement('vscode-option');
    option.setAttribute('value', opt.value);
    if (opt.value === o.value) option.setAttribute('selected', '');
    if (opt.description) option.title = opt.description;
    option.append(document.createTextNode(opt.label));
    el.append(option);
  }
  el.addEventListener('change', () => o.onChange(el.value));
  return el;
}
