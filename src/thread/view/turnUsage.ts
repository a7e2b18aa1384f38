/**
 * The usage a `session/prompt` response reports (`PromptResponse.usage`, unstable; https://agentclientprotocol.com/rfds/end-turn-token-usage)
 * as the chat shows it: the three required counts and those of the optional ones the agent gave (pure). The RFD is a
 * draft and leaves open whether the numbers are the turn's or the session's so far; the chat shows them as reported,
 * labelled as the last turn's.
 */
import type { Usage } from '../../acp/schema/types.gen';
import type { TurnUsageView } from '../../shared/viewModel';

/** The view of a validated `usage`. */
export function turnUsageToView(u: Usage): TurnUsageView {
  const optional = (n: number | null | undefined): number | undefined => (typeof n === 'number' && n >= 0 ? n : undefined);
  const thought = optional(u.thoughtTokens);
  const cachedRead = optional(u.cachedReadTokens);
  const cachedWrite = optional(u.cachedWriteTokens);
  return {
    total: u.totalTokens, input: u.inputTokens, output: u.outputTokens,
    ...(thought !== undefined ? { thought } : {}),
    ...(cachedRead !== undefined ? { cachedRead } : {}),
    ...(cachedWrite !== undefined ? { cachedWrite } : {}),
  };
}
