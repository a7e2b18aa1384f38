// @ts-check
// What the end-to-end bench measures inside the page: {@link frameProbe} runs in every frame of the workbench
// page from its creation (a Playwright init script): the workbench itself, the webview host frames and the
// chat's content frame. Every frame records its long tasks (PerformanceObserver 'longtask', over 50 ms: the
// frames share one renderer main thread in code-server, and each frame is told of the tasks it took part
// in; the bench merges them). The chat's content frame (ours, or the naive client's: both have #transcript
// and a [data-testid="agent-message"] > .markdown) also records, on the wall clock (Date.now(), the clock the
// agent stamps its chunks with):
//   - sendAt: the Enter key press in the composer (capture listener, before the chat handles it);
//   - endAt: when the text with the end marker had been painted (see painted());
//   - stamps: per paced chunk « k@t », when its text had been painted, and t.
// A measurement with `floor` set empties the text of every append the chat's window receives, before the
// chat's own listener sees it (a capture listener on the window runs first; every listener of a message
// event reads the same data object), and ends when the message with the end marker arrived: the time the
// host, the workbench and the webview's relay take to bring the answer to a chat that renders nothing.
// "Painted": a change to the transcript is seen by a MutationObserver; the frame that paints it is the one
// whose callbacks made it, or else the next one; a task posted from that frame runs after its paint.
// The probe polls for the transcript only in a webview's content frame (two levels below the workbench), and
// only until it exists or for 20 s
// (the webview host writes that frame with document.open(), which drops earlier animation frames and
// observers): when nothing streams it costs nothing.

/**
 * The init script. Its state is `globalThis.__e2e`; `__e2e.reset(paced)` starts a measurement.
 * @param {string} marker the text the answer's last chunk ends with
 */
export function frameProbe(marker) {
  /** @type {{ start: number, duration: number }[]} */
  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch { /* not supported here */ }
  const state = {
    longTasks,
    chat: false,
    paced: false,
    sendAt: 0,
    endAt: 0,
    /** @type {Record<string, [number, number]>} chunk index -> [written, painted] */
    stamps: {},
    /** @type {Record<string, number>} chunk index -> when the chat's window received it */
    received: {},
    /** When the chat's window received the stream's last message (Date.now()) */
    lastMessageAt: 0,
    /** Answers in the chat before this measurement: the end marker counts only in a newer one. */
    answersBefore: 0,
    /** Whether the chat is given no text to render (the relay's floor, above). */
    floor: false,
    /**
     * @param {boolean} paced @param {number} [answersBefore] the answers already in the chat (a later turn)
     * @param {boolean} [floor] the relay's floor: the appends' text is taken out before the chat sees it
     */
    reset(paced, answersBefore = 0, floor = false) {
      state.paced = paced;
      state.floor = floor;
      state.answersBefore = answersBefore;
      state.sendAt = 0;
      state.endAt = 0;
      state.stamps = {};
      state.received = {};
      state.lastMessageAt = 0;
    },
  };
  Object.assign(globalThis, { __e2e: state });
  const stampRe = /«(\d+)@(\d+)»/g;
  /** @type {Node[]} */
  let changed = [];
  let framePending = false;
  /** The message's last block (ours: the tail; the naive client: its last paragraph). */
  const lastBlock = () => {
    // counted by their entries, which stay in the DOM (an answer far from the view is frozen, its nodes detached)
    const answers = document.querySelectorAll('[data-testid="agent-message"]');
    if (answers.length <= state.answersBefore) return undefined;
    const parts = answers[answers.length - 1].querySelectorAll('.markdown');
    return parts[parts.length - 1]?.lastElementChild;
  };
  /** Reads the changed nodes for stamps and the end marker; stamps them in the task after the next paint. */
  const check = () => {
    const nodes = changed;
    changed = [];
    /** @type {string[]} */
    const seen = [];
    if (state.paced) {
      for (const n of new Set(nodes)) {
        if (!n.isConnected) continue;
        for (const m of (n.textContent ?? '').matchAll(stampRe)) if (!state.stamps[m[1]]) seen.push(m[1], m[2]);
      }
    }
    const ended = state.sendAt > 0 && !state.endAt && (lastBlock()?.textContent ?? '').includes(marker);
    if (!seen.length && !ended) return;
    setTimeout(() => {
      const now = Date.now();
      for (let i = 0; i < seen.length; i += 2) state.stamps[seen[i]] ??= [Number(seen[i + 1]), now];
      if (ended && !state.endAt) {
        state.endAt = now;
        console.timeStamp('e2e-end'); // bounds the measured stream in a trace (trace.mjs)
      }
    }, 0);
  };
  /** @type {MutationObserver | undefined} */
  let observer;
  /** @param {MutationRecord[]} records */
  const collect = (records) => {
    if (!state.sendAt) return false;
    for (const r of records) {
      if (r.type === 'characterData') changed.push(r.target);
      else if (state.paced) for (const n of r.addedNodes) changed.push(n);
    }
    return records.length > 0;
  };
  // A change made in an animation frame callback is painted in that frame: the page's frame callbacks are
  // wrapped, and their changes taken right after them (a task posted then runs after that paint). A change
  // made in any other task is painted in the next frame.
  const nativeFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => nativeFrame((t) => {
    try { callback(t); } finally { if (observer && collect(observer.takeRecords())) check(); }
  });
  const watch = (/** @type {HTMLElement} */ transcript) => {
    state.chat = true;
    observer = new MutationObserver((records) => {
      if (!collect(records) || framePending) return;
      framePending = true;
      nativeFrame(() => { framePending = false; check(); });
    });
    observer.observe(transcript, { childList: true, subtree: true, characterData: true });
    // when a paced chunk reached the chat's window (the host's and the workbench's part of the lag)
    window.addEventListener('message', (e) => {
      if (!state.sendAt) return;
      const now = Date.now();
      // the stream's last message (any run): the host's and the workbench's part of the time
      if (!state.endAt && (e.data?.params?.deltas || typeof e.data?.text === 'string')) state.lastMessageAt = now;
      if (state.floor && Array.isArray(e.data?.params?.deltas)) {
        for (const d of e.data.params.deltas) {
          if (d?.op !== 'append' || typeof d.text !== 'string') continue;
          if (!state.endAt && d.text.includes(marker)) {
            state.endAt = now;
            console.timeStamp('e2e-end');
          }
          d.text = '';
        }
      }
      if (!state.paced) return;
      const texts = typeof e.data?.text === 'string' ? [e.data.text] : (e.data?.params?.deltas ?? []).map((/** @type {any} */ d) => d.text ?? '');
      for (const t of texts) for (const m of String(t).matchAll(stampRe)) state.received[m[1]] ??= now;
    }, true);
    document.addEventListener('keydown', (e) => {
      const t = /** @type {Element | null} */ (e.target);
      if (e.key === 'Enter' && !e.shiftKey && t?.closest?.('[data-testid="composer-input"]')) {
        state.sendAt = Date.now();
        console.timeStamp('e2e-send');
      }
    }, true);
  };
  // only a webview's content frame (inside the webview host's frame, inside the workbench) can hold a chat:
  // the workbench and the webview host frames never poll, so an idle measurement has no probe in it
  if (window === window.top || window.parent === window.top) return;
  const started = Date.now();
  const poll = setInterval(() => {
    const transcript = document.getElementById('transcript');
    if (transcript) watch(transcript);
    if (transcript || Date.now() - started > 20_000) clearInterval(poll);
  }, 20);
}
