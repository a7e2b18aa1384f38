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
import { inlineImage, markdownHtml, MarkdownSplitter } from '../lib/markdownCore';
import type { ListContext } from '../lib/markdownCore';

/**
 * Blocks per kept segment (each segment is laid out and painted only when on screen). Small, so that a frame
 * that follows a fast stream lays out little more than the screen shows.
 */
const segmentBlocks = 8;
/** Kept HTML sanitized in one call, at least (fewer, larger calls: each one parses a new document). */
const sanitizeBatchChars = 8 * 1024;
/** Segments per chapter (a chapter is skipped whole when off screen, so the browser tracks few elements per frame). */
const chapterSegments = 40;

const allowedTags = [
  'a', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'div', 'span',
  // the sanitizer's own root: not allowed, DOMPurify "keeps its content" by cloning the whole parsed tree
  // at every call (and throws the clone away); markdown-it never writes a body tag, and the parser would
  // not make one from text anyway
  'body',
];
const allowedAttributes = ['class', 'title', 'alt', 'src', 'start', 'type', 'role', 'tabindex', 'colspan', 'rowspan'];

/** A line break before a block-level tag (markdown-it's output; code is escaped, so `<` is always a tag). */
const blockBreaks = /\n(?=<\/?(?:p|ul|ol|li|h[1-6]|blockquote|table|thead|tbody|tr|th|td|div|pre|hr)\b)/g;

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

/**
 * Milliseconds per character that {@link sanitize} took lately (a running average of larger calls): a time
 * budget keeps room for sanitizing what it rendered, whatever the machine.
 */
let sanitizeMsPerChar = 0.0003;

/** Sanitizes HTML (from markdown-it) into a fragment of the current document, and adds code-block toolbars. */
export function sanitize(html: string): DocumentFragment {
  if (!html) return document.createDocumentFragment();
  const start = performance.now();
  // line breaks between block tags are text nodes the sanitizer would walk and the page would keep: drop them
  const fragment = purify().sanitize(html.replace(blockBreaks, '')) as unknown as DocumentFragment;
  for (const block of fragment.querySelectorAll<HTMLElement>('div.code-block')) addToolbar(block);
  if (html.length >= 1024) sanitizeMsPerChar = 0.8 * sanitizeMsPerChar + 0.2 * ((performance.now() - start) / html.length);
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
  renderMarkdown('# Title\n\nSome **bold**, *em*, `code` and a [link](https://example.com) with www.example.com.\n\n'
    + '- one\n- two\n\n1. first\n2. second\n\n> quote\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n');
}

/**
 * What keeps the DOM bounded (webview/transcript/freezer.ts): it is told of each kept segment, and thaws a
 * frozen one before more is put in it.
 */
export interface SegmentKeeper {
  watch(part: Element): void;
  thaw(part: Element): void;
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
    // kept HTML of several steps is sanitized in one call: each call parses a new document
    let keptHtml = '';
    const keep = (): void => {
      if (!keptHtml) return;
      const kept = sanitize(keptHtml);
      keptHtml = '';
      finalText += kept.textContent ?? '';
      // adopted into this document now, in the render's time budget: the commit then only inserts them
      (this.staged ??= document.createDocumentFragment()).append(kept);
      // the tail it came from is now (in part) kept: the rest shows once it is rendered
      this.stagedTail = '';
      this.stagedTailIn = undefined;
    };
    for (;;) {
      const step = this.splitter.step();
      // kept items of a list whose first items were kept before: in a list element of their own (continued)
      if (!keptHtml && step.kept && step.keptIn) keptHtml = listStart(step.keptIn);
      keptHtml += step.kept;
      if (keptHtml.length >= sanitizeBatchChars) keep();
      if (step.tail !== undefined || !step.pending) {
        keep();
        if (step.tail !== undefined) {
          this.stagedTail = step.tail;
          this.stagedTailIn = step.tailIn;
        }
        return { finalText, pending: false };
      }
      // stop in time to sanitize what waits, within the budget
      if (performance.now() + keptHtml.length * sanitizeMsPerChar >= deadline) {
        keep();
        return { finalText, pending: true };
      }
    }
  }

  /** Puts what {@link render} prepared on the page. */
  commit(): void {
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
      if (node instanceof Element && node.classList.contains('md-cont')) this.split(this.segment?.lastElementChild);
      if (!this.segment || this.segmentCount >= segmentBlocks) {
        if (!this.chapter || this.chapterCount >= chapterSegments) {
          this.chapter = document.createElement('div');
          this.chapter.className = 'md-chap';
          this.chapterCount = 0;
          this.tailElement.before(this.chapter);
        }
        this.segment = document.createElement('div');
        this.segment.className = 'md-seg';
        this.segmentCount = 0;
        this.chapter.append(this.segment);
        this.chapterCount++;
        keeper?.watch(this.segment);
      }
      this.segment.append(node);
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
