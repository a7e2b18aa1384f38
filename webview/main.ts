/**
 * The chat webview: renders one session from a snapshot plus deltas, and sends the user's actions to the
 * host. Imports only src/shared (ARCHITECTURE.md 1.2).
 *
 * Store changes are coalesced and rendered once per animation frame (the host already batches deltas per
 * ~16 ms): appends to a message are collected and its Markdown is rendered once per frame, within a time
 * budget so that no frame runs long; a message that arrives whole (a snapshot) is rendered over several
 * frames. A snapshot carries only the newest entries, so a long session shows its end at once; the older
 * entries are asked for a page at a time after each painted frame and put before them. Streamed answers reach
 * screen readers through a polite, throttled live region.
 */
import './styles/chat.css';
import {
  CancelTurnCommand, CopyCodeCommand, DidChangeNotification, DidEntriesNotification, DidSnapshotNotification, InsertCodeCommand, isIpc,
  OpenLinkCommand, ReadyCommand, RequestEntriesCommand, RequestSnapshotCommand, SendPromptCommand, ToggleFollowCommand,
} from '../src/shared/chatProtocol';
import type { DidChangeParams, DidEntriesParams } from '../src/shared/chatProtocol';
import { olderEntriesPage } from '../src/shared/viewModel';
import type { EntryView, ThreadSnapshot } from '../src/shared/viewModel';
import { button } from './components/button';
import { hostIpc } from './hostIpc';
import { ChatStore } from './store';
import type { StoreChange } from './store';
import { Composer } from './views/composer';
import { renderEntry } from './views/entries';
import { Header } from './views/header';
import { LiveAnnouncer } from './views/liveRegion';
import { installMarkdownActions, warmUp } from './views/markdown';
import { PermissionFocus } from './views/permissionFocus';
import { appendText, collapseThought, commitText, isTextNode, needsRender, renderText, setThinking, tailText, updateAgentText } from './views/messages';
import { appendTerminalOutput, refreshTerminal } from './views/terminal';

/**
 * Milliseconds of text rendering per frame at most (a typical stream's few new characters fit); what is left
 * goes on in tasks between frames, which then also commit it. A frame of a fast stream then holds only the
 * browser's own work, so that a major garbage collection that lands in it (20-27 ms for a 4 MB answer) still
 * leaves it under 50 ms.
 */
const frameBudgetMs = 1;
/** Milliseconds of text rendering in one such task (a commit, when due, is a task of its own). */
const sliceBudgetMs = 12;
/**
 * A fast stream's rendered text goes on the page at most this often. Each time costs the browser a layout
 * and a paint; at every frame, a fast stream spent more time in those than in rendering its text.
 */
const commitIntervalMs = 100;
/** Characters of final text rendered since the last commit below which it goes on the page at once. */
const smallCommitChars = 2000;

const ipc = hostIpc();
const store = new ChatStore((reason) => ipc.post(RequestSnapshotCommand, { reason }));
const transcript = document.getElementById('transcript') as HTMLElement;
const header = new Header(document.getElementById('header') as HTMLElement, { toggleFollow: () => ipc.post(ToggleFollowCommand, {}) });
const composer = new Composer(document.getElementById('composer') as HTMLElement, {
  send: (text) => ipc.post(SendPromptCommand, { text }),
  cancel: () => ipc.post(CancelTurnCommand, {}),
});
const renderContext = { ipc, terminals: (id: string) => store.terminals.get(id) };
const nodes: HTMLElement[] = [];
const live = new LiveAnnouncer(document.getElementById('live') ?? document.body.appendChild(document.createElement('div')));
live.element.id = 'live';
live.element.setAttribute('data-testid', 'live-region');
/** Where the focus goes when a permission request arrives, and the key that reaches it (permissionFocus.ts). */
const permissionFocus = new PermissionFocus(transcript, live, () => document.querySelector<HTMLElement>('[data-testid="composer-input"]'));

