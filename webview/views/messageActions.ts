/**
 * Per-message actions, as in VS Code's chat: a small toolbar of codicon buttons that shows on hover or when
 * the message (or a control in it) has the focus. Answers have Copy (as Markdown) and Retry; the user's
 * messages have Copy, Restore Checkpoint when a checkpoint was taken before them, and Edit & Resend (the latest
 * one; an earlier one with a checkpoint too), which edits the text inline (Enter sends, Esc abandons). One delegated listener on the transcript handles every toolbar; the host does the work
 * (src/chatHost/messageActions.ts).
 */
import '../styles/messages.css';
import type { ChatActions } from '../actions';
import { h } from './dom';

/** What the message buttons ask of the host. */
export type MessageActions = Pick<ChatActions, 'copyMessage' | 'retryMessage' | 'editResend' | 'restoreCheckpoint'>;

type Action = 'copy' | 'retry' | 'edit' | 'restore';
const buttons: Readonly<Record<Action, { readonly icon: string; readonly label: string; readonly title?: string }>> = {
  copy: { icon: 'copy', label: 'Copy' },
  retry: { icon: 'refresh', label: 'Retry' },
  edit: { icon: 'edit', label: 'Edit and Resend' },
  restore: { icon: 'history', label: 'Restore Checkpoint', title: 'Restore Checkpoint: the files as they were before this message (a preview shows what will change)' },
};

const templates = new Map<string, HTMLElement>();
/** The toolbar of a kind of message: built once, cloned per message. */
function toolbar(actions: readonly Action[]): HTMLElement {
  const key = actions.join();
  let t = templates.get(key);
  if (!t) {
    t = h('div', { class: 'msg-actions', role: 'toolbar', 'aria-label': 'Message actions' }, ...actions.map((a) =>
      h('button', { type: 'button', class: 'msg-action', 'data-msg-action': a, 'data-testid': `message-${a}`, title: buttons[a].title ?? buttons[a].label, 'aria-label': buttons[a].label },
        h('span', { class: `codicon codicon-${buttons[a].icon}`, 'aria-hidden': 'true' }))));
    templates.set(key, t);
  }
  return t.cloneNode(true) as HTMLElement;
}

/**
 * Adds the toolbar to a user message (first, shown at its top right) or an answer (last, at its bottom right,
 * clear of a first code block's own buttons), and the entry id. The Tab order follows what is seen. A user
 * message with a checkpoint (`userCheckpoint`) also has Restore Checkpoint, and Edit & Resend even when it is
 * not the latest (it then restores the checkpoint and continues in a fork of the session, or a new session).
 */
export function addMessageToolbar(node: HTMLElement, kind: 'user' | 'userCheckpoint' | 'agent', entryId: string): HTMLElement {
  node.setAttribute('data-entry-id', entryId);
  if (kind === 'agent') node.append(toolbar(['copy', 'retry']));
  else if (kind === 'user') node.prepend(toolbar(['copy', 'edit']));
  else {
    node.setAttribute('data-checkpoint', 'true');
    node.prepend(toolbar(['copy', 'edit', 'restore']));
  }
  return node;
}

/**
 * Marks the newest user message (only it offers Edit & Resend), walking back from the end. `previous` is what
 * the last call returned and `seen` the last entry then: when both are still on the page, only the entries
 * after `seen` are looked at, so a long turn costs O(new entries), not O(turn) per frame.
 */
export function markLatestUserMessage(root: HTMLElement, previous: Element | undefined, seen: Element | null): Element | undefined {
  // the entries up to `seen` were looked at before, unless the transcript was rendered again since
  const incremental = seen?.parentElement === root && (previous === undefined || previous.isConnected);
  let latest: Element | undefined;
  for (let node = root.lastElementChild; node; node = node.previousElementSibling) {
    if (node.matches('.entry.user')) {
      latest = node;
      break;
    }
    if (incremental && node === seen) {
      latest = previous;
      break;
    }
  }
  if (previous !== latest) previous?.removeAttribute('data-latest');
  latest?.setAttribute('data-latest', 'true');
  return latest;
}

