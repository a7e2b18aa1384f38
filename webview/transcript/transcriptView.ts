/**
 * The transcript: one node per entry of the store, rendered from a snapshot plus deltas. Changes are
 * coalesced (pendingChanges.ts) and rendered once per frame (scheduler.ts). A snapshot carries only the
 * newest entries, so a long session shows its end at once; the older entries are asked for a page at a time
 * after each painted frame and put before them. Streamed answers reach screen readers through a polite,
 * throttled live region (docs/chat.md).
 */
import type { DidLoadEntriesParams } from '../../src/shared/chatProtocol';
import { olderEntriesPage } from '../../src/shared/viewModel';
import type { EntryView, ThreadStateView } from '../../src/shared/viewModel';
import type { ChatActions } from '../actions';
import type { ChatStore, StoreChange } from '../store';
import { updateCompactionNode } from '../views/compaction';
import { subagentEnded, updateSubagentNode } from '../views/subagent';
import { renderEntry, syncAfterRestore } from '../views/entries';
import type { RenderContext } from '../views/entries';
import type { LiveAnnouncer } from '../views/liveRegion';
import { appendText, collapseThought, commitText, isTextNode, needsRender, renderText, setThinking, tailText, updateAgentText } from '../views/messages';
import type { PermissionFocus } from '../views/permissionFocus';
import { appendTerminalOutput, refreshTerminal, restoreTerminalScroll, terminalScroll } from '../views/terminal';
import { PendingChanges } from './pendingChanges';
import { RenderScheduler } from './scheduler';
import type { SchedulerHost, TextRendered } from './scheduler';
import type { ScrollFollow } from './scrollFollow';
import type { TranscriptFocus } from './transcriptFocus';

/** What the transcript works with. */
export interface TranscriptDeps {
  /** The transcript element: the entries' nodes are its children. */
  readonly root: HTMLElement;
  readonly store: ChatStore;
  readonly context: RenderContext;
  readonly actions: Pick<ChatActions, 'requestEntries'>;
  readonly live: LiveAnnouncer;
  /** Where the focus goes when a permission request arrives. */
  readonly permissionFocus: PermissionFocus;
  readonly follow: ScrollFollow<Element>;
  /** The transcript's one Tab stop and its keys (transcriptFocus.ts). */
  readonly focus?: Pick<TranscriptFocus, 'framed' | 'remember' | 'replaced'>;
  /** Renders the session's state outside the transcript (the header, the composer). */
  renderState(state: ThreadStateView | undefined): void;
  readonly host: SchedulerHost;
}

/** The page's clock, frames, timers and task queue. */
export function pageSchedulerHost(): SchedulerHost {
  const channel = new MessageChannel();
  let task: () => void = () => undefined;
  channel.port1.onmessage = () => task();
  return {
    now: () => performance.now(),
    hidden: () => document.visibilityState === 'hidden',
    requestFrame: (callback) => requestAnimationFrame(callback),
    cancelFrame: (handle) => cancelAnimationFrame(handle),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    postTask: (callback) => {
      task = callback;
      channel.port2.postMessage(undefined);
    },
  };
}

/** Whether a thought at `index` is still the agent's current thinking (no answer and no new prompt after it). */
function thoughtIsCurrent(entries: readonly EntryView[], index: number): boolean {
  for (let i = index + 1; i < entries.length; i++) if (entries[i].kind === 'agent' || entries[i].kind === 'user') return false;
  return true;
}

/** The rendered transcript of one session. */
export class TranscriptView {
  /** By entry index, like the store's entries. */
  private readonly nodes: HTMLElement[] = [];
  private readonly pending = new PendingChanges();
  private readonly scheduler: RenderScheduler<HTMLElement>;
  /** Whether a request for older entries is out. */
  private olderRequested = false;
  /** Messages rendered from a snapshot: what they already had is not announced again. */
  private readonly silent = new WeakSet<HTMLElement>();
  private lastStatus: string | undefined;
  /** The last agent message, for the live region at the end of a turn. */
  private lastAgentNode: HTMLElement | undefined;

