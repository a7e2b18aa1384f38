/** The host's facts a chat header shows (src/thread/view/toView.ts `HeaderFacts`), for tests that project a thread. */
import type { HeaderFacts } from '../../../src/thread/view/toView';

/** The header of a session of `agentName`, Follow Agent off and no Fork. */
export function header(agentName: string): HeaderFacts {
  return { agentName, following: false, canFork: false };
}
