/** The notices a turn's stop reason leaves in the transcript (https://agentclientprotocol.com/protocol/prompt-turn#stop-reasons). */
import type { StopReason } from '../../acp/schema/types.gen';
import type { SessionStatus } from './threadEntries';

const stopReasonNotices: Partial<Record<StopReason, { level: 'info' | 'warning'; text: string }>> = {
  max_tokens: { level: 'warning', text: 'The agent stopped: it reached its maximum number of tokens.' },
  max_turn_requests: { level: 'warning', text: 'The agent stopped: it reached its maximum number of requests in one turn.' },
  refusal: { level: 'warning', text: 'The agent refused to continue. This prompt and what followed it will not be part of the next prompt.' },
  cancelled: { level: 'info', text: 'Turn cancelled.' },
};

/** The notice a user must see for this stop reason (none for `end_turn`). */
export function stopReasonNotice(stopReason: StopReason): { level: 'info' | 'warning'; text: string } | undefined {
  return stopReasonNotices[stopReason];
}

/**
 * The notice of a turn that the window's closing (Reload Window, the window closed) cut off, for a session in
 * `status`; none when no turn ran. The agent process ends with the window, so the turn ends as a Stop would.
 */
export function windowClosedNotice(status: SessionStatus): string | undefined {
  if (status === 'awaitingPermission') return 'The window was closed or reloaded while the agent was waiting for your permission; the turn was cancelled.';
  if (status === 'working') return 'The window was closed or reloaded while the agent was working; the turn was cancelled.';
  return undefined;
}
