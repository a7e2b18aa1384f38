/**
 * The client capabilities Switchboard implements, one feature each (src/host/clientFeature.ts): what
 * `initialize` advertises is computed from this list, and each agent host registers the handlers of exactly
 * these features, so the advertisement and the wiring cannot drift apart.
 */
import type { AttachedAgent, AttachedSession } from './agentHost';
import { authStatusFeature, authTerminalFeature } from './auth/authFeature';
import { clientCapabilitiesOf } from './clientFeature';
import type { ClientFeature } from './clientFeature';
import { fsFeature } from './files/fsFeature';
import { vscodeElicitationEnvironment } from './permissions/elicitationEnvironment';
import { elicitationFeatureOver } from './permissions/elicitationFeature';
import { permissionFeature } from './permissions/permissionFeature';
import { terminalFeature } from './terminals/terminalFeature';

/** Boolean session config options: the chat shows them as checkboxes and sends `{type: 'boolean', value}`. */
const booleanConfigOptionsFeature: ClientFeature = {
  fillClientCapabilities: (c) => { c.session = { ...c.session, configOptions: { boolean: {} } }; },
};

/**
 * The agent's live notices and context compactions (session updates the thread shows: src/thread/model/agentNotices.ts,
 * src/thread/model/compaction.ts; `{}` advertises the whole contract, https://agentclientprotocol.com/rfds/session-notices).
 */
const noticesAndCompactionFeature: ClientFeature = {
  fillClientCapabilities: (c) => { c.session = { ...c.session, notices: {}, compaction: {} }; },
};

/**
 * Plans by id (`plan_update`, `plan_removed`: src/thread/model/plans.ts, https://agentclientprotocol.com/rfds/plan-operations)
 * and subagents exposed as child sessions (`subagent_update`, `session_message`: src/thread/model/subagents.ts,
 * https://agentclientprotocol.com/protocol/v1/draft/subagents): the agent host routes a child's updates and requests
 * to the session that announced it (src/host/agentHost.ts).
 */
const plansAndSubagentsFeature: ClientFeature = {
  fillClientCapabilities: (c) => { c.plan = {}; c.subagents = {}; },
};

/** Every feature, in the order their handlers are registered. */
export const clientFeatures: readonly ClientFeature<AttachedSession, AttachedAgent>[] = [
  fsFeature, terminalFeature, permissionFeature, authTerminalFeature, authStatusFeature, booleanConfigOptionsFeature,
  noticesAndCompactionFeature, plansAndSubagentsFeature, elicitationFeatureOver(vscodeElicitationEnvironment),
];

/** What `initialize` advertises (https://agentclientprotocol.com/protocol/initialization#client-capabilities). */
export const clientCapabilities = clientCapabilitiesOf(clientFeatures);