installMarkdownActions(document.body, {
  openLink: (href) => ipc.post(OpenLinkCommand, { href }),
  copyCode: (code, language) => ipc.post(CopyCodeCommand, { code, language }),
  insertCode: (code, language) => ipc.post(InsertCodeCommand, { code, language }),
});

// ---- what changed since the last frame ----
let resetPending = false;
/** Older entries that arrived: indices [from, to) go before the node of `to`. */
let olderPending: { from: number; to: number } | undefined;
/** Whether a request for older entries is out. */
let olderRequested = false;
let statePending = false;
/** Entries to render (again) from the store. */
const entriesPending = new Set<number>();
/** Text nodes with appended (or not yet fully rendered) text. */
const textPending = new Set<number>();
/** Nodes with rendered text that is not on the page yet. */
const textStaged = new Set<HTMLElement>();
let lastCommit = -Infinity;
/** Characters of final text in {@link textStaged}. */
let stagedChars = 0;
let commitTimer: ReturnType<typeof setTimeout> | undefined;
/** Terminals whose every node is rebuilt from the store's view. */
const terminalsPending = new Set<string>();
/** Output appended to terminals: the carry before the first piece, and the pieces. */
const terminalOutput = new Map<string, { carry: string; text: string[] }>();
let frame: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Renders text left over from a frame in tasks between frames (the main thread never idles while behind). */
const continuation = new MessageChannel();
let continuing = false;

function schedule(): void {
  if (frame !== undefined || timer !== undefined) return;
  // a hidden document gets no animation frames: render on a timer so that nothing piles up
  if (document.visibilityState === 'hidden') timer = setTimeout(flush, 100);
  else frame = requestAnimationFrame(flush);
}

function continueSoon(): void {
  if (continuing) return;
  continuing = true;
  continuation.port2.postMessage(undefined);
}
/** The next task between frames commits (a task renders, or commits: each stays short). */
let commitNext = false;
continuation.port1.onmessage = () => {
  continuing = false;
  if (commitNext) {
    commitNext = false;
    commitPendingText(true);
  } else {
    renderPendingText(performance.now() + sliceBudgetMs);
    const wait = commitWait();
    if (wait <= 0) commitNext = true;
    else if (!textPending.size) commitPendingText(false); // the last slice: a timer commits when due
  }
  if (textPending.size || commitNext) continueSoon();
  schedule();
};

/** Whether the transcript follows new content (the user has not scrolled up). */
let stick = true;
/**
 * Until when a scroll event counts as the user's: a wheel, a touch, a scrolling key, or a drag of the
 * scrollbar (pointer down on the transcript itself). Every other scroll is the page's own: following new
 * content, scroll anchoring, blocks above shrinking to their remembered size (`content-visibility`). Those
 * must not stop the following, however far from the bottom they leave the view for a moment.
 */
let userScrollUntil = 0;
let scrollbarDrag = false;
const userScrolls = (): void => { userScrollUntil = performance.now() + 250; };
const scrollKeys = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);
transcript.addEventListener('wheel', userScrolls, { passive: true });
transcript.addEventListener('touchmove', userScrolls, { passive: true });
transcript.addEventListener('pointerdown', (e) => { if (e.target === transcript) scrollbarDrag = true; });
window.addEventListener('pointerup', () => { if (scrollbarDrag) userScrolls(); scrollbarDrag = false; });
document.addEventListener('keydown', (e) => {
  const t = e.target;
  if (!scrollKeys.has(e.key) || !(t instanceof Element)) return;
  // typing, and Space on a button, do not scroll the transcript
  if ((t instanceof HTMLElement && t.isContentEditable) || t.closest('textarea, input, select')) return;
  if (e.key === ' ' && t.closest('button, summary, [role="button"], [role="link"]')) return;
  userScrolls();
});
transcript.addEventListener('scroll', () => {
  if (!scrollbarDrag && performance.now() > userScrollUntil) return;
  stick = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  showJumpToLatest(!stick);
}, { passive: true });

