/**
 * The transcript is one Tab stop, like VS Code's chat list (roving tabindex): its entries are the items of
 * a list, one of them has tabindex 0 (the newest, or the one the user moved to while the focus is in the
 * transcript). On a message, Up/Down/Home/End/PageUp/PageDown move between messages; Enter or Tab enters
 * its controls (message actions, links, code-block and card buttons), Tab walks them and leaves the
 * transcript after the last, Esc returns to the message. Ctrl+Up (Cmd+Up) jumps from the composer to the
 * newest message, Ctrl+Down (Cmd+Down) back (docs/chat.md). Permission dialogs keep their
 * own rules (permissionFocus.ts, permissionGuard.ts): Enter on a message only moves the focus (its keydown is
 * cancelled, so it never clicks), and a held key repeats into a dialog only to be ignored there.
 *
 * Cheap by construction: delegated listeners on the transcript, nothing per message; a move changes two
 * tabindex attributes and one label, never renders anything. A letter typed on a message goes to the composer,
 * as from a permission dialog. The pure half is webview/lib/transcriptKeys.ts.
 */
import { isJumpToComposerKey, isJumpToTranscriptKey, isTextKey, labelChars, listMove, messageLabel, moveIndex, tabTarget } from '../lib/transcriptKeys';
import { markLatestUserMessage } from '../views/messageActions';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** What can take the focus by Tab (toolkit components delegate it to their shadow root). */
const tabbable = [
  'button', 'a[href]', 'input', 'select', 'textarea', 'summary', '[tabindex]',
  'vscode-button', 'vscode-checkbox', 'vscode-dropdown', 'vscode-text-field', 'vscode-text-area',
].join(',');

const authors: Readonly<Record<string, string>> = {
  'user-message': 'You', 'agent-message': 'Agent', thought: 'Thinking', 'tool-call': 'Tool call', notice: 'Notice', subagent: 'Subagent', 'session-message': 'Message',
};

function canTab(el: HTMLElement): boolean {
  if (el.getAttribute('tabindex') === '-1' || el.hasAttribute('disabled') || el.closest('[hidden]')) return false;
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible';
}

/** The start of an element's text, without reading all of a long answer. */
function startOfText(el: HTMLElement): string {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = '';
  while (text.length <= labelChars && walker.nextNode()) text += walker.currentNode.nodeValue ?? '';
  return text;
}

/** Which part of an entry that is about to be replaced has the focus. */
export type ItemFocusMemo = 'item' | 'inside' | undefined;

/** The keyboard focus of one transcript. */
export class TranscriptFocus {
  /** The item with tabindex 0. */
  private stop: HTMLElement | undefined;
  /** The user moved the stop (while the focus is in the transcript); else it is the newest item. */
  private chosen = false;
  /** A Tab key is being handled (its focus change happens in the same task). */
  private tabbing = false;
  /** The newest user message and the last item when it was found (found again only when the end changed). */
  private latestUser: Element | undefined;
  private lastItem: Element | null = null;

  constructor(private readonly root: HTMLElement, private readonly composerInput: () => HTMLElement | null) {
    root.setAttribute('role', 'list');
    root.addEventListener('keydown', (e) => this.onKeyDown(e));
    root.addEventListener('focusin', (e) => this.onFocusIn(e));
    root.addEventListener('focusout', (e) => {
      // left for another part of the chat: the stop goes back to the newest message
      if (e.relatedTarget instanceof Node && !root.contains(e.relatedTarget)) {
        this.chosen = false;
        this.framed();
      }
    });
    document.addEventListener('keydown', (e) => this.onDocumentKeyDown(e), true);
  }

  /** After each rendered frame: the stop follows the newest item unless the user chose one; Edit & Resend moves to the newest user message. */
  framed(): void {
    const last = this.root.lastElementChild;
    if (!this.stop || !this.root.contains(this.stop)) this.chosen = false;
    if (!this.chosen) this.setStop(last instanceof HTMLElement ? last : undefined);
    if (last !== this.lastItem || (this.latestUser && !this.latestUser.isConnected)) {
      this.latestUser = markLatestUserMessage(this.root, this.latestUser, this.lastItem);
      this.lastItem = last;
    }
  }

  /** Before an entry's node is replaced: whether it, or something in it, has the focus. */
  remember(old: HTMLElement | undefined): ItemFocusMemo {
    const active = document.activeElement;
    if (!old || !active || !old.contains(active)) return undefined;
    return active === old ? 'item' : 'inside';
  }

  /** After an entry's node was replaced: the stop and the focus move to the new node. */
  replaced(old: HTMLElement | undefined, node: HTMLElement, memo: ItemFocusMemo): void {
    if (old && old === this.stop) {
      this.stop = undefined;
      this.setStop(node);
    }
    if (memo) node.focus({ preventScroll: true });
  }

