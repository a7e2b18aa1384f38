/**
 * Session updates an agent may only send when the client advertised a capability for them
 * (https://agentclientprotocol.com/protocol/schema#clientsessioncapabilities): `notice` needs `session.notices`,
 * `compaction_update` and `compaction_summary_chunk` need `session.compaction`, `plan_update` and `plan_removed`
 * need `plan`, `subagent_update`, `session_message` and `session_message_chunk` need `subagents`. The client is
 * lenient: such an update is still shown, and the agent's breach is logged. Pure: no vscode, no node.
 */
import type { ClientCapabilities, SessionUpdate } from '../../acp/schema/types.gen';

const gated: Readonly<Record<string, readonly [('session' | undefined), string]>> = {
  notice: ['session', 'notices'],
  compaction_update: ['session', 'compaction'],
  compaction_summary_chunk: ['session', 'compaction'],
  plan_update: [undefined, 'plan'],
  plan_removed: [undefined, 'plan'],
  subagent_update: [undefined, 'subagents'],
  session_message: [undefined, 'subagents'],
  session_message_chunk: [undefined, 'subagents'],
};

/**
 * The capability (`session.notices`, `session.compaction`, `plan`, `subagents`) the update needs that
 * `capabilities` does not advertise, or undefined when it needs none or it is advertised.
 */
export function unadvertisedCapability(update: Pick<SessionUpdate, 'sessionUpdate'>, capabilities: ClientCapabilities): string | undefined {
  const gate = gated[update.sessionUpdate];
  if (!gate) return undefined;
  const [group, key] = gate;
  const holder = (group ? capabilities[group] : capabilities) as Record<string, unknown> | null | undefined;
  const value = holder?.[key];
  return value !== undefined && value !== null ? undefined : group ? `${group}.${key}` : key;
}
