/** A button (the toolkit's `vscode-button`), optionally with a codicon; keyboard and focus come with it. */
import { ensureToolkit } from './designSystem';

/** What a button shows and does. */
export interface ButtonOptions {
  readonly label: string;
  /** `primary` (the theme's button colours), `secondary`, or `icon` (a codicon only; `label` becomes its name). */
  readonly appearance?: 'primary' | 'secondary' | 'icon';
  /** A codicon name, e.g. `check`, shown before the label. */
  readonly icon?: string;
  readonly title?: string;
  readonly testId?: string;
  /** Extra CSS classes. */
  readonly className?: string;
  readonly disabled?: boolean;
  /** More attributes (`data-*`, `aria-*`). */
  readonly attrs?: Readonly<Record<string, string>>;
  readonly onClick: () => void;
}

/** A new button element. */
export function button(o: ButtonOptions): HTMLElement {
  ensureToolkit();
  const el = document.createElement('vscode-button');
  el.setAttribute('appearance', o.appearance ?? 'secondary');
  if (o.testId) el.setAttribute('data-testid', o.testId);
  if (o.className) el.className = o.className;
  if (o.title) el.title = o.title;
  if (o.disabled) el.setAttribute('disabled', '');
  for (const [k, v] of Object.entries(o.attrs ?? {})) el.setAttribute(k, v);
  if (o.icon) {
    const icon = document.createElement('span');
    icon.className = `codicon codicon-${o.icon}`;
    icon.setAttribute('aria-hidden', 'true');
    if (o.appearance !== 'icon') icon.slot = 'start';
    el.append(icon);
  }
  if (o.appearance === 'icon') el.setAttribute('aria-label', o.label);
  else el.append(document.createTextNode(o.label));
  el.addEventListener('click', () => {
    if (!el.hasAttribute('disabled')) o.onClick();
  });
  return el;
}
