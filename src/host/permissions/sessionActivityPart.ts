/** The session's live state as a part of the session (src/host/sessionContext.ts). */
import { SessionActivity } from '../../thread/view/sessionActivity';
import { elicitationsPart } from './elicitationFeature';
import type { SessionPart } from '../sessionContext';

/** The session's live state (src/thread/view/sessionActivity.ts), which counts the elicitations waiting for an answer. */
export const activityPart: SessionPart<SessionActivity> = {
  name: 'activity',
  create: ({ context, part }) => {
    const elicitations = part(elicitationsPart);
    return new SessionActivity(context.thread, { isVisible: () => context.isChatVisible(), pendingElicitations: () => elicitations.pending.filter((p) => p.state === 'pending').length });
  },
};
