/**
 * User messages, agent messages and thoughts (notices: notice.ts). Streamed text is appended (no re-render of a
 * growing message).
 */
import type { AgentTextView, ContentView, UserMessageView } from '../../src/shared/viewModel';
import { h } from './dom';

/** A content block (non-text blocks render as chips). */
export function contentNode(c: ContentView): Node {
  switch (c.type) {
    case 'text': return h('div', { class: 'text' }, c.text);
    case 'image': return h('div', { class: 'chip' }, `image (${c.mimeType})`);
    case 'resource': return h('div', { class: 'chip', title: c.uri }, `📎 ${c.name}`);
    case 'other': return h('div', { class: 'chip' }, c.label);
  }
}

/** A user's message. */
export function userMessageNode(e: UserMessageView): HTMLElement {
  return h('div', { class: 'entry user', 'data-testid': 'user-message' }, ...e.content.map(contentNode));
}

/** An agent message or a thought. */
export function agentTextNode(e: AgentTextView): HTMLElement {
  const body = h('div', { class: 'text', 'data-role': 'text' }, e.text);
  if (e.kind === 'thought') {
    return h('details', { class: 'entry thought', 'data-testid': 'thought' }, h('summary', {}, 'Thinking'), body, ...e.blocks.map(contentNode));
  }
  return h('div', { class: 'entry agent', 'data-testid': 'agent-message' }, body, ...e.blocks.map(contentNode));
}

/** Appends streamed text to a rendered agent message or thought. */
export function appendText(node: HTMLElement, text: string): void {
  node.querySelector('[data-role="text"]')?.append(document.createTextNode(text));
}