  /** Moves the focus to the newest message (the jump key). */
  focusNewest(): boolean {
    const last = this.root.lastElementChild;
    if (!(last instanceof HTMLElement)) return false;
    this.moveTo(last);
    return true;
  }

  private items(): HTMLElement[] {
    return [...this.root.children] as HTMLElement[];
  }

  /** The entry (a child of the transcript) that `target` is in. */
  private itemOf(target: EventTarget | null): HTMLElement | undefined {
    let el = target instanceof Element ? target : null;
    while (el && el.parentElement !== this.root) el = el.parentElement;
    return el instanceof HTMLElement ? el : undefined;
  }

  private setStop(item: HTMLElement | undefined): void {
    if (item === this.stop) return;
    if (this.stop) this.stop.tabIndex = -1;
    this.stop = item;
    if (!item) return;
    item.tabIndex = 0;
    this.label(item);
  }

  /** The item's accessible name: who and the start of the text (a streamed answer's is read again on focus). */
  private label(item: HTMLElement): void {
    if (item.getAttribute('role') !== 'listitem') return; // an alert keeps its own
    const author = authors[item.getAttribute('data-testid') ?? ''] ?? 'Entry';
    item.setAttribute('aria-label', messageLabel(author, startOfText(item)));
  }

  private moveTo(item: HTMLElement): void {
    this.chosen = item !== this.root.lastElementChild;
    this.setStop(item);
    item.focus({ preventScroll: true });
    item.scrollIntoView({ block: 'nearest' });
  }

  private controls(item: HTMLElement): HTMLElement[] {
    return [...item.querySelectorAll<HTMLElement>(tabbable)].filter(canTab);
  }

  /** Focuses the first element the Tab order has outside the transcript, after it (`forward`) or before it. */
  private leave(forward: boolean): void {
    const outside = [...document.querySelectorAll<HTMLElement>(tabbable)].filter((el) => !this.root.contains(el) && canTab(el));
    const after = (el: HTMLElement): boolean => (this.root.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    const target = forward ? outside.find(after) : outside.filter((el) => !after(el)).at(-1);
    target?.focus();
  }

  private onDocumentKeyDown(e: KeyboardEvent): void {
    if (e.key === 'Tab') {
      this.tabbing = true;
      setTimeout(() => { this.tabbing = false; }, 0);
      return;
    }
    const inTranscript = e.target instanceof Node && this.root.contains(e.target);
    const jump = !inTranscript && isJumpToTranscriptKey(e, isMac) ? this.focusNewest()
      : inTranscript && isJumpToComposerKey(e, isMac) ? (this.composerInput()?.focus(), true)
      : false;
    if (jump) {
      e.preventDefault();
      e.stopPropagation(); // the composer's own keys (history) and VS Code do not see it
    }
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.isComposing) return;
    const item = this.itemOf(e.target);
    if (!item) return;
    const onItem = e.target === item;
    if (e.key === 'Tab' && !e.ctrlKey && !e.altKey && !e.metaKey) {
      const controls = this.controls(item);
      const position = onItem ? -1 : controls.findIndex((c) => c === e.target || c.contains(e.target as Node));
      if (!onItem && position === -1) return; // somewhere the list does not know: the browser's order
      e.preventDefault();
      const to = tabTarget(position, controls.length, e.shiftKey);
      if (to.kind === 'control') controls[to.index].focus();
      else if (to.kind === 'message') item.focus();
      else this.leave(to.forward);
    } else if (onItem && e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
      e.preventDefault(); // cancelled: no click follows on the control that gets the focus
      this.controls(item)[0]?.focus();
    } else if (!onItem && e.key === 'Escape') {
      e.preventDefault();
      item.focus();
    } else if (onItem && isTextKey(e)) {
      // keys are not lost: a letter typed on a message goes to the composer (the focus moves before it is inserted)
      this.composerInput()?.focus();
    } else if (onItem) {
      const move = listMove(e);
      if (!move) return;
      e.preventDefault();
      const items = this.items();
      const index = moveIndex(move, items.indexOf(item), items.length, this.root.clientHeight, (i) => items[i].offsetTop);
      if (items[index]) this.moveTo(items[index]);
    }
  }

  private onFocusIn(e: FocusEvent): void {
    const item = this.itemOf(e.target);
    if (!item) return;
    const fromOutside = !(e.relatedTarget instanceof Node && this.root.contains(e.relatedTarget));
    // Tab or Shift+Tab from outside lands on the one stop, not on the first or last control of the list
    if (fromOutside && this.tabbing && this.stop && e.target !== this.stop) {
      this.stop.focus({ preventScroll: true });
      this.stop.scrollIntoView({ block: 'nearest' });
      return;
    }
    if (item !== this.stop) {
      this.chosen = item !== this.root.lastElementChild;
      this.setStop(item);
    } else if (e.target === item) this.label(item);
  }
}
