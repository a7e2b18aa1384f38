/**
 * The compare view's DOM helpers: elements from `document.createElement`, every text from the model as text
 * nodes (never HTML), and its invisible or bidirectional control characters shown as `<U+202E>` markers so
 * that a title, a branch or a diff line reads as it runs (src/shared/inertText.ts, docs/security.md).
 */
import { visibleTextParts } from '../../src/shared/inertText';

/** Creates an element with attributes (constants of this page, never model text) and text or node children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Readonly<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/**
 * `text` as nodes: ordinary runs as text nodes, every invisible character as a marker; `breakable`: with a line
 * break opportunity (`<wbr>`) after each `/`, `-`, `_` and `.` (a branch name wraps between its words).
 */
export function visibleText(text: string, breakable = false): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const part of visibleTextParts(text)) {
    if ('text' in part) {
      const pieces = breakable ? part.text.split(/(?<=[/\-_.])/) : [part.text];
      pieces.forEach((piece, i) => fragment.append(...(i ? [document.createElement('wbr')] : []), document.createTextNode(piece)));
    } else fragment.append(h('span', { class: 'invisible-char', title: `Invisible character ${part.invisible}` }, `<${part.invisible}>`));
  }
  return fragment;
}

const shown = new WeakMap<Element, string>();

/**
 * Sets the text of `el` to model text (with markers), only when it changed: an update that leaves it alone
 * keeps the user's selection in it.
 */
export function setText(el: Element, text: string, breakable = false): void {
  if (shown.get(el) === text) return;
  shown.set(el, text);
  el.replaceChildren(visibleText(text, breakable));
}

/** Sets plain text of this page's own (no markers needed), only when it changed. */
export function setPlain(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Sets or removes an attribute, only when it changed. */
export function setAttr(el: Element, name: string, value: string | undefined): void {
  if (value === undefined) { if (el.hasAttribute(name)) el.removeAttribute(name); }
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export { setChildren } from '../lib/setChildren';
