/**
 * Sanitizes registry icons (monochrome SVG, as the registry requires) without a DOM: a strict tokenizer rebuilds
 * the document from a whitelist of SVG elements and attributes. Scripts, event handlers, foreign objects,
 * external references, DOCTYPEs and anything the tokenizer does not understand make it return undefined
 * (the caller then shows a codicon).
 */

const allowedElements = new Set([
  'svg', 'g', 'path', 'circle', 'ellipse', 'rect', 'line', 'polyline', 'polygon', 'defs', 'title', 'desc',
  'clipPath', 'mask', 'linearGradient', 'radialGradient', 'stop',
]);
const allowedAttributes = new Set([
  'xmlns', 'viewBox', 'width', 'height', 'version', 'preserveAspectRatio', 'id', 'class',
  'fill', 'fill-rule', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit',
  'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'clip-rule', 'clip-path', 'mask', 'transform',
  'd', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'points', 'pathLength',
  'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform', 'clipPathUnits', 'maskUnits', 'fx', 'fy',
]);
/** Elements dropped with their whole content (never rendered anyway, or dangerous). */
const droppedElements = new Set(['script', 'foreignObject', 'style', 'metadata', 'a', 'use', 'image', 'iframe', 'animate', 'set', 'animateTransform', 'animateMotion']);
const maxIconBytes = 64 * 1024;

const entityMap: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);?/g, (_m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    const v = entityMap[e];
    if (v === undefined) bad = true;
    return v ?? '';
  });
  return bad ? undefined : out;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function safeValue(name: string, value: string): boolean {
  const v = value.toLowerCase().replace(/\s+/g, '');
  if (v.includes('javascript:') || v.includes('data:') || v.includes('expression(')) return false;
  if (v.includes('url(')) return /^url\(#[\w-]+\)$/.test(v);
  return name !== 'xmlns' || value === 'http://www.w3.org/2000/svg';
}

const tokenPattern = /<!--[\s\S]*?-->|<\?xml[^>]*\?>|<\/([A-Za-z][\w:-]*)\s*>|<([A-Za-z][\w:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/y;
const attrPattern = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gy;

/**
 * Returns a sanitized SVG, or undefined when the input is not a simple SVG document.
 * @param svg the downloaded icon text
 */
export function sanitizeSvg(svg: string): string | undefined {
  if (svg.length > maxIconBytes) return undefined;
  const out: string[] = [];
  const stack: string[] = [];
  let dropDepth = 0;
  let sawRoot = false;
  tokenPattern.lastIndex = 0;
  const text = svg.trim();
  while (tokenPattern.lastIndex < text.length) {
    const start = tokenPattern.lastIndex;
    const m = tokenPattern.exec(text);
    if (!m || m.index !== start) return undefined;
    const [whole, closeName, openName, attrs = '', selfClose, chars] = m;
    if (whole.startsWith('<!--') || whole.startsWith('<?xml')) continue;
    if (chars !== undefined) {
      if (dropDepth === 0 && stack.length) {
        const decoded = decodeEntities(chars);
        if (decoded === undefined) return undefined;
        out.push(escapeText(decoded));
      } else if (chars.trim() && !stack.length) return undefined;
      continue;
    }
    if (closeName !== undefined) {
      if (stack.pop() !== closeName) return undefined;
      if (dropDepth > 0) dropDepth--;
      else out.push(`</${closeName}>`);
      continue;
    }
    const name = openName!;
    if (!sawRoot && name !== 'svg') return undefined;
    if (stack.length === 0 && sawRoot) return undefined;
    sawRoot = true;
    const dropped = dropDepth > 0 || droppedElements.has(name) || !allowedElements.has(name);
    if (!selfClose) {
      stack.push(name);
      if (dropped) dropDepth++;
    }
    if (dropped) continue;
    const kept: string[] = [];
    attrPattern.lastIndex = 0;
    for (let a = attrPattern.exec(attrs); a; a = attrPattern.exec(attrs)) {
      const attrName = a[1]!;
      const value = decodeEntities(a[2] ?? a[3] ?? '');
      if (value === undefined) return undefined;
      if (!allowedAttributes.has(attrName) || !safeValue(attrName, value)) continue;
      kept.push(` ${attrName}="${escapeAttr(value)}"`);
    }
    if (name === 'svg' && !kept.some((k) => k.startsWith(' xmlns='))) kept.unshift(' xmlns="http://www.w3.org/2000/svg"');
    out.push(`<${name}${kept.join('')}${selfClose ? '/' : ''}>`);
  }
  return sawRoot && stack.length === 0 ? out.join('') : undefined;
}

/**
 * The icon with `currentColor` replaced by a fixed colour: VS Code shows `iconPath` SVGs as images, which
 * do not inherit the theme's foreground, so we write one file per theme.
 */
export function tintSvg(svg: string, color: string): string {
  return svg.replace(/currentColor/g, color);
}
