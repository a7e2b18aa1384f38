/** A small indeterminate spinner (the toolkit's `vscode-progress-ring`) for work in progress. */
import { ensureToolkit } from './designSystem';

/** A spinner with an accessible label, e.g. "Running". */
export function progressRing(label: string, className = 'progress-small'): HTMLElement {
  ensureToolkit();
  const el = document.createElement('vscode-progress-ring');
  el.className = className;
  el.setAttribute('aria-label', label);
  return el;
}