/**
 * While the view does not follow: a button back to the newest content, following it again. Made when first
 * needed (the toolkit's components are not loaded before a chat needs one).
 */
let jumpBar: HTMLElement | undefined;
function showJumpToLatest(show: boolean): void {
  if (!show && !jumpBar) return;
  if (!jumpBar) {
    const bar = document.createElement('div');
    bar.className = 'jump-latest-bar';
    bar.append(button({
      label: 'Jump to latest', icon: 'arrow-down', testId: 'jump-latest', className: 'jump-latest',
      title: 'Scroll to the newest message and follow it again',
      onClick: () => {
        const hadFocus = bar.contains(document.activeElement);
        stick = true;
        showJumpToLatest(false);
        followBottom();
        // the button is gone: keep the keyboard where the user goes on
        if (hadFocus) document.querySelector<HTMLElement>('[data-testid="composer-input"]')?.focus();
      },
    }));
    transcript.after(bar);
    jumpBar = bar;
  }
  jumpBar.hidden = !show;
}

/** Keeps the transcript scrolled to the bottom while it follows new content (this lays the page out). */
function followBottom(): void {
  if (stick) transcript.scrollTop = transcript.scrollHeight;
}

/**
 * The last entry can change its height after the frame that changed it: blocks of a long answer take their
 * real height once laid out (`content-visibility`), a code block or an image settles. Following goes on then.
 */
const lastEntryObserver = new ResizeObserver(() => followBottom());
let observedLast: Element | null = null;
function observeLastEntry(): void {
  const last = transcript.lastElementChild;
  if (last === observedLast) return;
  if (observedLast) lastEntryObserver.unobserve(observedLast);
  if (last) lastEntryObserver.observe(last);
  observedLast = last;
}

function onStoreChange(change: StoreChange): void {
  switch (change.type) {
    case 'reset':
      resetPending = true;
      olderPending = undefined;
      break;
    case 'older':
      if (resetPending) break; // rendered from the store anyway
      olderPending = { from: change.from, to: olderPending?.to ?? change.to };
      break;
    case 'append': {
      const node = nodes[change.index];
      if (resetPending || entriesPending.has(change.index)) break; // rendered from the store anyway
      if (node && isTextNode(node)) {
        appendText(node, change.text); // O(chunk): rendered in the frame
        textPending.add(change.index);
      } else {
        entriesPending.add(change.index);
      }
      break;
    }
    case 'entry':
      entriesPending.add(change.index);
      break;
    case 'state':
      statePending = true;
      break;
    case 'terminal':
      terminalsPending.add(change.terminalId);
      terminalOutput.delete(change.terminalId);
      break;
    case 'terminalOutput': {
      if (terminalsPending.has(change.terminalId)) break;
      const queued = terminalOutput.get(change.terminalId);
      if (queued) queued.text.push(change.text);
      else terminalOutput.set(change.terminalId, { carry: change.carry, text: [change.text] });
      break;
    }
  }
  schedule();
}

/** Whether a thought at `index` is still the agent's current thinking (no answer and no new prompt after it). */
function thoughtIsCurrent(entries: readonly EntryView[], index: number): boolean {
  for (let i = index + 1; i < entries.length; i++) if (entries[i].kind === 'agent' || entries[i].kind === 'user') return false;
  return true;
}

function renderAt(index: number): { node: HTMLElement; created: boolean } | undefined {
  const entry = store.entries[index];
  if (!entry) return undefined;
  const old = nodes[index];
  if (old && (entry.kind === 'agent' || entry.kind === 'thought') && updateAgentText(old, entry)) {
    textPending.add(index);
    return { node: old, created: false };
  }
  const node = renderEntry(entry, renderContext);
  const focusMemo = permissionFocus.remember(old);
  if (old) old.replaceWith(node);
  else transcript.append(node);
  nodes[index] = node;
  if (isTextNode(node)) textPending.add(index);
  // a new permission request may take the focus (never from a user who is typing); a re-rendered one keeps it
  permissionFocus.rendered(node, focusMemo);
  return { node, created: !old };
}

