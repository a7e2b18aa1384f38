/**
 * The line a tool-call card shows where it left out part of a long text (the host capped it: src/thread/view/toolTextPreview.ts,
 * src/thread/view/rawOutput.ts): what was left out, and Open full output, which asks the host to show the whole
 * text in a read-only editor. Nothing of it is lost: the thread and the transcript keep it whole.
 */
import '../styles/cards.css';
import { h } from './dom';

/** The note: `text` and, when `open` is given, the Open full output button. */
export function outputNote(text: string, open: (() => void) | undefined, testId: string): HTMLElement {
  const note = h('div', { class: 'terminal-truncated tool-output-note', 'data-testid': testId }, h('span', {}, text));
  if (open) {
    const link = h('button', { type: 'button', class: 'location-link tool-output-open', 'data-testid': 'tool-output-open', title: 'Open the whole text in a read-only editor' },
      h('span', { class: 'codicon codicon-go-to-file', 'aria-hidden': 'true' }), ' Open full output');
    link.addEventListener('click', open);
    note.append(' ', link);
  }
  return note;
}
