/**
 * A bounded DOM for a transcript of any length (docs/performance.md, "A bounded DOM"). The kept parts of
 * streamed answers (the `.md-seg` segments of webview/views/markdown.ts, 8 blocks each) that are far from
 * the view are frozen: their nodes are dropped, and what they showed is kept as sanitized HTML. In their
 * place stays one element of the same height holding their plain text (transparent), so that
 * - the scroll height, the scroll position and following the bottom do not change;
 * - Find in the webview (the browser's `window.find`) finds their text, and Copy copies it;
 * - a screen reader and an entry's accessible name still read it.
 * A frozen part comes back (sanitized again) before it scrolls into view, and a selection or a Find match
 * inside it is carried over to the same characters of what comes back. A part that holds the selection or
 * the keyboard focus is never frozen.
 */
import { textBlockTags } from '../lib/htmlText';
import { sanitize } from '../views/markdown';

/** How far from the view (in heights of the view, above and below) parts stay rendered. */
const margin = '150% 0px';
/** The newest entries of a transcript, never frozen whole. */
const keptLast = 3;
/**
 * Milliseconds before a part that could not be frozen yet (it holds the selection or the focus; an entry among
 * the newest, or a tool call still running) is looked at again.
 */
const retryMs = 2000;


/**
 * Visits the text nodes of a rendered part in reading order, each with the separator its text starts with in
 * the part's plain text (a line break between blocks, a tab between table cells); stops when `visit` returns
 * true. Code-block toolbars are not text of the answer. One walk down the tree that carries each node's block
 * and cell along (a part is frozen thousands of times in a long answer: no lookup up the tree per text node).
 */
function visitText(root: Element, visit: (node: Text, sep: string) => boolean | void): void {
  let lastBlock: Element | undefined;
  let lastCell: Element | null = null;
  const walk = (el: Element, block: Element, cell: Element | null): boolean => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === Node.TEXT_NODE) {
        let sep = '';
        if (lastBlock !== undefined && block !== lastBlock) sep = '\n';
        else if (lastBlock !== undefined && cell !== lastCell && cell) sep = '\t';
        lastBlock = block;
        lastCell = cell;
        if (visit(n as Text, sep)) return true;
      } else if (n.nodeType === Node.ELEMENT_NODE) {
        const e = n as Element;
        if (e.classList.contains('code-toolbar')) continue;
        const tag = e.tagName;
        if (walk(e, textBlockTags.has(tag) ? e : block, tag === 'TD' || tag === 'TH' ? e : cell)) return true;
      }
    }
    return false;
  };
  walk(root, root, root.closest('td, th'));
}

/** The plain text of a rendered part (what its frozen stand-in holds). */
function plainText(root: Element): string {
  let text = '';
  visitText(root, (node, sep) => {
    text += sep + (node.nodeValue ?? '');
  });
  return text;
}

/** The text node and offset in `root` at `offset` of its {@link plainText}. */
function pointAt(root: Element, offset: number): { node: Node; offset: number } {
  let at = 0;
  let last: Text | undefined;
  let found: { node: Node; offset: number } | undefined;
  visitText(root, (node, sep) => {
    at += sep.length;
    const length = node.nodeValue?.length ?? 0;
    if (offset <= at + length) {
      found = { node, offset: Math.max(0, offset - at) };
      return true;
    }
    at += length;
    last = node;
    return false;
  });
  if (found) return found;
  return last ? { node: last, offset: last.nodeValue?.length ?? 0 } : { node: root, offset: 0 };
}

/**
 * Whether an entry of the transcript may be frozen whole: one of the last entries never is (it may still
 * grow, or have just arrived), nor anything that waits for the user (a permission request, a question), nor
 * a running tool call; only prompts, answers, thoughts and finished tool calls are.
 */
function freezableEntry(entry: HTMLElement): 'yes' | 'no' | 'later' {
  const kind = entry.getAttribute('data-testid');
  const tool = kind === 'tool-call';
  if (!tool && kind !== 'user-message' && kind !== 'agent-message' && kind !== 'thought' && kind !== 'session-message') return 'no';
  let after = 0;
  for (let next = entry.nextElementSibling; next && after < keptLast; next = next.nextElementSibling) after++;
  if (after < keptLast) return 'later';
  if (tool && (!['completed', 'failed'].includes(entry.getAttribute('data-status') ?? '') || entry.querySelector('[data-testid="permission"]'))) return 'later';
  return 'yes';
}

