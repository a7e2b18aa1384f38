/**
 * The plain text of rendered agent Markdown without a DOM (webview/transcript/freezer.ts has the DOM's walk
 * of the same text; docs/performance.md, "A bounded DOM"). No DOM here: it runs in plain node in the tests.
 */

/**
 * Elements whose text starts a new line in a rendered part's plain text (webview/transcript/freezer.ts), and
 * the text of HTML that was never put in the DOM ({@link htmlPlainText}).
 */
export const textBlockTags: ReadonlySet<string> = new Set([
  'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'TR', 'PRE', 'BLOCKQUOTE', 'UL', 'OL', 'TABLE', 'THEAD', 'TBODY', 'DIV', 'HR',
]);

/** A line break before a block-level tag (markdown-it's output; code is escaped, so `<` is always a tag). */
export const blockBreaks = /\n(?=<\/?(?:p|ul|ol|li|h[1-6]|blockquote|table|thead|tbody|tr|th|td|div|pre|hr)\b)/g;

const voidTags = new Set(['BR', 'HR', 'IMG']);
const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/**
 * The plain text that a part rendered from `html` (markdown-it's output, before sanitizing) shows, without
 * putting it in a DOM: the same text, line breaks between blocks and tabs between table cells as the
 * freezer's walk of the rendered part gives (webview/transcript/freezer.ts), so that a selection in it lands
 * on the same characters once the part is rendered. markdown-it writes well-formed HTML with escaped text.
 */
export function htmlPlainText(html: string): string {
  const src = html.replace(blockBreaks, '');
  let text = '';
  /** ids of the open elements' nearest block and cell (0: the part itself / none) */
  const blocks: number[] = [0];
  const cells: number[] = [0];
  const open: string[] = [];
  let nextId = 1;
  let lastBlock = -1;
  let lastCell = 0;
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>|[^<]+|</g;
  for (let m = tag.exec(src); m; m = tag.exec(src)) {
    if (m[2] === undefined) {
      // markdown-it escapes & < > " (by name, or by number in code), and writes every other character as itself
      const t = m[0].includes('&') ? m[0].replace(/&(?:(amp|lt|gt|quot)|#(\d+)|#x([\da-f]+));/gi, (e, name?: string, dec?: string, hex?: string) => (name ? entities[e] : String.fromCodePoint(dec ? +dec : parseInt(hex as string, 16)))) : m[0];
      if (!t) continue;
      const block = blocks[blocks.length - 1];
      const cell = cells[cells.length - 1];
      let sep = '';
      if (lastBlock !== -1 && block !== lastBlock) sep = '\n';
      else if (lastBlock !== -1 && cell !== lastCell && cell) sep = '\t';
      // text split by a tag that made no block (inline code, emphasis): separate nodes, no separator
      text += sep + t;
      lastBlock = block;
      lastCell = cell;
      continue;
    }
    const name = m[2].toUpperCase();
    if (m[1]) {
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      open.length = at;
      blocks.length = at + 1;
      cells.length = at + 1;
      continue;
    }
    if (voidTags.has(name)) continue;
    open.push(name);
    blocks.push(textBlockTags.has(name) ? nextId++ : blocks[blocks.length - 1]);
    cells.push(name === 'TD' || name === 'TH' ? nextId++ : cells[cells.length - 1]);
  }
  return text;
}
