/** The prompt box: multi-line, Enter sends, Shift+Enter adds a line, Esc or Stop cancels the turn. */
import type { ThreadStateView } from '../../src/shared/viewModel';
import { h } from './dom';

/** What the composer asks the host to do. */
export interface ComposerActions {
  send(text: string): void;
  cancel(): void;
}

/** The composer at the bottom of the chat. */
export class Composer {
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private busy = false;
  private usable = false;

  constructor(root: HTMLElement, private readonly actions: ComposerActions) {
    this.input = h('textarea', { 'data-testid': 'composer-input', rows: '3', placeholder: 'Ask the agent… (Enter to send, Shift+Enter for a new line)', 'aria-label': 'Message to the agent' });
    this.sendButton = h('button', { class: 'primary', 'data-testid': 'composer-send', title: 'Send (Enter)' }, 'Send');
    this.stopButton = h('button', { 'data-testid': 'composer-stop', title: 'Stop (Esc)' }, 'Stop');
    root.replaceChildren(this.input, h('div', { class: 'composer-buttons' }, this.stopButton, this.sendButton));
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      } else if (e.key === 'Escape' && this.busy) {
        e.preventDefault();
        this.actions.cancel();
      }
    });
    this.sendButton.addEventListener('click', () => this.submit());
    this.stopButton.addEventListener('click', () => this.actions.cancel());
    this.setState(undefined);
  }

  /** Follows the session status: Send while idle, Stop while working. */
  setState(state: ThreadStateView | undefined): void {
    this.busy = state?.status === 'working' || state?.status === 'awaitingPermission';
    this.usable = state?.status === 'idle';
    this.sendButton.disabled = !this.usable;
    this.stopButton.hidden = !this.busy;
    this.input.disabled = state === undefined || state.status === 'disconnected' || state.status === 'error';
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (!text || !this.usable) return;
    this.actions.send(text);
    this.input.value = '';
  }
}
