/**
 * Where the keyboard goes when a permission request arrives, and how the user gets to it.
 *
 * - A request never takes the focus from a user who is typing ({@link isTyping}: the focus is in a text
 *   field of the chat, and it has text or a key went into it in the last 1.5 s). Nor from another dialog the
 *   user is on, nor when the chat does not have the focus at all (the editor or the workbench keeps it).
 *   Otherwise (the focus elsewhere in the chat, or in an empty composer left alone) the request's first
 *   option takes the focus, as before.
 * - Every new request is announced in the live region, with the shortcut that reaches it: Ctrl+Shift+A
 *   (Cmd+Shift+A on macOS) moves the focus to the newest pending request from the composer or from anywhere
 *   in the chat. The composer names the key while a request is pending.
 * - Keys are not lost: a letter typed while a dialog has the focus goes to the composer (the focus moves
 *   there with the key), and Escape goes back to the composer. Only Enter, Space, Tab and the arrows act on
 *   the dialog, and its buttons wait until the request was on screen for a moment (permissionGuard.ts).
 * - A card that is rendered again keeps the focus on the same option; once the request is answered (its
 *   dialog is gone) the focus goes back to the composer.
 */
import { isReviewPermissionKey, isTyping, reviewPermissionKeyLabel } from '../lib/keymap';
import type { LiveAnnouncer } from './liveRegion';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
// elicitations (elicitation.ts) follow the same rules: a pending one is a dialog, its fields and buttons options
export const dialogSelector = '[data-testid="permission"], [data-testid="elicitation"][data-pending="true"]';
const optionSelector = '[data-testid="permission-option"], [data-focus-target="true"]';

/** The key that reaches the newest pending request, as the hint and the announcement name it. */
export const reviewPermissionKey = reviewPermissionKeyLabel(isMac);

/** Which dialog and option had the focus before a card was rendered again. */
export interface PermissionFocusMemo {
  readonly requestId: string;
  readonly optionId?: string;
}