const flashes = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();
/** Shows a check on a Copy button for a moment. */
function flashCopied(button: HTMLElement): void {
  const icon = button.firstElementChild;
  if (!icon) return;
  icon.className = 'codicon codicon-check';
  button.setAttribute('aria-label', 'Copied');
  clearTimeout(flashes.get(button));
  flashes.set(button, setTimeout(() => {
    icon.className = 'codicon codicon-copy';
    button.setAttribute('aria-label', buttons.copy.label);
  }, 1500));
}

/** The node of the typed text of a user message (its first content block, when that is text). */
function typedTextNode(message: HTMLElement): HTMLElement | undefined {
  const first = message.querySelector(':scope > .msg-actions ~ :not(.after-restore-badge)');
  return first instanceof HTMLElement && first.matches('.text') ? first : undefined;
}

/**
 * Edits a user message in place: its typed text gives way to an editor (its attachments stay and are sent
 * again); Enter (without Shift) sends, Esc or Cancel abandons the edit.
 */
function startEdit(message: HTMLElement, entryId: string, actions: MessageActions): void {
  const open = message.querySelector<HTMLTextAreaElement>(':scope > .msg-edit textarea');
  if (open) return open.focus();
  const typed = typedTextNode(message);
  const input = h('textarea', { class: 'msg-edit-input', 'data-testid': 'message-edit-input', 'aria-label': 'Edit your message; Enter sends it again, Escape cancels', rows: '3' });
  input.value = typed?.textContent ?? '';
  // an earlier message goes back to its checkpoint and on in a fork of the session when the agent can fork, else
  // in a new session (the host shows what will change first)
  const earlier = !message.hasAttribute('data-latest');
  const where = document.documentElement.hasAttribute('data-can-fork') ? 'a fork of this session' : 'a new session';
  const hint = earlier ? `Enter restores the files to before this message (after a preview) and sends it in ${where} · Esc to cancel` : 'Enter to send · Esc to cancel';
  const editor = h('div', { class: 'msg-edit', 'data-testid': 'message-editor' }, input,
    h('div', { class: 'msg-edit-bar' },
      h('span', { class: 'msg-edit-hint', 'data-testid': 'message-edit-hint' }, hint),
      h('button', { type: 'button', class: 'msg-action', 'data-edit': 'cancel', 'data-testid': 'message-edit-cancel', title: 'Cancel (Esc)', 'aria-label': 'Cancel' },
        h('span', { class: 'codicon codicon-close', 'aria-hidden': 'true' })),
      h('button', { type: 'button', class: 'msg-action', 'data-edit': 'send', 'data-testid': 'message-edit-send', title: 'Send (Enter)', 'aria-label': 'Send' },
        h('span', { class: 'codicon codicon-send', 'aria-hidden': 'true' }))));
  const end = (): void => {
    editor.remove();
    if (typed) typed.hidden = false;
    message.removeAttribute('data-editing');
    message.focus();
  };
  const send = (): void => {
    if (!input.value.trim()) return;
    actions.editResend(entryId, input.value);
    end();
  };
  input.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      end();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      send();
    }
  });
  editor.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-edit]') : null;
    if (b?.dataset.edit === 'send') send();
    else if (b?.dataset.edit === 'cancel') end();
  });
  message.setAttribute('data-editing', 'true');
  if (typed) typed.hidden = true;
  message.querySelector(':scope > .msg-actions')?.after(editor);
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
}

/** Handles the message toolbars below `root` with one delegated listener. */
export function installMessageActions(root: HTMLElement, actions: MessageActions): void {
  root.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest<HTMLElement>('.msg-actions [data-msg-action]') : null;
    const message = button?.closest<HTMLElement>('[data-entry-id]');
    const entryId = message?.dataset.entryId;
    if (!button || !message || !entryId) return;
    e.preventDefault();
    switch (button.dataset.msgAction) {
      case 'copy':
        actions.copyMessage(entryId);
        flashCopied(button);
        break;
      case 'retry': actions.retryMessage(entryId); break;
      case 'restore': actions.restoreCheckpoint(entryId); break;
      case 'edit': startEdit(message, entryId, actions); break;
    }
  });
}
