/**
 * The queued prompts above the prompt box: written while the agent works, sent one per turn when the turn
 * ends. Each can be edited in place (Enter or Save keeps, Esc cancels) or removed.
 */
import type { QueuedPromptView } from '../../src/shared/composerModel';
import { button } from '../components/button';
import { h } from '../views/dom';
import { attachmentLabel } from './attachments';

/** What the queue's buttons do. */
export interface QueueActions {
  update(id: string, text: string): void;
  remove(id: string): void;
}

/** The queue list. */
export class QueueView {
  readonly element: HTMLElement;
  private editing: string | undefined;
  private key = '';
  private queue: readonly QueuedPromptView[] = [];

  constructor(private readonly actions: QueueActions) {
    this.element = h('div', { class: 'composer-queue', 'data-testid': 'composer-queue', role: 'list', 'aria-label': 'Queued messages' });
    this.element.hidden = true;
  }

  /** Renders the queue (skipped while nothing changed, so an edit in progress is kept). */
  render(queue: readonly QueuedPromptView[]): void {
    this.queue = queue;
    const key = JSON.stringify(queue.map((q) => [q.id, q.text, q.attachments.length]));
    if (key === this.key) return;
    this.key = key;
    if (this.editing && !queue.some((q) => q.id === this.editing)) this.editing = undefined;
    this.element.hidden = queue.length === 0;
    this.element.replaceChildren(
      ...(queue.length ? [h('div', { class: 'queue-title' }, `Queued — sent when the agent finishes (${queue.length})`)] : []),
      ...queue.map((q) => (q.id === this.editing ? this.editor(q) : this.row(q))),
    );
  }

  private row(q: QueuedPromptView): HTMLElement {
    const edit = button({ label: 'Edit', appearance: 'icon', icon: 'edit', testId: 'queued-edit', title: 'Edit this queued message', onClick: () => this.startEdit(q.id) });
    const remove = button({ label: 'Remove', appearance: 'icon', icon: 'close', testId: 'queued-remove', title: 'Remove this queued message', onClick: () => this.actions.remove(q.id) });
    const extras = q.attachments.length ? ` (+ ${q.attachments.map(attachmentLabel).join(', ')})` : '';
    return h('div', { class: 'queued-prompt', role: 'listitem', 'data-testid': 'queued-prompt', 'data-id': q.id },
      h('span', { class: 'queued-text' }, q.text + extras), edit, remove);
  }

  private editor(q: QueuedPromptView): HTMLElement {
    const input = h('textarea', { class: 'queued-input', rows: '2', 'data-testid': 'queued-input', 'aria-label': 'Edit queued message' });
    input.value = q.text;
    const save = h('button', { type: 'button', class: 'primary', 'data-testid': 'queued-save' }, 'Save');
    const cancel = h('button', { type: 'button', 'data-testid': 'queued-cancel' }, 'Cancel');
    const done = (keep: boolean) => {
      this.editing = undefined;
      if (keep && input.value !== q.text) this.actions.update(q.id, input.value); // the host's answer re-renders
      this.rerender();
    };
    save.addEventListener('click', () => done(true));
    cancel.addEventListener('click', () => done(false));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        done(true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        done(false);
      }
    });
    queueMicrotask(() => input.focus());
    return h('div', { class: 'queued-prompt editing', role: 'listitem', 'data-testid': 'queued-prompt', 'data-id': q.id }, input, save, cancel);
  }

  private startEdit(id: string): void {
    this.editing = id;
    this.rerender();
  }

  private rerender(): void {
    this.key = '';
    this.render(this.queue);
  }
}