function isTextField(el: Element | null): el is HTMLTextAreaElement | HTMLInputElement | HTMLElement {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'range', 'color', 'hidden'].includes(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

function hasText(el: HTMLTextAreaElement | HTMLInputElement | HTMLElement): boolean {
  return el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el.value !== '' : (el.textContent ?? '') !== '';
}

/** A single printable character without a command modifier: text the user means to type. */
function isTextKey(e: KeyboardEvent): boolean {
  return [...e.key].length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey;
}

/** The focus policy and the shortcut of permission requests in one chat. */
export class PermissionFocus {
  /** Requests seen in this chat, in the order they arrived. */
  private readonly arrived = new Map<string, number>();
  private lastKeyAt = -Infinity;
  private lastKeyField: Element | null = null;

  constructor(
    private readonly transcript: HTMLElement,
    private readonly live: LiveAnnouncer,
    private readonly composerInput: () => HTMLElement | null,
  ) {
    const typed = (e: Event): void => {
      if (!isTextField(e.target instanceof Element ? e.target : null)) return;
      this.lastKeyAt = performance.now();
      this.lastKeyField = e.target as Element;
    };
    document.addEventListener('keydown', (e) => this.onKeyDown(e), true);
    document.addEventListener('keydown', typed, true);
    document.addEventListener('input', typed, true);
    document.addEventListener('compositionupdate', typed, true);
  }

  /** Whether the user is typing now (see the file comment). */
  typing(): boolean {
    const active = document.activeElement;
    if (!isTextField(active)) return false;
    return isTyping({ hasText: hasText(active), lastKeyAt: active === this.lastKeyField ? this.lastKeyAt : -Infinity }, performance.now());
  }

  /** Whether a request that arrives now may take the focus. */
  private mayTakeFocus(): boolean {
    if (!document.hasFocus()) return false;
    if (document.activeElement?.closest(dialogSelector)) return false;
    return !this.typing();
  }

  /** What in `node` (a card about to be replaced) has the focus, when it is a permission dialog. */
  remember(node: Element | undefined): PermissionFocusMemo | undefined {
    const active = document.activeElement;
    if (!node || !active || !node.contains(active)) return undefined;
    const dialog = active.closest<HTMLElement>(dialogSelector);
    const requestId = dialog?.dataset.requestId;
    if (!requestId) return undefined;
    const optionId = active.closest<HTMLElement>(optionSelector)?.dataset.optionId;
    return { requestId, ...(optionId ? { optionId } : {}) };
  }

  /**
   * After a card was rendered (`memo`: what had the focus in its previous node): the focus stays on the same
   * option, or goes back to the composer once the request is gone; a request seen for the first time is
   * announced and may take the focus.
   */
  rendered(node: HTMLElement, memo: PermissionFocusMemo | undefined): void {
    if (memo) this.restore(memo);
    const dialog = node.querySelector<HTMLElement>(dialogSelector);
    if (dialog && this.arrive(dialog) && !memo && this.mayTakeFocus()) this.focusDialog(dialog);
  }

  /** After the whole transcript was rendered again (a snapshot): the same, for every pending request. */
  renderedAll(memo: PermissionFocusMemo | undefined): void {
    if (memo) this.restore(memo);
    const fresh = [...this.transcript.querySelectorAll<HTMLElement>(dialogSelector)].filter((d) => this.arrive(d));
    const newest = fresh.at(-1);
    if (newest && !memo && this.mayTakeFocus()) this.focusDialog(newest);
  }

  /** Moves the focus to the newest pending request; false when there is none. */
  focusNewest(): boolean {
    const dialogs = [...this.transcript.querySelectorAll<HTMLElement>(dialogSelector)];
    if (!dialogs.length) return false;
    const order = (d: HTMLElement): number => this.arrived.get(d.dataset.requestId ?? '') ?? -1;
    const newest = dialogs.reduce((a, b) => (order(b) >= order(a) ? b : a));
    this.focusDialog(newest);
    return true;
  }

  private focusDialog(dialog: HTMLElement, optionId?: string): void {
    const options = [...dialog.querySelectorAll<HTMLElement>(optionSelector)];
    (options.find((o) => optionId !== undefined && o.dataset.optionId === optionId) ?? options[0])?.focus();
    // in view even when the focus was there already (focus() does not scroll then)
    dialog.scrollIntoView({ block: 'nearest' });
  }

  private restore(memo: PermissionFocusMemo): void {
    const dialog = [...this.transcript.querySelectorAll<HTMLElement>(dialogSelector)].find((d) => d.dataset.requestId === memo.requestId);
    if (dialog) this.focusDialog(dialog, memo.optionId);
    else this.composerInput()?.focus(); // answered: back to where the user writes
  }

  /** Registers a dialog's request; true (and announced) the first time this chat sees it. */
  private arrive(dialog: HTMLElement): boolean {
    const requestId = dialog.dataset.requestId;
    if (!requestId || this.arrived.has(requestId)) return false;
    this.arrived.set(requestId, this.arrived.size);
    const title = dialog.querySelector('.permission-desc')?.textContent?.trim() || 'a tool call';
    const what = dialog.dataset.testid === 'elicitation' ? 'Input requested' : 'Permission requested';
    this.live.say(`${what}: ${title}. Press ${reviewPermissionKey} to review it.`);
    this.live.flush();
    return true;
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (isReviewPermissionKey(e, isMac)) {
      if (this.focusNewest()) {
        e.preventDefault();
        e.stopPropagation(); // VS Code does not see it either
      }
      return;
    }
    const inDialog = e.target instanceof Element && e.target.closest(dialogSelector);
    if (!inDialog || e.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      this.composerInput()?.focus();
    } else if (isTextKey(e) && !isTextField(e.target as Element)) {
      // the character goes where the user writes: the focus moves before the key's text is inserted
      this.composerInput()?.focus();
    }
  }
}
