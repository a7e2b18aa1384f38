/** Renders one transcript entry by kind; the renderers live in messages.ts, toolCall.ts, notice.ts and compaction.ts. */
import type { EntryView } from '../../src/shared/viewModel';
import { addMessageToolbar } from './messageActions';
import { compactionNode } from './compaction';
import { agentTextNode, userMessageNode } from './messages';
import { elicitationEntryNode } from './elicitation';
import { noticeNode } from './notice';
import type { RenderContext } from './renderContext';
import { toolCallNode } from './toolCall';

export { appendText } from './messages';
export type { RenderContext, TerminalLookup } from './renderContext';

/** The DOM node of one entry: an item of the transcript's list, focusable by script (transcriptFocus.ts moves the one Tab stop). */
export function renderEntry(e: EntryView, ctx: RenderContext): HTMLElement {
  const node = entryNode(e, ctx);
  if (!node.hasAttribute('role')) node.setAttribute('role', 'listitem');
  node.tabIndex = -1;
  return node;
}

function entryNode(e: EntryView, ctx: RenderContext): HTMLElement {
  switch (e.kind) {
    case 'user': return addMessageToolbar(userMessageNode(e), 'user', e.id);
    case 'agent': return addMessageToolbar(agentTextNode(e), 'agent', e.id);
    case 'thought': return agentTextNode(e);
    case 'toolCall': return toolCallNode(e, ctx);
    case 'notice': return noticeNode(e, ctx);
    case 'compaction': return compactionNode(e);
    case 'elicitation': return elicitationEntryNode(e, ctx);
  }
}
