/**
 * A message between sessions (`session_message`, src/thread/model/sessionMessages.ts): what the agent sent a subagent (or a
 * subagent its parent), with who it went to or came from, and its text as sanitized Markdown (agent text).
 */
import type { SessionMessageView } from '../../src/shared/viewModel';
import { h } from './dom';
import { renderMarkdown } from './markdown';
import { contentNode } from './messages';

/** The node of a message between sessions. */
export function sessionMessageNode(e: SessionMessageView): HTMLElement {
  const peer = e.peer ?? 'another session';
  const label = e.direction === 'in' ? `Message from ${peer}` : e.direction === 'out' ? `Message to ${peer}` : 'Message between sessions';
  const icon = e.direction === 'out' ? 'arrow-right' : 'mail';
  return h('div', { class: 'entry session-message', 'data-testid': 'session-message', 'data-direction': e.direction },
    h('div', { class: 'session-message-label', 'data-testid': 'session-message-label' }, h('span', { class: `codicon codicon-${icon}`, 'aria-hidden': 'true' }), ` ${label}`),
    h('div', { class: 'text markdown' }, renderMarkdown(e.text)),
    ...e.blocks.map((c) => contentNode(c)));
}