/** The selection's range when the observer reported (read once per report: see {@link Freezer}), if any. */
function selectionRange(): Range | undefined {
  const selection = document.getSelection();
  return selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : undefined;
}

/** Freezes and thaws the parts of a transcript by their distance from the view. */
export class Freezer {
  private readonly observer: IntersectionObserver;
  /**
   * What each frozen part or entry showed: a part of an answer keeps its sanitized HTML (its nodes are
   * freed); an entry keeps its own nodes (their listeners and the views' state; an update goes to them).
   */
  private readonly frozen = new WeakMap<Element, string | DocumentFragment>();

  /**
   * `root`: the scrolling element (the transcript); `revealed`: a Find match in a frozen part was scrolled to
   * (the view stops following new content there).
   */
  constructor(private readonly root: Element, private readonly revealed: () => void = () => undefined) {
    this.observer = new IntersectionObserver((entries) => {
      // the selection is read once per report, not per part: each read of it made the browser bring the
      // style and layout of the changed transcript up to date, and a fast stream freezes parts by the hundred
      let at: Range | null | undefined;
      for (const e of entries) {
        if (this.chapters.has(e.target)) {
          this.chapterMoved(e.target, e.isIntersecting);
        } else if (e.isIntersecting) {
          if (this.thaw(e.target)) at = undefined;
        } else {
          this.freeze(e.target, e.boundingClientRect.height, at === undefined ? (at = selectionRange() ?? null) : at);
        }
      }
    }, { root, rootMargin: margin });
    // Find in the webview (`window.find`) selects a match in a frozen part, and cannot show it there (it is
    // not laid out): the part comes back, the match stays selected, and is scrolled to
    document.addEventListener('selectionchange', () => this.revealSelection());
    // the entries themselves (a tool call, a prompt, an answer's wrapper): watched as they are added
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) if (n instanceof HTMLElement && n.parentElement === root) this.observer.observe(n);
        for (const n of r.removedNodes) if (n instanceof HTMLElement && !n.isConnected) this.observer.unobserve(n);
      }
    }).observe(root, { childList: true });
    for (const child of root.children) this.observer.observe(child);
  }

  /**
   * Chapters of an answer (the `.md-chap` elements that hold its parts), and whether each is near the view. An
   * observer's work in every frame grows with the elements it watches: the frozen parts of a chapter far from
   * the view are not watched (nothing can bring one near before its chapter is), so a long answer costs a
   * frame its chapters and the parts of the few chapters near the view, not every part it ever kept.
   */
  private readonly chapters = new WeakMap<Element, boolean>();

  /** Watches a kept part of an answer: frozen while far from the view. */
  watch(part: Element): void {
    const chapter = part.parentElement;
    if (chapter?.classList.contains('md-chap') && !this.chapters.has(chapter)) {
      this.chapters.set(chapter, true);
      this.observer.observe(chapter);
    }
    this.observer.observe(part);
  }

  /**
   * Watches a part of an answer that was never rendered (webview/views/markdown.ts keeps a part far behind a
   * fast stream frozen at once): it shows its plain text already, and is rendered from `html` as it nears the
   * view. Until it has been laid out it is as tall as the segments' `contain-intrinsic-size` says (markdown.css).
   */
  adopt(part: Element, html: string): void {
    this.frozen.set(part, html);
    this.watch(part);
    this.dormant(part);
  }

  /** A chapter came near the view (its parts are watched again) or left it (its frozen parts no longer are). */
  private chapterMoved(chapter: Element, near: boolean): void {
    this.chapters.set(chapter, near);
    for (const part of chapter.children) {
      if (near) this.observer.observe(part);
      else if (this.frozen.has(part)) this.observer.unobserve(part);
    }
  }

  /** Stops watching a part just frozen whose chapter is far from the view (see {@link chapters}). */
  private dormant(part: Element): void {
    const chapter = part.parentElement;
    if (chapter && this.chapters.get(chapter) === false) this.observer.unobserve(part);
  }

  /** Brings a frozen part or entry back (before it changes, or as it nears the view); the selection in it is kept. */
  thaw(part: Element): boolean {
    const kept = this.frozen.get(part);
    if (kept === undefined || !(part instanceof HTMLElement)) return false;
    const { selection, anchor, focus } = this.selectionIn(part);
    this.frozen.delete(part);
    this.changes.get(part)?.disconnect();
    this.changes.delete(part);
    part.replaceChildren(typeof kept === 'string' ? sanitize(kept) : kept);
    part.classList.remove('md-frozen', 'entry-frozen');
    part.style.removeProperty('height');
    this.restoreSelection(part, selection, anchor, focus);
    return true;
  }

  /** A part that could not be frozen yet, reported again later: an observer reports a part only when it crosses the margin. */
  private lookAgain(part: Element): void {
    setTimeout(() => {
      this.observer.unobserve(part);
      this.observer.observe(part);
    }, retryMs);
  }

  /** A frozen entry's own nodes, watched for an update (see {@link freeze}). */
  private readonly changes = new WeakMap<Element, MutationObserver>();

  /** A selection's ends inside a frozen stand-in's text, as offsets of its plain text. */
  private selectionIn(part: Element): { selection: Selection | null; anchor?: number; focus?: number } {
    const selection = document.getSelection();
    const stand = part.firstChild;
    return {
      selection,
      anchor: selection && stand && selection.anchorNode === stand ? selection.anchorOffset : undefined,
      focus: selection && stand && selection.focusNode === stand ? selection.focusOffset : undefined,
    };
  }

  /** Puts a selection's ends that were in the stand-in at the same characters of what came back. */
  private restoreSelection(part: Element, selection: Selection | null, anchor: number | undefined, focus: number | undefined): void {
    if (!selection || (anchor === undefined && focus === undefined)) return;
    const a = anchor !== undefined ? pointAt(part, anchor) : { node: selection.anchorNode ?? part, offset: selection.anchorOffset };
    const f = focus !== undefined ? pointAt(part, focus) : { node: selection.focusNode ?? part, offset: selection.focusOffset };
    selection.setBaseAndExtent(a.node, a.offset, f.node, f.offset);
  }

  /** A selection inside one frozen part (a Find match): the part is thawed and the match scrolled to. */
  private revealSelection(): void {
    const s = document.getSelection();
    const node = s?.focusNode;
    if (!s || !node || node !== s.anchorNode || node.nodeType !== Node.TEXT_NODE) return;
    const part = node.parentElement;
    if (!part || !this.frozen.has(part)) return;
    this.thaw(part);
    this.revealed();
    const at = document.getSelection()?.focusNode;
    (at instanceof Element ? at : at?.parentElement)?.scrollIntoView({ block: 'center' });
  }

  private freeze(part: Element, height: number, selected: Range | null): void {
    if (this.frozen.has(part) || !(part instanceof HTMLElement) || !part.isConnected) return;
    const entry = part.parentElement === this.root;
    // a part without a block holds only white space: 0 px tall, as its stand-in could not be
    const may = entry ? freezableEntry(part) : part.firstElementChild ? 'yes' : 'no';
    if (may === 'no') return;
    // the selection has an end in it, or runs across it
    const busy = selected?.intersectsNode(part) || part.contains(document.activeElement);
    if (busy || may === 'later') {
      this.lookAgain(part);
      return;
    }
    const text = plainText(part);
    if (entry) {
      const nodes = document.createDocumentFragment();
      nodes.append(...part.childNodes);
      this.frozen.set(part, nodes);
      // an update of a frozen entry in place goes to its own nodes (an answer or thought whose rendering was
      // behind the stream; a tool call is rendered anew instead): the entry comes back with it, so that its
      // stand-in's text (Find, Copy, a screen reader) is never older than the entry, and is frozen again later
      const changed = new MutationObserver(() => {
        if (this.thaw(part)) this.lookAgain(part);
      });
      changed.observe(nodes, { subtree: true, childList: true, characterData: true });
      this.changes.set(part, changed);
    } else {
      // the toolbars are added again by sanitize() when the part comes back
      for (const toolbar of part.querySelectorAll('.code-toolbar')) toolbar.remove();
      this.frozen.set(part, part.innerHTML);
    }
    // a part never laid out (restored far from the view, in a skipped chapter) has no height of its own yet:
    // its chapter's remembered size stands for it, as before it was frozen
    if (height > 0) part.style.height = `${height}px`;
    part.classList.add(entry ? 'entry-frozen' : 'md-frozen');
    part.textContent = text;
    if (!entry) this.dormant(part);
  }
}
