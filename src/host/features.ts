/**
 * What Switchboard's sessions and connections are made of. The client capabilities it implements, one feature
 * each (src/host/clientFeature.ts): what `initialize` advertises is computed from this list, and each agent host
 * registers the handlers of exactly these features, so the advertisement and the wiring cannot drift apart. And
 * the parts of every session (src/host/sessionContext.ts), among them those that serve the features' requests,
 * with the VS Code environments in which they ask the user.
 */
import type { AttachedAgent } from './agentHost';
import type { AgentSessionOptions } from './agentSession';
import { activityPart } from './permissions/sessionActivityPart';
import { authStatusFeature, authTerminalFeature } from './auth/authFeature';
import { clientCapabilitiesOf } from './clientFeature';
import type { ClientFeature } from './clientFeature';
import { changesPart } from './files/changeTracker';
import { fsFeature, fsPart } from './files/fsFeature';
import { checkpointsPart } from './files/turnCheckpoints';
import { followPart } from './follow/followAgent';
import { mcpOverAcpFeature } from './lifecycle/editorTools/acpServers';
import { editorToolsPart } from './lifecycle/editorTools/editorToolsPart';
import { vscodeElicitationEnvironment } from './permissions/elicitationEnvironment';
import { elicitationFeatureOver, elicitationsPart } from './permissions/elicitationFeature';
import { vscodePermissionEnvironment } from './permissions/permissionEnvironment';
import { permissionFeature, permissionsPart } from './permissions/permissionFeature';
import { queuePart } from './prompts/promptQueue';
import type { Disposable } from './sessionContext';
import { terminalFeature, terminalsPart } from './terminals/terminalFeature';

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
export const clientFeatures: readonly ClientFeature<Disposable, AttachedAgent>[] = [
  fsFeature, terminalFeature, permissionFeature, authTerminalFeature, authStatusFeature, booleanConfigOptionsFeature,
  noticesAndCompactionFeature, plansAndSubagentsFeature, elicitationFeatureOver(vscodeElicitationEnvironment), mcpOverAcpFeature,
];

/** What `initialize` advertises (https://agentclientprotocol.com/protocol/initialization#client-capabilities). */
export const clientCapabilities = clientCapabilitiesOf(clientFeatures);

/**
 * The parts of every session, in the order in which they are made and disposed (a part that another one needs is
 * made first), and the environments in which they ask the user when no chat shows the question.
 */
export const sessionFeatures: Pick<AgentSessionOptions, 'parts' | 'permissionEnvironment' | 'elicitationEnvironment'> = {
  parts: [queuePart, permissionsPart, elicitationsPart, terminalsPart, followPart, fsPart, changesPart, checkpointsPart, activityPart, editorToolsPart],
  permissionEnvironment: vscodePermissionEnvironment,
  elicitationEnvironment: vscodeElicitationEnvironment,
};
