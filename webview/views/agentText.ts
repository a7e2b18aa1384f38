/**
 * Agent text shaped for a model or a Markdown renderer (src/shared/agentText.ts recognises it): a tool call's
 * title with its inline code spans as `<code>`, and the envelopes an agent writes for its model folded into a
 * collapsed disclosure that shows them on demand. Text nodes only: nothing here is Markdown or HTML.
 */
import { inlineCodeSpans, splitEnvelopes } from '../../src/shared/agentText';
import { h } from './dom';
import { visibleText } from './visibleText';

/** A title as text with its inline code spans as `<code>` (invisible characters made visible in both). */
export function titleNodes(title: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const span of inlineCodeSpans(title)) {
    fragment.append(span.code ? h('code', { class: 'title-code' }, visibleText(span.text)) : visibleText(span.text));
  }
  return fragment;
}

/** One envelope: a collapsed disclosure named by its label, its whole text as plain text inside. */
function envelopeNode(label: string, text: string): HTMLElement {
  return h('details', { class: 'agent-envelope', 'data-testid': 'agent-envelope' },
    h('summary', { 'data-testid': 'agent-envelope-summary' }, h('span', { class: 'codicon codicon-info', 'aria-hidden': 'true' }), ` ${label}`),
    h('div', { class: 'agent-envelope-text' }, text));
}

/**
 * `text` with its envelopes folded: the text between them rendered by `render`, each envelope collapsed.
 * Undefined when the text has no envelope (the caller renders it as usual).
 */
export function foldEnvelopes(text: string, render: (text: string) => Node): Node[] | undefined {
  const parts = splitEnvelopes(text);
  if (parts.length === 1 && parts[0].kind === 'text') return undefined;
  return parts.map((p) => (p.kind === 'text' ? render(p.text) : envelopeNode(p.label, p.text)));
}
