/**
 * Plans as the chat shows them (src/thread/model/plans.ts keeps them): the legacy plan's steps, and the plans by id.
 * Pure: no vscode, no node.
 */
import type { PlanEntry } from '../../acp/schema/types.gen';
import type { PlanEntryView, PlanView } from '../../shared/viewModel';
import type { PlanState } from '../model/plans';

/** Plan steps as the chat shows them: unfinished ones of a cancelled plan as `cancelled`. */
export function planEntriesToView(entries: readonly PlanEntry[], cancelled: boolean): PlanEntryView[] {
  return entries.map((p) => ({ content: p.content, priority: p.priority, status: cancelled && p.status !== 'completed' ? 'cancelled' : p.status }));
}

/** A plan as the chat shows it. */
export function planToView(p: PlanState): PlanView {
  switch (p.type) {
    case 'items': return { planId: p.planId, type: 'items', entries: planEntriesToView(p.entries, p.cancelled === true) };
    case 'markdown': return { planId: p.planId, type: 'markdown', content: p.content };
    case 'file': return { planId: p.planId, type: 'file', uri: p.uri };
  }
}