function renderAll(): void {
  const focusMemo = permissionFocus.remember(transcript);
  transcript.replaceChildren();
  nodes.length = 0;
  entriesPending.clear();
  textPending.clear();
  textStaged.clear();
  stagedChars = 0;
  terminalsPending.clear();
  terminalOutput.clear();
  store.entries.forEach((_entry, i) => {
    const node = renderWhole(i);
    if (node) transcript.append(node);
  });
  // a pending permission may take the focus, as when it arrived
  permissionFocus.renderedAll(focusMemo);
  header.render(store.state);
  composer.setState(store.state);
  lastStatus = store.state?.status;
}

/**
 * The node of an entry that arrived whole (a snapshot, older entries): registered, its text queued for
 * rendering but not announced, a thought collapsed unless it is the agent's current thinking.
 */
function renderWhole(index: number): HTMLElement | undefined {
  const entry = store.entries[index];
  if (!entry) return undefined;
  const node = renderEntry(entry, renderContext);
  nodes[index] = node;
  silent.add(node);
  if (isTextNode(node)) textPending.add(index);
  if (entry.kind === 'thought') {
    if (!thoughtIsCurrent(store.entries, index)) collapseThought(node);
    else setThinking(node, store.state?.status === 'working');
  }
  return node;
}

/**
 * Renders older entries that arrived before the oldest rendered one (scroll anchoring keeps the view), ten at
 * a time, newest first, until `deadline`; returns the index down to which it rendered (`from` when done).
 */
function renderOlder(from: number, to: number, deadline: number): number {
  let end = to;
  while (end > from) {
    const start = Math.max(from, end - 10);
    const fragment = document.createDocumentFragment();
    for (let i = start; i < end; i++) {
      const node = renderWhole(i);
      if (node) fragment.append(node);
    }
    let next = end;
    while (next < nodes.length && !nodes[next]) next++;
    transcript.insertBefore(fragment, nodes[next] ?? null);
    end = start;
    if (performance.now() >= deadline) break;
  }
  return end;
}

/** Asks for the entries before the oldest one the store has, one page at a time, after this frame painted. */
function requestOlder(): void {
  if (olderRequested || olderPending || store.firstIndex <= 0) return;
  olderRequested = true;
  setTimeout(() => ipc.post(RequestEntriesCommand, { before: store.firstIndex, count: olderEntriesPage }), 0);
}

/** Thoughts collapse when the answer starts; a new prompt ends a thought's "Thinking…" too. */
function afterNewEntry(index: number): void {
  const kind = store.entries[index]?.kind;
  if (kind !== 'agent' && kind !== 'user') return;
  for (let i = index - 1; i >= store.firstIndex; i--) {
    const e = store.entries[i];
    if (e.kind === 'user') break;
    if (e.kind !== 'thought') continue;
    setThinking(nodes[i], false);
    if (kind === 'agent') collapseThought(nodes[i]);
  }
}

/** Messages rendered from a snapshot: what they already had is not announced again. */
const silent = new WeakSet<HTMLElement>();
let lastStatus: string | undefined;
/** The last agent message, for the live region at the end of a turn. */
let lastAgentNode: HTMLElement | undefined;

