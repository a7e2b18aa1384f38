/**
 * A subagent's card as the chat shows it (src/thread/model/subagents.ts keeps it): its status from the state the
 * agent sent last, and why it failed or stopped. Pure: no vscode, no node.
 */
import type { SubagentStatusView } from '../../shared/viewModel';
import type { SubagentState } from '../model/threadEntries';

const stopDetails: Readonly<Record<string, string>> = {
  max_tokens: 'It stopped at its maximum number of tokens.',
  max_turn_requests: 'It stopped at its maximum number of requests.',
  refusal: 'It refused to continue.',
};

/** What the card shows for a state: its status, and why it failed or stopped. */
export function subagentStatus(state: SubagentState | undefined): { status: SubagentStatusView; detail?: string } {
  switch (state?.state) {
    case 'running': return { status: 'running' };
    case 'requires_action': return { status: 'waiting' };
    case 'idle': {
      const reason = state.stopReason;
      if (reason === 'cancelled') return { status: 'cancelled' };
      if (reason === 'error') return { status: 'failed', detail: state.error ?? 'It failed.' };
      const detail = reason ? stopDetails[reason] : undefined;
      return { status: reason === 'refusal' ? 'failed' : 'done', ...(detail ? { detail } : {}) };
    }
    default: return { status: 'unknown' };
  }
}

/** True once the subagent's work ended (the card collapses unless the user opened it). */
export function isFinished(status: SubagentStatusView): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}
