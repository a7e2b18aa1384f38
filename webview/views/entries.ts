/**
 * Renders one transcript entry by kind; the renderers live in messages.ts, toolCall.ts, notice.ts, compaction.ts,
 * sessionMessage.ts and subagent.ts (whose card renders its own entries with {@link renderNestedEntry}).
 */
import type { EntryView } from '../../src/shared/viewModel';
import { addMessageToolbar } from './messageActions';
import { changesNode } from './changesEntry';
import { compactionNode } from './compaction';
import { h } from './dom';
import { agentTextNode, userMessageNode } from './messages';
import { elicitationEntryNode } from './elicitation';
import { noticeNode } from './notice';
import type { RenderContext } from './renderContext';
import { sessionMessageNode } from './sessionMessage';
import { subagentNode } from './subagent';
import { toolCallNode } from './toolCall';

export { appendText } from './messages';
export type { RenderContext, TerminalLookup } from './renderContext';

/** The DOM node of one entry: an item of the transcript's list, focusable by script (transcriptFocus.ts moves the one Tab stop). */
export function renderEntry(e: EntryView, ctx: RenderContext): HTMLElement {
  const node = entryNode(e, ctx);
  if (!node.hasAttribute('role')) node.setAttribute('role', 'listitem');
  node.tabIndex = -1;
  if (e.afterRestore) markAfterRestore(node, e.kind === 'user');
  return node;
}

/**
 * An entry inside a subagent's card: the same renderers, without the message toolbars (Copy, Retry and Edit act on
 * the session's own messages).
 */
export function renderNestedEntry(e: EntryView, ctx: RenderContext): HTMLElement {
  const node = e.kind === 'user' ? userMessageNode(e) : e.kind === 'agent' ? agentTextNode(e) : entryNode(e, ctx);
  if (!node.hasAttribute('role')) node.setAttribute('role', 'listitem');
  return node;
}

/** Updates the mark of a node updated in place (an answer, a compaction): its attribute follows the entry. */
export function syncAfterRestore(node: HTMLElement, e: EntryView): void {
  if (e.afterRestore) node.setAttribute('data-after-restore', 'true');
  else node.removeAttribute('data-after-restore');
}

/** An entry after a restored checkpoint: dimmed; a user message also says so in words. */
function markAfterRestore(node: HTMLElement, user: boolean): void {
  node.setAttribute('data-after-restore', 'true');
  if (!user) return;
  const badge = h('div', { class: 'after-restore-badge', 'data-testid': 'after-restore' },
    h('span', { class: 'codicon codicon-history', 'aria-hidden': 'true' }), 'after restored checkpoint');
  const toolbar = node.querySelector(':scope > .msg-actions');
  if (toolbar) toolbar.after(badge);
  else node.prepend(badge);
}

function entryNode(e: EntryView, ctx: RenderContext): HTMLElement {
  switch (e.kind) {
    case 'user': return addMessageToolbar(userMessageNode(e), e.checkpoint ? 'userCheckpoint' : 'user', e.id);
    case 'agent': return addMessageToolbar(agentTextNode(e), 'agent', e.id);
    case 'subagent': return subagentNode(e, ctx, renderNestedEntry);
    case 'sessionMessage': return sessionMessageNode(e);
    case 'thought': return agentTextNode(e);
    case 'toolCall': return toolCallNode(e, ctx);
    case 'notice': return noticeNode(e, ctx);
    case 'compaction': return compactionNode(e);
    case 'elicitation': return elicitationEntryNode(e, ctx);
    case 'changes': return changesNode(e, ctx.actions);
  }
}
