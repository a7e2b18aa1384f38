/** The steering of a session (src/host/prompts/steering.ts), on the session's connection, thread and queue. */
import type { AcpConnection } from '../../acp/connection';
import { steeringAnswerSchema, steeringMethod, steeringParams } from '../../acp/steering';
import type { AttachmentView, PromptCapabilitiesView } from '../../shared/composerModel';
import { promptBlocks } from './promptAttachments';
import { restrictToCapabilities } from './promptBlocks';
import type { SteeringDeps } from './steering';

/** What steering uses of a session (src/host/agentSession.ts). */
export interface SteeredSession {
  readonly host: { readonly definition: { readonly name: string }; readonly connection: Pick<AcpConnection, 'requestExtension'> };
  readonly sessionId: string;
  readonly thread: SteeringDeps['thread'];
  readonly promptCapabilities: PromptCapabilitiesView;
  readonly queue: { add(text: string, attachments: readonly AttachmentView[], first?: boolean): string };
}

/** The deps of `session`'s steering; `drain` sends the next queued prompt when no turn runs. */
export function steeringDeps(session: SteeredSession, drain: () => void): SteeringDeps {
  return {
    agentName: session.host.definition.name,
    thread: session.thread,
    blocks: async (text, attachments) => restrictToCapabilities(await promptBlocks(text, attachments, session.promptCapabilities), session.promptCapabilities).blocks,
    send: (prompt) => session.host.connection.requestExtension(steeringMethod, steeringParams(session.sessionId, prompt), steeringAnswerSchema),
    sendFirst: (text, attachments) => {
      session.queue.add(text, attachments, true);
      drain();
    },
    queue: (text, attachments) => {
      session.queue.add(text, attachments);
      drain();
    },
  };
}
