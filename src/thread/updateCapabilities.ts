/**
 * Session updates an agent may only send when the client advertised a capability for them
 * (https://agentclientprotocol.com/protocol/schema#clientsessioncapabilities): `notice` needs `session.notices`,
 * `compaction_update` and `compaction_summary_chunk` need `session.compaction`. The client is lenient: such
 * an update is still shown, and the agent's breach is logged. Pure: no vscode, no node.
 */
import type { ClientCapabilities, SessionUpdate } from '../acp/schema/types.gen';

const gated: Readonly<Record<string, 'notices' | 'compaction'>> = {
  notice: 'notices',
  compaction_update: 'compaction',
  compaction_summary_chunk: 'compaction',
};

/**
 * The capability (`session.notices`, `session.compaction`) the update needs that `capabilities` does not
 * advertise, or undefined when it needs none or it is advertised.
 */
export function unadvertisedCapability(update: Pick<SessionUpdate, 'sessionUpdate'>, capabilities: ClientCapabilities): string | undefined {
  const key = gated[update.sessionUpdate];
  if (!key) return undefined;
  const session = capabilities.session;
  return session?.[key] ? undefined : `session.${key}`;
}
