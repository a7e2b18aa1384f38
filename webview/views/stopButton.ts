/**
 * Stop on one tool call or terminal an ACP v2 agent lets the user stop on its own (docs/acp-v2.md): a small link-like
 * button in the card's head and in the background bar. It appears when the agent says so and never takes the focus.
 */
import { h } from './dom';

/** A Stop button; `label` (which may quote the agent's command) is its accessible name and tooltip. */
export function stopButton(label: string, testId: string, stop: () => void): HTMLElement {
  const el = h('button', { type: 'button', class: 'work-stop', 'data-testid': testId, title: label, 'aria-label': label },
    h('span', { class: 'codicon codicon-debug-stop', 'aria-hidden': 'true' }), ' Stop');
  el.addEventListener('click', () => {
    // one request per button: the agent confirms with a final status, which renders the card again
    el.setAttribute('disabled', '');
    stop();
  });
  return el;
}
