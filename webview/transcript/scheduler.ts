/**
 * When the transcript renders, and how much at a time. Store changes are coalesced and rendered once per
 * animation frame (the host already batches deltas per ~16 ms): appends to a message are collected and its
 * Markdown is rendered once per frame, within a time budget so that no frame runs long; what is left goes on
 * in tasks between frames. Rendered text goes on the page (a commit) at a bounded rate, since every commit
 * costs the browser a layout and a paint. No DOM here: the page's clock, frames, timers and task queue come
 * in a {@link SchedulerHost}, the frame's work in {@link FrameWork} (docs/chat.md).
 */

/**
 * Milliseconds of text rendering per frame at most (a typical stream's few new characters fit); what is left
 * goes on in tasks between frames, which then also commit it. A frame of a fast stream then holds only the
 * browser's own work, so that a major garbage collection that lands in it (20-27 ms for a 4 MB answer) still
 * leaves it under 50 ms.
 */
export const frameBudgetMs = 1;
/** Milliseconds of text rendering in one such task (a commit, when due, is a task of its own). */
export const sliceBudgetMs = 12;
/**
 * A fast stream's rendered text goes on the page at most this often. Each time costs the browser a layout
 * and a paint; at every frame, a fast stream spent more time in those than in rendering its text.
 */
export const commitIntervalMs = 100;
/** Characters of final text rendered since the last commit below which it goes on the page at once. */
export const smallCommitChars = 2000;
/** Milliseconds between renders while the document is hidden (it gets no animation frames). */
export const hiddenIntervalMs = 100;

/** The page's clock, frames, timers and task queue. */
export interface SchedulerHost {
  now(): number;
  /** Whether the document is hidden (no animation frames come then). */
  hidden(): boolean;
  requestFrame(callback: () => void): number;
  cancelFrame(handle: number): void;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /**
   * Runs `callback` in a task of its own, soon, without the delay of a timer (a message to a MessageChannel):
   * the main thread never idles while the rendering is behind. The scheduler always passes the same callback,
   * and never posts again before it ran.
   */
  postTask(callback: () => void): void;
}

/** What one render of rendered text did. */
export interface TextRendered<N> {
  /** The node whose text was rendered (it is committed later). */
  readonly node: N;
  /** Characters of final text rendered. */
  readonly finalChars: number;
  /** Whether text is left to render. */
  readonly pending: boolean;
}

/** The transcript's side of a frame. */
export interface FrameWork<N> {
  /** The frame's work before its text: snapshots, older entries, terminals, entries. */
  beforeText(deadline: number): void;
  /** Whether the turn ends in this frame: then all of its text goes on the page at once. */
  turnEnds(): boolean;
  /** The frame's work after its text (the state, following the bottom). */
  afterText(): void;
  /** Last in the frame, once the text still to render is scheduled (asking for older entries). */
  afterFrame(): void;
  /** Renders the text of the entry at `index` until `deadline`; undefined when it has none left to render. */
  renderText(index: number, deadline: number): TextRendered<N> | undefined;
  /** Puts a node's rendered text on the page. */
  commitText(node: N): void;
}

/** Frames, slices between frames and commits of the transcript's text. */
export class RenderScheduler<N> {
  private frame: number | undefined;
  private timer: unknown;
  /** Entries whose text has appended (or not yet fully rendered) text. */
  private readonly textPending = new Set<number>();
  /** Nodes with rendered text that is not on the page yet. */
  private readonly textStaged = new Set<N>();
  private lastCommit = -Infinity;
  /** Characters of final text in {@link textStaged}. */
  private stagedChars = 0;
  private commitTimer: unknown;
  /** Whether a task between frames is posted. */
  private continuing = false;
  /** The next task between frames commits (a task renders, or commits: each stays short). */
  private commitNext = false;

  constructor(private readonly host: SchedulerHost, private readonly work: FrameWork<N>) {}

