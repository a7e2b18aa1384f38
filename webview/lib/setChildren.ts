/**
 * Makes `children` the children of `parent`, in order, moving only the nodes that are out of place: a node
 * that stays where it was is never detached, so it keeps a click in progress, its focus, its scroll position and
 * its open state (`replaceChildren` would detach and re-attach every one of them). Used by the chat's views and
 * the compare view's page.
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
