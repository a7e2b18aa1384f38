/** Renders one transcript entry by kind; the renderers live in messages.ts and toolCall.ts. */
import type { EntryView } from '../../src/shared/viewModel';
import { agentTextNode, userMessageNode } from './messages';
import { elicitationEntryNode } from './elicitation';
import { noticeNode } from './notice';
import type { RenderContext } from './renderContext';
import { toolCallNode } from './toolCall';

export { appendText } from './messages';
export type { RenderContext, TerminalLookup } from './renderContext';

/** The DOM node of one entry. */
export function renderEntry(e: EntryView, ctx: RenderContext): HTMLElement {
  switch (e.kind) {
    case 'user': return userMessageNode(e);
    case 'agent':
    case 'thought': return agentTextNode(e);
    case 'toolCall': return toolCallNode(e, ctx);
    case 'notice': return noticeNode(e, ctx);
    case 'elicitation': return elicitationEntryNode(e, ctx);
  }
}
