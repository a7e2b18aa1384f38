/** A checkbox (the toolkit's `vscode-checkbox`) with a label, for boolean settings. */
import { ensureToolkit } from './designSystem';

/** What a checkbox shows and reports. */
export interface CheckboxOptions {
  readonly label: string;
  readonly checked: boolean;
  readonly testId?: string;
  readonly title?: string;
  readonly disabled?: boolean;
  /** More attributes (`data-*`). */
  readonly attrs?: Readonly<Record<string, string>>;
  readonly onChange: (checked: boolean) => void;
}

/** A new checkbox element. */
export function checkbox(o: CheckboxOptions): HTMLElement {
  ensureToolkit();
  const el = document.createElement('vscode-checkbox') as HTMLElement & { checked: boolean };
  if (o.testId) el.setAttribute('data-testid', o.testId);
  if (o.checked) el.setAttribute('checked', '');
  if (o.title) el.title = o.title;
  if (o.disabled) el.setAttribute('disabled', '');
  for (const [k, v] of Object.entries(o.attrs ?? {})) el.setAttribute(k, v);
  el.append(document.createTextNode(o.label));
  el.addEventListener('change', () => o.onChange(el.checked));
  return el;
}