function flush(): void {
  frame = undefined;
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  const deadline = performance.now() + frameBudgetMs;

  if (resetPending) {
    resetPending = false;
    statePending = false;
    renderAll();
  }
  if (olderPending) {
    const done = renderOlder(olderPending.from, olderPending.to, deadline);
    olderPending = done > olderPending.from ? { from: olderPending.from, to: done } : undefined;
    if (olderPending) schedule();
  }
  // terminals first: they update the nodes of cards that are not rendered again below
  for (const id of terminalsPending) refreshTerminal(transcript, id, store.terminals.get(id));
  terminalsPending.clear();
  for (const [id, out] of terminalOutput) appendTerminalOutput(transcript, id, out.carry, out.text.join(''), store.terminals.get(id));
  terminalOutput.clear();

  for (const index of [...entriesPending].sort((a, b) => a - b)) {
    const r = renderAt(index);
    if (!r?.created) continue;
    const entry = store.entries[index];
    if (entry.kind === 'thought' && store.state?.status === 'working') {
      setThinking(r.node, true);
      live.say('Thinking…');
    }
    afterNewEntry(index);
  }
  entriesPending.clear();

  // while tasks between frames render a fast stream, they also put it on the page: the frame is left to the
  // browser's own work (style, layout, paint)
  const behind = continuing;
  if (!behind) renderPendingText(deadline);
  const turnEnds = statePending && lastStatus === 'working' && store.state?.status !== 'working';
  if (!behind || turnEnds) commitPendingText(turnEnds);

  if (statePending) {
    statePending = false;
    header.render(store.state);
    composer.setState(store.state);
    const status = store.state?.status;
    if (status !== lastStatus) {
      if (lastStatus === 'working' && status !== 'working') {
        // the turn ended: the rest of the answer, now
        if (lastAgentNode) live.say(tailText(lastAgentNode));
        lastAgentNode = undefined;
        live.flush();
        nodes.forEach((n) => setThinking(n, false));
      }
      lastStatus = status;
    }
  }

  observeLastEntry();
  followBottom();
  if (textPending.size) continueSoon();
  requestOlder();
}

/**
 * Puts rendered text on the page, at most every {@link commitIntervalMs} unless `now` (a turn that ends shows
 * all of its text at once); a later commit is scheduled when it waits.
 */
function commitPendingText(now: boolean): void {
  const wait = commitWait();
  if (wait === Infinity) return;
  if (!now && wait > 0) {
    commitTimer ??= setTimeout(() => {
      commitTimer = undefined;
      schedule();
    }, wait);
    return;
  }
  for (const node of textStaged) commitText(node);
  textStaged.clear();
  stagedChars = 0;
  lastCommit = performance.now();
}

/** Milliseconds until rendered text may go on the page (0 or less: now; Infinity: none waits). */
function commitWait(): number {
  if (!textStaged.size) return Infinity;
  if (stagedChars < smallCommitChars) return 0;
  return lastCommit + commitIntervalMs - performance.now();
}

/** Renders appended text of the pending messages, newest first, until `deadline`. */
function renderPendingText(deadline: number): void {
  // newest first: after a snapshot the end of the transcript (what is on screen) shows first
  for (const index of [...textPending].sort((a, b) => b - a)) {
    const node = nodes[index];
    if (!node || !needsRender(node)) {
      textPending.delete(index);
      continue;
    }
    const r = renderText(node, deadline);
    textStaged.add(node);
    stagedChars += r.finalText.length;
    if (r.kind === 'agent' && !silent.has(node)) {
      live.say(r.finalText);
      lastAgentNode = node;
    }
    if (!r.pending) {
      textPending.delete(index);
      silent.delete(node);
    }
    if (performance.now() >= deadline) break;
  }
}

store.subscribe(onStoreChange);
document.addEventListener('visibilitychange', () => {
  if (frame === undefined && timer === undefined) return;
  // switch between frames and the timer
  if (frame !== undefined) cancelAnimationFrame(frame);
  if (timer !== undefined) clearTimeout(timer);
  frame = timer = undefined;
  schedule();
});

ipc.onMessage((msg) => {
  if (isIpc(DidSnapshotNotification, msg)) store.applySnapshot(msg.params as ThreadSnapshot);
  else if (isIpc(DidChangeNotification, msg)) store.applyChange(msg.params as DidChangeParams);
  else if (isIpc(DidEntriesNotification, msg)) {
    olderRequested = false;
    if (!store.applyOlder(msg.params as DidEntriesParams)) requestOlder(); // stale: ask again from where the store is
  }
});
ipc.post(ReadyCommand, {});
// compile the Markdown path before the first answer streams in
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => warmUp(), { timeout: 2000 });
else setTimeout(warmUp, 200);
