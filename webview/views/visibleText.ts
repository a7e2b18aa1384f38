/**
 * Agent text with its invisible and bidirectional control characters made visible: each becomes a styled
 * `<U+202E>` marker (class `invisible-char`), so that a command line or a path shows every character that is
 * in it, in the order it runs. Built from text nodes only (src/shared/inertText.ts splits the text).
 */
import { visibleTextParts } from '../../src/shared/inertText';
import { h } from './dom';

/** `text` as nodes: ordinary runs as text, every invisible character as a marker. */
export function visibleText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const part of visibleTextParts(text)) {
    if ('text' in part) fragment.append(document.createTextNode(part.text));
    else fragment.append(h('span', { class: 'invisible-char', 'data-testid': 'invisible-char', title: `Invisible character ${part.invisible}` }, `<${part.invisible}>`));
  }
  return fragment;
}
