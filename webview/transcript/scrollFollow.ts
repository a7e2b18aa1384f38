/**
 * Following new content: the transcript stays scrolled to the bottom until the user scrolls up, and a Jump
 * to latest button brings the view back and follows again. Only the user's own scrolling stops the following:
 * a wheel, a touch, a scrolling key, or a drag of the scrollbar. Every other scroll is the page's own
 * (following new content, scroll anchoring, blocks above shrinking to their remembered size with
 * `content-visibility`) and must not stop it, however far from the bottom it leaves the view for a moment.
 * No DOM here: scrollEvents.ts feeds the page's events in (docs/chat.md).
 */

/** The scrolling element, as far as following needs it. */
export interface ScrollBox {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/** The element a key went to, as far as telling a scrolling key needs it. */
export interface KeyTarget {
  readonly isContentEditable?: boolean;
  closest(selectors: string): unknown;
}

/** Watches an element's size (a ResizeObserver). */
export interface SizeWatcher<E> {
  observe(element: E): void;
  unobserve(element: E): void;
}

export interface ScrollFollowDeps<E> {
  readonly box: ScrollBox;
  now(): number;
  /** Shows or hides the Jump to latest button. */
  showJumpToLatest(show: boolean): void;
  /** Watches the last entry; its callback calls {@link ScrollFollow.followBottom}. */
  readonly lastEntry: SizeWatcher<E>;
  /** Runs `fn` before the next frame (requestAnimationFrame); without it there is no settling. */
  readonly nextFrame?: (fn: () => void) => void;
}

/** Milliseconds after new content during which the view keeps going back to the bottom, frame by frame. */
export const settleMs = 1000;

/** Milliseconds after a gesture (wheel, touch, key, scrollbar drag) during which a scroll counts as the user's. */
export const userScrollMs = 250;
/** Pixels from the bottom within which a scroll by the user follows again. */
export const stickPx = 40;
const scrollKeys = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

/** Whether the transcript follows new content, and what the user's scrolling does to that. */
export class ScrollFollow<E> {
  /** Whether the transcript follows new content (the user has not scrolled up). */
  stick = true;
  /** Until when a scroll event counts as the user's. */
  private userScrollUntil = 0;
  private scrollbarDrag = false;
  private observedLast: E | null = null;

  constructor(private readonly deps: ScrollFollowDeps<E>) {}

  /** A gesture of the user that scrolls (a wheel, a touch): the scrolls that follow are the user's. */
  userScrolls(): void {
    this.userScrollUntil = this.deps.now() + userScrollMs;
  }

  /** A pointer went down; `onBox`: on the scrolling element itself (its scrollbar), not on its content. */
  pointerDown(onBox: boolean): void {
    if (onBox) this.scrollbarDrag = true;
  }

  /** A pointer went up: a scrollbar drag ends. */
  pointerUp(): void {
    if (this.scrollbarDrag) this.userScrolls();
    this.scrollbarDrag = false;
  }

  /** A key went down on `target` (an element, or undefined for anything else). */
  keyDown(key: string, target: KeyTarget | undefined): void {
    if (!scrollKeys.has(key) || !target) return;
    // typing, and Space on a button, do not scroll the transcript
    if (target.isContentEditable === true || target.closest('textarea, input, select')) return;
    if (key === ' ' && target.closest('button, summary, [role="button"], [role="link"]')) return;
    this.userScrolls();
  }

  /** The box scrolled: when the user did it, the view follows again only near the bottom. */
  scrolled(): void {
    if (!this.scrollbarDrag && this.deps.now() > this.userScrollUntil) return;
    const box = this.deps.box;
    this.stick = box.scrollHeight - box.scrollTop - box.clientHeight < stickPx;
    this.deps.showJumpToLatest(!this.stick);
  }

  private settleUntil = 0;
  private settling = false;

  /**
   * Keeps the transcript scrolled to the bottom while it follows new content (this lays the page out). For
   * {@link settleMs} after it, each frame goes back to the bottom if the view is no longer there: an entry
   * other than the last one can still take its real height then (`content-visibility` placeholders, a card
   * rendered again), which moves the bottom without a resize of the last entry. A permission dialog left
   * below the view would never be seen, and so never armed (permissionGuard.ts).
   */
  followBottom(): void {
    if (!this.stick) return;
    this.deps.box.scrollTop = this.deps.box.scrollHeight;
    this.settleUntil = this.deps.now() + settleMs;
    if (!this.settling && this.deps.nextFrame) {
      this.settling = true;
      this.deps.nextFrame(() => this.settle());
    }
  }

  private settle(): void {
    this.settling = false;
    if (!this.stick || this.deps.now() > this.settleUntil || !this.deps.nextFrame) return;
    const box = this.deps.box;
    if (box.scrollHeight - box.scrollTop - box.clientHeight > 1) box.scrollTop = box.scrollHeight;
    this.settling = true;
    this.deps.nextFrame(() => this.settle());
  }

  /**
   * The page showed something far above at the user's request (a Find match, webview/transcript/freezer.ts):
   * the view no longer follows new content, as if the user had scrolled there.
   */
  stopFollowing(): void {
    if (!this.stick) return;
    this.stick = false;
    this.deps.showJumpToLatest(true);
  }

  /** Jump to latest: back to the newest content, following it again. */
  jumpToLatest(): void {
    this.stick = true;
    this.deps.showJumpToLatest(false);
    this.followBottom();
  }

  /**
   * The last entry can change its height after the frame that changed it: blocks of a long answer take their
   * real height once laid out (`content-visibility`), a code block or an image settles. Following goes on
   * then: the last entry is the one watched.
   */
  watchLast(last: E | null): void {
    if (last === this.observedLast) return;
    if (this.observedLast) this.deps.lastEntry.unobserve(this.observedLast);
    if (last) this.deps.lastEntry.observe(last);
    this.observedLast = last;
  }
}