  constructor(private readonly deps: TranscriptDeps) {
    this.scheduler = new RenderScheduler<HTMLElement>(deps.host, {
      beforeText: (deadline) => this.beforeText(deadline),
      turnEnds: () => this.pending.state && this.lastStatus === 'working' && this.deps.store.state?.status !== 'working',
      afterText: () => this.afterText(),
      afterFrame: () => this.requestOlder(),
      renderText: (index, deadline) => this.renderEntryText(index, deadline),
      commitText: (node) => commitText(node),
    });
  }

  /** The store changed: rendered in the next frame. */
  changed(change: StoreChange): void {
    this.pending.add(change, (index, text) => {
      const node = this.nodes[index];
      if (!node || !isTextNode(node)) return false;
      appendText(node, text); // O(chunk): rendered in the frame
      this.scheduler.textChanged(index);
      return true;
    });
    this.scheduler.schedule();
  }

  /** Older entries arrived from the host. */
  olderEntries(p: DidLoadEntriesParams): void {
    this.olderRequested = false;
    if (!this.deps.store.applyOlder(p)) this.requestOlder(); // stale: ask again from where the store is
  }

  /** The document was hidden or shown. */
  visibilityChanged(): void {
    this.scheduler.visibilityChanged();
  }

  private renderAt(index: number): { node: HTMLElement; created: boolean } | undefined {
    const { store, context, root, permissionFocus } = this.deps;
    const entry = store.entries[index];
    if (!entry) return undefined;
    const old = this.nodes[index];
    if (old && (entry.kind === 'agent' || entry.kind === 'thought') && updateAgentText(old, entry)) {
      syncAfterRestore(old, entry);
      this.scheduler.textChanged(index);
      return { node: old, created: false };
    }
    if (old && entry.kind === 'compaction' && updateCompactionNode(old, entry)) {
      syncAfterRestore(old, entry);
      return { node: old, created: false };
    }
    if (old && entry.kind === 'subagent') {
      // updated in place; a permission request of the subagent is one of the chat's (focus, announcement)
      const memo = permissionFocus.remember(old);
      const was = old.getAttribute('data-status');
      if (updateSubagentNode(old, entry)) {
        permissionFocus.rendered(old, memo);
        if (was !== entry.status && subagentEnded(entry)) this.deps.live.say(subagentEnded(entry));
        syncAfterRestore(old, entry);
        return { node: old, created: false };
      }
    }
    const node = renderEntry(entry, context);
    const focusMemo = permissionFocus.remember(old);
    const itemMemo = this.deps.focus?.remember(old);
    const scrollMemo = entry.kind === 'toolCall' ? terminalScroll(old) : undefined;
    if (old) old.replaceWith(node);
    else root.append(node);
    this.deps.focus?.replaced(old, node, itemMemo);
    if (scrollMemo) restoreTerminalScroll(node, scrollMemo);
    this.nodes[index] = node;
    if (isTextNode(node)) this.scheduler.textChanged(index);
    // a new permission request may take the focus (never from a user who is typing); a re-rendered one keeps it
    permissionFocus.rendered(node, focusMemo);
    return { node, created: !old };
  }

  private renderAll(): void {
    const { store, root, permissionFocus } = this.deps;
    const focusMemo = permissionFocus.remember(root);
    root.replaceChildren();
    this.nodes.length = 0;
    this.pending.clearRendered();
    this.scheduler.clearText();
    store.entries.forEach((_entry, i) => {
      const node = this.renderWhole(i);
      if (node) root.append(node);
    });
    restoreTerminalScroll(root, new Map());
    // a pending permission may take the focus, as when it arrived
    permissionFocus.renderedAll(focusMemo);
    this.deps.renderState(store.state);
    this.lastStatus = store.state?.status;
  }

