/**
 * The DOM-free half of agent Markdown (markdown.ts has the DOM half): the markdown-it configuration and the
 * incremental splitter that makes streaming O(chunk). No DOM, no CSS: unit-tested in plain node.
 *
 * markdown-it runs with `html: false` (raw HTML in agent text is shown as text), links pass
 * {@link isAllowedLink}, links never get an `href` (their target is in `data-href`, opened through the host),
 * and images render only from `data:` URLs of raster types; any other image becomes a link chip, so agent text
 * can never make the webview fetch anything. The DOM half sanitizes the output again with DOMPurify.
 *
 * {@link MarkdownSplitter}: blocks that can no longer change (a later top-level block has started on a complete
 * line) are rendered once and handed out as "kept" HTML; only the tail from the last such boundary is parsed and
 * rendered again. Kept HTML + tail HTML is exactly what rendering the whole text at once gives.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

type Markdown = MarkdownIt;
/** markdown-it's parse environment: link reference definitions (`[label]: url`) by normalized label. */
interface Env { references?: Record<string, unknown> }

/** Characters parsed at most in one step; a longer tail is rendered over several steps (and frames). */
export const windowChars = 3 * 1024;
/**
 * A tight top-level list is kept item by item only once its open part is this long: a blank line between two
 * later items would make the whole list loose (CommonMark), and kept items do not change. Below this, a tight
 * list is rendered again whole while it grows, exactly as a whole render; above it, it stays O(chunk).
 */
export const tightListCutChars = 16 * 1024;

/** Raster image types that may be shown inline from a `data:` URL. */
export const inlineImage = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/**
 * Whether markdown-it may turn `url` into a link (or image): http(s), file and relative paths (also
 * `C:/…`); `data:` only for raster images. Every other scheme (`javascript:`, `vbscript:`, `command:`,
 * `vscode:`, `mailto:`, …), protocol-relative URLs and bare fragments stay plain text.
 */
export function isAllowedLink(url: string): boolean {
  const u = url.trim();
  if (!u || u.startsWith('#') || u.startsWith('//') || u.startsWith('\\\\')) return false;
  if (/^data:/i.test(u)) return inlineImage.test(u);
  if (/^(?:https?|file):/i.test(u)) return true;
  if (/^[a-z]:[\\/]/i.test(u)) return true; // a Windows drive path
  return !/^[a-z][a-z0-9+.-]*:/i.test(u);
}

/** Escapes text for HTML (text and attribute values). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The language of a fence's info string, reduced to safe characters ("" when none). */
export function fenceLanguage(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w#+.-]/g, '').slice(0, 32);
}

/** A code block; the DOM half adds its toolbar (language label, Copy, Insert at Cursor) after sanitizing. */
function codeBlockHtml(code: string, language: string): string {
  const lang = escapeHtml(language);
  return `<div class="code-block" data-lang="${lang}"><pre><code${lang ? ` class="language-${lang}"` : ''}>${escapeHtml(code)}</code></pre></div>\n`;
}

/** The top-level domains under which a bare host name (`example.com`, `www.example.org`) becomes a link. */
const webTlds = ['com', 'org', 'net', 'edu', 'gov', 'io', 'dev', 'app', 'ai', 'co', 'info'];

