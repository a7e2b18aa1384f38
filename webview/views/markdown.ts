/**
 * Agent Markdown in the DOM, safely and fast (webview/lib/markdownCore.ts has the DOM-free half).
 *
 * Safety: markdown-it runs with `html: false` and checked links (markdownCore.ts); its HTML is sanitized
 * again by DOMPurify, in the webview's own DOM, with an allow-list of tags and attributes; nothing keeps an
 * `href` or a non-`data:` image `src`. Links carry their target in `data-href` and are opened through the
 * host ({@link installMarkdownActions}), which asks before it opens a web page and opens file links in the
 * editor.
 *
 * Speed: {@link MarkdownStream} renders streamed text O(chunk): kept blocks are rendered once, only the tail
 * is rendered again. Kept blocks go into segments of at most {@link segmentBlocks} blocks, and segments into
 * chapters of {@link chapterSegments}, both with `content-visibility: auto`, so a long answer costs the browser
 * only what is on screen: blocks that scroll past unseen while the view follows a fast stream are never laid
 * out, and per frame the browser tracks the chapters and the segments of the visible ones, not every segment.
 */
import '../styles/markdown.css';
import DOMPurify from 'dompurify';
import { blockBreaks, htmlPlainText } from '../lib/htmlText';
import { inlineImage, markdownHtml, MarkdownSplitter } from '../lib/markdownCore';
import type { ListContext } from '../lib/markdownCore';

/**
 * Blocks per kept segment (each segment is laid out and painted only when on screen). Small, so that a frame
 * that follows a fast stream lays out little more than the screen shows.
 */
const segmentBlocks = 8;
/** Segments per chapter (a chapter is skipped whole when off screen, so the browser tracks few elements per frame). */
const chapterSegments = 40;
/**
 * Characters of kept HTML that a commit renders at most while the rendering is behind a fast stream; what was
 * kept before them goes on the page frozen (see {@link MarkdownStream.render}). It fills several views (a
 * view of 900 px shows a few thousand characters of Markdown; the freezer's margin is 1.5 views above and
 * below), so what goes frozen is out of the margin once the commit shows.
 */
const nearChars = 24 * 1024;

const allowedTags = [
  'a', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'div', 'span',
  // the sanitizer's own root: not allowed, DOMPurify "keeps its content" by cloning the whole parsed tree
  // at every call (and throws the clone away); markdown-it never writes a body tag, and the parser would
  // not make one from text anyway
  'body',
];
const allowedAttributes = ['class', 'title', 'alt', 'src', 'start', 'type', 'role', 'tabindex', 'colspan', 'rowspan'];


let purifier: ReturnType<typeof DOMPurify> | undefined;
function purify(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  // once, not per call: DOMPurify parses a config passed to sanitize() on every call
  p.setConfig({ ALLOWED_TAGS: allowedTags, ALLOWED_ATTR: allowedAttributes, ALLOW_DATA_ATTR: true, ALLOW_ARIA_ATTR: false, RETURN_DOM_FRAGMENT: true });
  p.addHook('afterSanitizeAttributes', (node) => {
    // belt and braces: nothing rendered from agent text may navigate or fetch
    if (!(node instanceof Element) || !node.hasAttributes()) return;
    if (node.hasAttribute('href')) node.removeAttribute('href');
    if (node.hasAttribute('src') && (node.tagName !== 'IMG' || !inlineImage.test(node.getAttribute('src') ?? ''))) node.removeAttribute('src');
  });
  purifier = p;
  return p;
}

/** Sanitizes HTML (from markdown-it) into a fragment of the current document, and adds code-block toolbars. */
export function sanitize(html: string): DocumentFragment {
  if (!html) return document.createDocumentFragment();
  // line breaks between block tags are text nodes the sanitizer would walk and the page would keep: drop them
  const fragment = purify().sanitize(html.replace(blockBreaks, '')) as unknown as DocumentFragment;
  for (const block of fragment.querySelectorAll<HTMLElement>('div.code-block')) addToolbar(block);
  return fragment;
}

