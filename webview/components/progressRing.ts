/**
 * A small indeterminate spinner for work in progress: a ring in the theme's progress colour, turning (slower when the
 * user asks for reduced motion). Drawn by CSS alone (cards.css); the toolkit's `vscode-progress-ring` that it
 * replaces cost 3.6 KB of the chat's script budget (test/harness/packageCheck.mjs).
 */

/** A spinner with an accessible label, e.g. "Running". */
export function progressRing(label: string, className = 'progress-small'): HTMLElement {
  const el = document.createElement('span');
  el.className = `progress-ring ${className}`;
  el.setAttribute('role', 'progressbar');
  el.setAttribute('aria-label', label);
  el.dataset.testid = 'spinner';
  return el;
}