function createMarkdown(): Markdown {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
  md.validateLink = isAllowedLink;
  // a bare host name is a link only under a web top-level domain: file names such as README.md, setup.py or
  // main.rs (country codes to linkify-it) stay text, not links to http://README.md
  md.linkify.tlds(webTlds, false);
  const rules = md.renderer.rules;
  rules.fence = (tokens, idx) => codeBlockHtml(tokens[idx].content, fenceLanguage(tokens[idx].info));
  rules.code_block = (tokens, idx) => codeBlockHtml(tokens[idx].content, '');
  rules.link_open = (tokens, idx) => {
    const href = String(tokens[idx].attrGet('href') ?? '');
    if (/^data:/i.test(href)) return '<a class="md-link disabled">';
    return `<a class="md-link" data-href="${escapeHtml(href)}" role="link" tabindex="0" title="${escapeHtml(href)}">`;
  };
  rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    if (inlineImage.test(src)) return `<img class="md-image" src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
    // never fetched: a chip that opens the image through the host (after confirmation for the web)
    return `<span class="md-link md-image-link" data-href="${escapeHtml(src)}" role="link" tabindex="0" title="${escapeHtml(src)}">🖼 ${escapeHtml(alt || src)}</span>`;
  };
  // table alignment comes as style="text-align:…", which the CSP (and the sanitizer) drop: use a class
  const aligned = (tokens: Token[], idx: number, options: Markdown['options'], _env: unknown, self: Markdown['renderer']): string => {
    const token = tokens[idx];
    const style = token.attrGet('style');
    if (typeof style === 'string') {
      token.attrs = (token.attrs ?? []).filter((a: [string, string]) => a[0] !== 'style');
      const m = /text-align:\s*(left|right|center)/.exec(style);
      if (m) token.attrJoin('class', `align-${m[1]}`);
    }
    return self.renderToken(tokens, idx, options);
  };
  rules.th_open = aligned;
  rules.td_open = aligned;
  return md;
}

/** The one markdown-it instance of the webview. */
export const markdown = createMarkdown();

/** Renders a whole Markdown text to (unsanitized) HTML. */
export function markdownHtml(text: string): string {
  return markdown.render(text);
}

/** Where the kept (final) part of a parsed text ends: before `token`, at character `char`. */
export interface Cut { readonly token: number; readonly char: number }

function isBlockStart(t: Token): boolean {
  return t.level === 0 && t.nesting !== -1 && t.map !== null;
}

/**
 * The last block boundary of `src` after which the blocks before it can no longer change: the start of the
 * last top-level block whose first line is complete (more text can only change the block it ends in, and a
 * later block that started on a complete line has closed every block before it).
 */
export function stableCut(src: string, tokens: readonly Token[]): Cut | undefined {
  let completeLines = 0;
  for (let i = src.indexOf('\n'); i !== -1; i = src.indexOf('\n', i + 1)) completeLines++;
  for (let i = tokens.length - 1; i > 0; i--) {
    const t = tokens[i];
    if (!isBlockStart(t) || (t.map as [number, number])[0] >= completeLines) continue;
    // the last block that starts on a complete line: the blocks before it (if any) are final
    for (let j = 0; j < i; j++) if (isBlockStart(tokens[j])) return { token: i, char: lineOffset(src, (t.map as [number, number])[0]) };
    return undefined;
  }
  return undefined;
}

const listOpen = new Set(['bullet_list_open', 'ordered_list_open']);

/** The top-level list that a tail starts inside: its items before the tail were kept (rendered and final). */
interface OpenList {
  readonly ordered: boolean;
  /** a loose list's items have paragraphs (kept items were rendered so: their continuation must be too) */
  readonly loose: boolean;
  /** the number of the tail's first item (ordered lists) */
  readonly next: number;
}

/** Where a rendered part starts inside an open top-level list (see {@link SplitStep}). */
export interface ListContext {
  readonly ordered: boolean;
  /** the number of its first item (ordered lists) */
  readonly start: number;
}

/** The index of the close token of the block whose open token is at `open`. */
function closeOf(tokens: readonly Token[], open: number): number {
  const level = tokens[open].level;
  for (let i = open + 1; i < tokens.length; i++) if (tokens[i].level === level && tokens[i].nesting === -1) return i;
  return tokens.length;
}

/**
 * A cut inside the last top-level block when it is a list (no later block started, so {@link stableCut} finds
 * none): before the last of its items that starts on a complete line, so that a long list is not parsed again
 * whole at every step. Only when the items before it are final: the list is loose (a tight one only past
 * {@link tightListCutChars}, see there). `open` is the list the text starts inside, if any.
 */
export function listCut(src: string, tokens: readonly Token[], open: OpenList | undefined): { cut: Cut; list: OpenList } | undefined {
  let first = -1;
  for (let i = tokens.length - 1; i >= 0; i--) if (isBlockStart(tokens[i])) { first = i; break; }
  if (first < 0 || !listOpen.has(tokens[first].type)) return undefined;
  let completeLines = 0;
  for (let i = src.indexOf('\n'); i !== -1; i = src.indexOf('\n', i + 1)) completeLines++;
  const end = closeOf(tokens, first);
  let items = 0;
  let last = -1;
  let lastItems = 0;
  let loose = open?.loose ?? false;
  for (let i = first + 1; i < end; i++) {
    const t = tokens[i];
    if (t.type === 'paragraph_open' && t.level === 2 && !t.hidden) loose = true;
    if (t.type !== 'list_item_open' || t.level !== 1) continue;
    if (items > 0 && t.map && t.map[0] < completeLines) { last = i; lastItems = items; }
    items++;
  }
  if (last < 0 || (!loose && src.length < tightListCutChars)) return undefined;
  const ordered = tokens[first].type === 'ordered_list_open';
  const start = open?.next ?? Number(tokens[first].attrGet('start') ?? 1);
  return {
    cut: { token: last, char: lineOffset(src, (tokens[last].map as [number, number])[0]) },
    list: { ordered, loose, next: start + lastItems },
  };
}

/**
 * Parsed text that starts inside `open` (the rest of a list whose first items were kept) rendered as the
 * whole text renders it: without the list's open token (already rendered), and loose if the list was.
 */
function continueList(tokens: Token[], open: OpenList): Token[] {
  if (!tokens.length || !listOpen.has(tokens[0].type)) return tokens;
  if (open.loose) {
    const end = closeOf(tokens, 0);
    for (let i = 1; i < end; i++) {
      const t = tokens[i];
      if ((t.type === 'paragraph_open' || t.type === 'paragraph_close') && t.level === 2) t.hidden = false;
    }
  }
  return tokens;
}

function lineOffset(src: string, line: number): number {
  let at = 0;
  for (let l = 0; l < line; l++) {
    const nl = src.indexOf('\n', at);
    if (nl === -1) return src.length;
    at = nl + 1;
  }
  return at;
}

/** The end of the window of `src` parsed in one step: after a line break, about `size` characters in. */
function windowEnd(src: string, size: number): number {
  if (src.length <= size) return src.length;
  const nl = src.lastIndexOf('\n', size);
  return nl > 0 ? nl + 1 : src.length;
}

/** What one {@link MarkdownSplitter.step} produced. */
export interface SplitStep {
  /** HTML of blocks that became final: add it after the kept HTML so far ("" for none). */
  readonly kept: string;
  /** HTML of the tail (replaces the previous tail); undefined while text is left to render (`pending`). */
  readonly tail: string | undefined;
  /** True when text is left to render: call {@link MarkdownSplitter.step} again. */
  readonly pending: boolean;
  /**
   * Set when {@link kept} starts inside a top-level list whose first items were kept before (a long list is
   * kept item by item): its HTML then starts with list items, without the list's open tag.
   */
  readonly keptIn?: ListContext;
  /** Set when {@link tail} starts inside such a list. */
  readonly tailIn?: ListContext;
}

/**
 * A growing Markdown text, split into kept HTML (rendered once) and a tail that is rendered again at each
 * step. Appending is O(chunk); a step parses the tail, or a window of about {@link windowChars} characters of it.
 */
export class MarkdownSplitter {
  /** Text from the last stable boundary on, `\r\n` and `\r` normalized to `\n`; the rest is in {@link incoming}. */
  private tail = '';
  /**
   * Appended text not yet moved into {@link tail}, oldest first. Steps take from it only what a window needs:
   * when rendering falls behind a fast stream, joining every chunk into the tail at once would copy the whole
   * backlog again at each step (a string built by `+=` is flattened when it is sliced).
   */
  private incoming: string[] = [];
  /** The first chunk of {@link incoming} not taken yet (taken chunks are dropped in bulk, not one by one). */
  private incomingHead = 0;
  private incomingLength = 0;
  /** A `\r` at the end of the last chunk (it may be the first half of `\r\n`). */
  private carriageReturn = false;
  private dirty = false;
  /** Link reference definitions of the kept part (`[label]: url`), for the blocks after them. */
  private references: NonNullable<Env['references']> = {};
  /** The top-level list that the tail starts inside (its first items were kept), if any. */
  private list: OpenList | undefined;

  /** Adds streamed text; O(chunk). */
  append(text: string): void {
    if (!text) return;
    let t = this.carriageReturn ? `\r${text}` : text;
    this.carriageReturn = t.endsWith('\r');
    if (this.carriageReturn) t = t.slice(0, -1);
    if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
    if (!t) return;
    this.incoming.push(t);
    this.incomingLength += t.length;
    this.dirty = true;
  }

  /** True when appended text waits for {@link step}. */
  get needsRender(): boolean {
    return this.dirty;
  }

  /** Characters not yet kept. */
  get tailLength(): number {
    return this.tail.length + this.incomingLength;
  }

  /** Moves appended text into the tail until it holds more than `size` characters (or nothing is left). */
  private fill(size: number): void {
    if (this.tail.length > size || !this.incomingLength) return;
    const from = this.incomingHead;
    let length = this.tail.length;
    while (this.incomingHead < this.incoming.length && length <= size) length += this.incoming[this.incomingHead++].length;
    const moved = this.incoming.slice(from, this.incomingHead).join('');
    this.incomingLength -= moved.length;
    this.tail += moved;
    if (this.incomingHead === this.incoming.length) {
      this.incoming = [];
      this.incomingHead = 0;
    }
  }

  /**
   * Renders the next part of what was appended: the whole tail when it is short, else one window of about
   * {@link windowChars} characters (call again while `pending`; the caller keeps the time budget).
   */
  step(): SplitStep {
    if (!this.dirty) return { kept: '', tail: undefined, pending: false };
    let kept = '';
    const keptIn = this.list;
    for (let size = windowChars; ; size *= 2) {
      this.fill(size);
      const end = windowEnd(this.tail, size);
      const whole = end >= this.tail.length && !this.incomingLength;
      const src = whole ? this.tail : this.tail.slice(0, end);
      const env: Env = { references: { ...this.references } };
      const open = this.list;
      const tokens = open ? continueList(markdown.parse(src, env), open) : markdown.parse(src, env);
      // inside a list, the list's open token was rendered with its first items: the rest renders without it
      const from = open && tokens.length && listOpen.has(tokens[0].type) ? 1 : 0;
      let cut = stableCut(src, tokens);
      let list: OpenList | undefined;
      if (cut) list = undefined; // a later top-level block started: the list (if any) ended before it
      else ({ cut, list } = listCut(src, tokens, open) ?? { cut: undefined, list: open });
      if (cut) {
        kept = markdown.renderer.render(tokens.slice(from, cut.token), markdown.options, env);
        this.keepReferences(src.slice(0, cut.char));
        this.tail = this.tail.slice(cut.char);
        this.list = list;
      }
      const context = (l: OpenList | undefined): { tailIn?: ListContext } => (l ? { tailIn: { ordered: l.ordered, start: l.next } } : {});
      const fromKept = kept && keptIn ? { keptIn: { ordered: keptIn.ordered, start: keptIn.next } } : {};
      if (whole) {
        this.dirty = false;
        const tail = markdown.renderer.render(cut ? tokens.slice(cut.token) : tokens.slice(from), markdown.options, env);
        return { kept, tail, pending: false, ...fromKept, ...context(this.list) };
      }
      // a window's last block may go on past the window: without a cut, parse a larger window
      if (cut) return { kept, tail: undefined, pending: true, ...fromKept };
    }
  }

  /** Reference definitions in kept text stay known to later blocks (rare: parsed again only then). */
  private keepReferences(kept: string): void {
    if (!kept.includes(']:')) return;
    const env: Env = { references: { ...this.references } };
    markdown.parse(kept, env);
    this.references = env.references ?? this.references;
  }
}