let toolbarTemplate: HTMLElement | undefined;
/** The toolbar of a code block: built once, cloned per block (cheaper than sanitizing it each time). */
function addToolbar(block: HTMLElement): void {
  if (!toolbarTemplate) {
    toolbarTemplate = document.createElement('div');
    toolbarTemplate.className = 'code-toolbar';
    const label = document.createElement('span');
    label.className = 'code-lang';
    label.setAttribute('data-testid', 'code-lang');
    const button = (action: string, text: string, title: string): HTMLButtonElement => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'code-action';
      b.dataset.action = action;
      b.setAttribute('data-testid', `code-${action}`);
      b.title = title;
      b.textContent = text;
      return b;
    };
    toolbarTemplate.append(label, button('copy', 'Copy', 'Copy the code'), button('insert', 'Insert at Cursor', 'Insert the code at the cursor of the last active editor'));
  }
  const toolbar = toolbarTemplate.cloneNode(true) as HTMLElement;
  (toolbar.firstChild as HTMLElement).textContent = block.dataset.lang || 'text';
  block.setAttribute('data-testid', 'code-block');
  block.prepend(toolbar);
}

/** Renders a whole Markdown text at once (short texts; streamed text uses {@link MarkdownStream}). */
export function renderMarkdown(text: string): DocumentFragment {
  return sanitize(markdownHtml(text));
}

/**
 * Renders a small sample once, off screen, so that the first streamed chunk does not pay for compiling the
 * parser and the sanitizer (call it when the page is idle).
 */
export function warmUp(): void {
  renderMarkdown('# T\n\n**b** *e* `c` [l](https://e.com) www.e.com\n\n- a\n  1. b\n\n> q\n\n```ts\nx\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n');
}

/**
 * What keeps the DOM bounded (webview/transcript/freezer.ts): it is told of each kept segment, and thaws a
 * frozen one before more is put in it.
 */
export interface SegmentKeeper {
  watch(part: Element): void;
  thaw(part: Element): void;
  /** Watches a part that was never rendered: it shows `text` and is rendered from `html` when it nears the view. */
  adopt(part: Element, html: string): void;
}
let keeper: SegmentKeeper | undefined;
/** Sets what keeps the DOM bounded (the page does, once). */
export function setSegmentKeeper(k: SegmentKeeper | undefined): void {
  keeper = k;
}

/** What one {@link MarkdownStream.render} did. */
export interface StreamRenderResult {
  /** Plain text of the blocks that became final (for the screen-reader live region). */
  readonly finalText: string;
  /** True when text is left to render (the time budget ran out). */
  readonly pending: boolean;
}

/**
 * A growing Markdown text rendered incrementally into {@link element}: kept blocks in segments, then the tail
 * (the text from the last stable block boundary on), which is rendered again on each {@link render}.
 *
 * {@link render} only prepares: kept blocks wait in a detached fragment and the tail as HTML, so that rendering
 * can go on between frames without making the browser lay out and paint each time. {@link commit} puts them
 * on the page; the caller decides how often (see webview/transcript/scheduler.ts).
 */
export class MarkdownStream {
  readonly element: HTMLElement;
  private readonly tailElement: HTMLElement;
  private readonly splitter = new MarkdownSplitter();
  private segment: HTMLElement | undefined;
  private segmentCount = 0;
  private chapter: HTMLElement | undefined;
  private chapterCount = 0;
  /** Kept blocks rendered but not on the page yet. */
  private staged: DocumentFragment | undefined;
  /** The tail's HTML to show at the next commit (undefined: unchanged). */
  private stagedTail: string | undefined;
  /** The top-level list the staged tail starts inside (a long list is kept item by item). */
  private stagedTailIn: ListContext | undefined;
  /** Kept HTML of parts kept frozen at once (see {@link render}), until they are on the page. */
  private readonly farHtml = new WeakMap<Element, string>();

  constructor(attrs: Record<string, string> = {}) {
    this.element = document.createElement('div');
    this.element.className = 'markdown';
    for (const [k, v] of Object.entries(attrs)) this.element.setAttribute(k, v);
    this.tailElement = document.createElement('div');
    this.tailElement.className = 'md-tail';
    this.element.append(this.tailElement);
  }