  /**
   * The node of an entry that arrived whole (a snapshot, older entries): registered, its text queued for
   * rendering but not announced, a thought collapsed unless it is the agent's current thinking.
   */
  private renderWhole(index: number): HTMLElement | undefined {
    const { store, context } = this.deps;
    const entry = store.entries[index];
    if (!entry) return undefined;
    const node = renderEntry(entry, context);
    this.nodes[index] = node;
    this.silent.add(node);
    if (isTextNode(node)) this.scheduler.textChanged(index);
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
  private renderOlder(from: number, to: number, deadline: number): number {
    const nodes = this.nodes;
    let end = to;
    while (end > from) {
      const start = Math.max(from, end - 10);
      const fragment = document.createDocumentFragment();
      for (let i = start; i < end; i++) {
        const node = this.renderWhole(i);
        if (node) fragment.append(node);
      }
      let next = end;
      while (next < nodes.length && !nodes[next]) next++;
      this.deps.root.insertBefore(fragment, nodes[next] ?? null);
      end = start;
      if (this.deps.host.now() >= deadline) break;
    }
    return end;
  }

  /** Asks for the entries before the oldest one the store has, one page at a time, after this frame painted. */
  private requestOlder(): void {
    const { store, actions } = this.deps;
    if (this.olderRequested || this.pending.older || store.firstIndex <= 0) return;
    this.olderRequested = true;
    setTimeout(() => actions.requestEntries(store.firstIndex, olderEntriesPage), 0);
  }

  /** Thoughts collapse when the answer starts; a new prompt ends a thought's "Thinking…" too. */
  private afterNewEntry(index: number): void {
    const { store } = this.deps;
    const kind = store.entries[index]?.kind;
    if (kind !== 'agent' && kind !== 'user') return;
    for (let i = index - 1; i >= store.firstIndex; i--) {
      const e = store.entries[i];
      if (e.kind === 'user') break;
      if (e.kind !== 'thought') continue;
      setThinking(this.nodes[i], false);
      if (kind === 'agent') collapseThought(this.nodes[i]);
    }
  }

  /** A frame's work before its text: a snapshot, older entries, terminals, entries. */
  private beforeText(deadline: number): void {
    const { store, root, live, context } = this.deps;
    const pending = this.pending;
    if (pending.reset) {
      pending.reset = false;
      pending.state = false;
      this.renderAll();
    }
    if (pending.older) {
      const done = this.renderOlder(pending.older.from, pending.older.to, deadline);
      pending.older = done > pending.older.from ? { from: pending.older.from, to: done } : undefined;
      if (pending.older) this.scheduler.schedule();
    }
    // terminals first: they update the nodes of cards that are not rendered again below
    for (const id of pending.terminals) refreshTerminal(root, id, store.terminals.get(id), context);
    pending.terminals.clear();
    for (const [id, out] of pending.terminalOutput) appendTerminalOutput(root, id, out.carry, out.text.join(''), store.terminals.get(id));
    pending.terminalOutput.clear();

    for (const index of [...pending.entries].sort((a, b) => a - b)) {
      const r = this.renderAt(index);
      if (!r?.created) continue;
      const entry = store.entries[index];
      if (entry.kind === 'thought' && store.state?.status === 'working') {
        setThinking(r.node, true);
        live.say('Thinking…');
      }
      this.afterNewEntry(index);
    }
    pending.entries.clear();
  }

  /** Renders the text of the entry at `index` until `deadline`, and hands new text of an answer to the live region. */
  private renderEntryText(index: number, deadline: number): TextRendered<HTMLElement> | undefined {
    const node = this.nodes[index];
    if (!node || !needsRender(node)) return undefined;
    const r = renderText(node, deadline);
    if (r.kind === 'agent' && !this.silent.has(node)) {
      this.deps.live.say(r.finalText);
      this.lastAgentNode = node;
    }
    if (!r.pending) this.silent.delete(node);
    return { node, finalChars: r.finalText.length, pending: r.pending };
  }

  /** A frame's work after its text: the session's state, then following the bottom. */
  private afterText(): void {
    const { store, live, follow, root } = this.deps;
    if (this.pending.state) {
      this.pending.state = false;
      this.deps.renderState(store.state);
      const status = store.state?.status;
      if (status !== this.lastStatus) {
        if (this.lastStatus === 'working' && status !== 'working') {
          // the turn ended: the rest of the answer, now
          if (this.lastAgentNode) live.say(tailText(this.lastAgentNode));
          this.lastAgentNode = undefined;
          live.flush();
          this.nodes.forEach((n) => setThinking(n, false));
        }
        this.lastStatus = status;
      }
    }
    this.deps.focus?.framed();
    follow.watchLast(root.lastElementChild);
    follow.followBottom();
  }
}