  /** Renders in the next frame (on a timer while the document is hidden). */
  schedule(): void {
    if (this.frame !== undefined || this.timer !== undefined) return;
    // a hidden document gets no animation frames: render on a timer so that nothing piles up
    if (this.host.hidden()) this.timer = this.host.setTimer(this.flush, hiddenIntervalMs);
    else this.frame = this.host.requestFrame(this.flush);
  }

  /** The document was hidden or shown: a scheduled render switches between frames and the timer. */
  visibilityChanged(): void {
    if (this.frame === undefined && this.timer === undefined) return;
    if (this.frame !== undefined) this.host.cancelFrame(this.frame);
    if (this.timer !== undefined) this.host.clearTimer(this.timer);
    this.frame = this.timer = undefined;
    this.schedule();
  }

  /** The entry at `index` has text to render. */
  textChanged(index: number): void {
    this.textPending.add(index);
  }

  /** Forgets all text to render and to commit (the transcript is rendered again from the store). */
  clearText(): void {
    this.textPending.clear();
    this.textStaged.clear();
    this.stagedChars = 0;
  }

  private readonly flush = (): void => {
    this.frame = undefined;
    if (this.timer !== undefined) this.host.clearTimer(this.timer);
    this.timer = undefined;
    const deadline = this.host.now() + frameBudgetMs;

    this.work.beforeText(deadline);

    // while tasks between frames render a fast stream, they also put it on the page: the frame is left to the
    // browser's own work (style, layout, paint)
    const behind = this.continuing;
    if (!behind) this.renderPendingText(deadline);
    const turnEnds = this.work.turnEnds();
    if (!behind || turnEnds) this.commitPendingText(turnEnds);

    this.work.afterText();
    if (this.textPending.size) this.continueSoon();
    this.work.afterFrame();
  };

  private continueSoon(): void {
    if (this.continuing) return;
    this.continuing = true;
    this.host.postTask(this.continuation);
  }

  /** Renders text left over from a frame in a task between frames, or commits it. */
  private readonly continuation = (): void => {
    this.continuing = false;
    if (this.commitNext) {
      this.commitNext = false;
      this.commitPendingText(true);
    } else {
      this.renderPendingText(this.host.now() + sliceBudgetMs);
      const wait = this.commitWait();
      if (wait <= 0) this.commitNext = true;
      else if (!this.textPending.size) this.commitPendingText(false); // the last slice: a timer commits when due
    }
    if (this.textPending.size || this.commitNext) this.continueSoon();
    this.schedule();
  };

  /**
   * Puts rendered text on the page, at most every {@link commitIntervalMs} unless `now` (a turn that ends shows
   * all of its text at once); a later commit is scheduled when it waits.
   */
  private commitPendingText(now: boolean): void {
    const wait = this.commitWait();
    if (wait === Infinity) return;
    if (!now && wait > 0) {
      this.commitTimer ??= this.host.setTimer(() => {
        this.commitTimer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    for (const node of this.textStaged) this.work.commitText(node);
    this.textStaged.clear();
    this.stagedChars = 0;
    this.lastCommit = this.host.now();
  }

  /** Milliseconds until rendered text may go on the page (0 or less: now; Infinity: none waits). */
  private commitWait(): number {
    if (!this.textStaged.size) return Infinity;
    if (this.stagedChars < smallCommitChars) return 0;
    return this.lastCommit + commitIntervalMs - this.host.now();
  }

  /** Renders appended text of the pending entries, newest first, until `deadline`. */
  private renderPendingText(deadline: number): void {
    // newest first: after a snapshot the end of the transcript (what is on screen) shows first
    for (const index of [...this.textPending].sort((a, b) => b - a)) {
      const r = this.work.renderText(index, deadline);
      if (!r) {
        this.textPending.delete(index);
        continue;
      }
      this.textStaged.add(r.node);
      this.stagedChars += r.finalChars;
      if (!r.pending) this.textPending.delete(index);
      if (this.host.now() >= deadline) break;
    }
  }
}