  /** Adds streamed text; O(chunk). Nothing is rendered until {@link render}. */
  append(text: string): void {
    this.splitter.append(text);
  }

  /** True when appended text waits for {@link render}. */
  get needsRender(): boolean {
    return this.splitter.needsRender;
  }

  /** The plain text shown in the tail (not yet reported as final). */
  tailText(): string {
    return this.tailElement.textContent ?? '';
  }

  /**
   * Renders what was appended until `deadline` (a `performance.now()` time); the rest in later calls. What it
   * renders shows at the next {@link commit}.
   */
  render(deadline = Infinity): StreamRenderResult {
    let finalText = '';
    for (;;) {
      const step = this.splitter.step();
      if (step.kept) {
        // kept items of a list whose first items were kept before: in a list element of their own (continued)
        const html = (step.keptIn ? listStart(step.keptIn) : '') + step.kept;
        const text = htmlPlainText(html);
        finalText += text;
        this.queue.push({ html, text });
        this.queueChars += html.length;
        // the tail it came from is now (in part) kept: the rest shows once it is rendered
        this.stagedTail = '';
        this.stagedTailIn = undefined;
        // far behind a fast stream: what was kept before the newest nearChars will be far above the view once
        // this commit shows (a part far from the view is frozen anyway, webview/transcript/freezer.ts), so it
        // goes on the page frozen at once: its plain text now, its HTML rendered only when it nears the view.
        // Sanitizing, laying out and then freezing it was most of a long answer's cost in the renderer
        while (keeper && this.queue.length > 1 && this.queueChars - this.queue[0].html.length >= nearChars) {
          const first = this.queue.shift() as { html: string; text: string };
          this.queueChars -= first.html.length;
          this.far(first.html, first.text);
        }
      }
      if (step.tail !== undefined || !step.pending) {
        // caught up: what was kept is rendered now, in the render's time (little, unless it was behind)
        this.sanitizeQueue();
        if (step.tail !== undefined) {
          this.stagedTail = step.tail;
          this.stagedTailIn = step.tailIn;
        }
        return { finalText, pending: false };
      }
      // behind: the newest kept blocks wait as HTML (the commit renders them), older ones go far
      if (performance.now() >= deadline) return { finalText, pending: true };
    }
  }

  /** Kept HTML not rendered yet, oldest first: the newest {@link nearChars} of it at most while behind. */
  private queue: { html: string; text: string }[] = [];
  private queueChars = 0;

  /** Renders the kept HTML that waits (one sanitizer call: each parses a new document) into the staged blocks. */
  private sanitizeQueue(): void {
    if (!this.queue.length) return;
    const html = this.queue.length === 1 ? this.queue[0].html : this.queue.map((q) => q.html).join('');
    this.queue = [];
    this.queueChars = 0;
    (this.staged ??= document.createDocumentFragment()).append(sanitize(html));
  }

  /** Stages a part kept frozen at once: its stand-in (plain text) now, its HTML for when it nears the view. */
  private far(html: string, text: string): void {
    const part = document.createElement('div');
    part.className = 'md-seg md-frozen';
    part.textContent = text;
    this.farHtml.set(part, html);
    (this.staged ??= document.createDocumentFragment()).append(part);
  }

  /** Puts what {@link render} prepared on the page. */
  commit(): void {
    this.sanitizeQueue();
    if (this.segment) keeper?.thaw(this.segment);
    if (this.staged) {
      this.keep(this.staged);
      this.staged = undefined;
    }
    if (this.stagedTail !== undefined) {
      const tail = sanitize(this.stagedTailIn ? listStart(this.stagedTailIn) + this.stagedTail : this.stagedTail);
      if (this.stagedTailIn) this.continued(tail);
      this.tailElement.replaceChildren(tail);
      this.stagedTail = undefined;
      this.stagedTailIn = undefined;
    }
  }

