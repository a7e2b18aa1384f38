/** Tiny DOM helpers: elements are built with textContent only, never innerHTML of agent data. */

/** Creates an element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Array<Node | string | undefined | false>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) if (c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/**
 * Makes `children` the children of `parent`, in order, moving only the nodes that are out of place: a node
 * that stays where it was is never detached, so it keeps a click in progress, its focus and its state
 * (`replaceChildren` would detach and re-attach every one of them).
 */
export function setChildren(parent: Node, children: readonly Node[]): void {
  const wanted = new Set(children);
  for (const node of [...parent.childNodes]) if (!wanted.has(node)) parent.removeChild(node);
  let ref = parent.firstChild;
  for (const node of children) {
    if (node === ref) ref = ref.nextSibling;
    else parent.insertBefore(node, ref);
  }
}
