/**
 * The screen-reader live region of the chat: a polite region, off screen, that gets the streamed answer in
 * whole blocks (paragraphs, list items, code) at most once per interval, instead of every DOM change of a
 * streaming message. The transcript itself is not a live region.
 */

/** Characters of one announcement at most (a long answer is read from the transcript). */
const maxChars = 4000;
/** Paragraphs kept in the region (older ones are removed; they were announced). */
const keep = 3;

/** Throttled announcements into a polite live region. */
export class LiveAnnouncer {
  private pending = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAt = -Infinity;

  constructor(readonly element: HTMLElement, private readonly intervalMs = 2000, private readonly batchMs = 400) {
    element.setAttribute('aria-live', 'polite');
    element.setAttribute('aria-atomic', 'false');
    element.setAttribute('aria-relevant', 'additions');
    element.classList.add('sr-only');
  }

  /** Queues text; it is announced with what else comes within the interval. */
  say(text: string): void {
    const t = text.replace(/\s+/g, ' ').trim();
    if (!t) return;
    this.pending = this.pending ? `${this.pending} ${t}` : t;
    if (this.timer) return;
    const wait = Math.max(this.batchMs, this.lastAt + this.intervalMs - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Announces what is queued now (the turn ended). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    const text = this.pending.length > maxChars ? `${this.pending.slice(0, maxChars)}…` : this.pending;
    this.pending = '';
    this.lastAt = performance.now();
    const p = document.createElement('p');
    p.textContent = text;
    this.element.append(p);
    while (this.element.childElementCount > keep) this.element.firstElementChild?.remove();
  }
}