  /** Puts a new segment at the end of the kept part (in a new chapter when the last one is full). */
  private newSegment(segment: HTMLElement): void {
    if (!this.chapter || this.chapterCount >= chapterSegments) {
      this.chapter = document.createElement('div');
      this.chapter.className = 'md-chap';
      this.chapterCount = 0;
      this.tailElement.before(this.chapter);
    }
    this.segment = segment;
    this.segmentCount = 0;
    this.chapter.append(segment);
    this.chapterCount++;
  }

  /** The kept list that `fragment` continues (a long list kept item by item) loses its bottom margin. */
  private continued(fragment: DocumentFragment): void {
    if (fragment.firstElementChild?.classList.contains('md-cont')) this.split(this.segment?.lastElementChild);
  }

  private split(previous: Element | null | undefined): void {
    if (previous && (previous.tagName === 'UL' || previous.tagName === 'OL')) previous.classList.add('md-split');
  }

  private keep(fragment: DocumentFragment): void {
    while (fragment.firstChild) {
      const node = fragment.firstChild;
      const farHtml = node instanceof Element ? this.farHtml.get(node) : undefined;
      if (farHtml !== undefined) {
        // a part kept frozen: a segment of its own, and the next kept blocks start another
        this.farHtml.delete(node as Element);
        this.newSegment(node as HTMLElement);
        keeper?.adopt(node as Element, farHtml);
        this.segment = undefined;
        continue;
      }
      if (node instanceof Element && node.classList.contains('md-cont')) this.split(this.segment?.lastElementChild);
      // a new segment starts with a block: the line break between two blocks stays in the one before (a
      // segment of white space alone is 0 px tall, and 1 line tall frozen: webview/transcript/freezer.ts)
      if (!this.segment || (this.segmentCount >= segmentBlocks && node.nodeType === Node.ELEMENT_NODE)) {
        const segment = document.createElement('div');
        segment.className = 'md-seg';
        this.newSegment(segment);
        keeper?.watch(segment);
      }
      (this.segment as HTMLElement).append(node);
      if (node.nodeType === Node.ELEMENT_NODE) this.segmentCount++;
    }
  }
}

/** The open tag of the list that continues a kept list (its items went on past a kept part). */
function listStart(list: ListContext): string {
  return list.ordered ? `<ol start="${list.start}" class="md-cont">` : '<ul class="md-cont">';
}

/** What the code-block buttons and links ask the host to do. */
export interface MarkdownActions {
  openLink(href: string): void;
  copyCode(code: string, language: string): void;
  insertCode(code: string, language: string): void;
}

/**
 * Handles links (`[data-href]`, by click or Enter) and code-block buttons below `root` with one delegated
 * listener each; nothing is navigated by the browser.
 */
export function installMarkdownActions(root: HTMLElement, actions: MarkdownActions): void {
  const activate = (target: EventTarget | null, event: Event): void => {
    if (!(target instanceof Element)) return;
    const button = target.closest<HTMLElement>('.code-block [data-action]');
    if (button) {
      event.preventDefault();
      const block = button.closest<HTMLElement>('.code-block');
      const code = block?.querySelector('pre code')?.textContent ?? '';
      const language = block?.dataset.lang ?? '';
      if (button.dataset.action === 'copy') {
        actions.copyCode(code, language);
        flash(button, 'Copied');
      } else if (button.dataset.action === 'insert') {
        actions.insertCode(code, language);
      }
      return;
    }
    const link = target.closest<HTMLElement>('.markdown [data-href]');
    if (link && root.contains(link)) {
      event.preventDefault();
      const href = link.dataset.href;
      if (href) actions.openLink(href);
    }
  };
  root.addEventListener('click', (e) => activate(e.target, e));
  root.addEventListener('auxclick', (e) => {
    if (e.target instanceof Element && e.target.closest('.markdown [data-href]')) e.preventDefault();
  });
  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !(e.target instanceof Element) || !e.target.matches('.markdown [data-href]')) return;
    activate(e.target, e);
  });
}

const flashes = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();
function flash(button: HTMLElement, text: string): void {
  const label = button.dataset.label ?? button.textContent ?? '';
  button.dataset.label = label;
  button.textContent = text;
  clearTimeout(flashes.get(button));
  flashes.set(button, setTimeout(() => { button.textContent = label; }, 1500));
}
