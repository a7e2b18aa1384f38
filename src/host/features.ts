/**
 * The client capabilities Switchboard implements, one feature each (src/host/clientFeature.ts): what
 * `initialize` advertises is computed from this list, and each agent host registers the handlers of exactly
 * these features, so the advertisement and the wiring cannot drift apart.
 */
import type { AttachedSession } from './agentHost';
import { authTerminalFeature } from './auth/authFeature';
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

/** Every feature, in the order their handlers are registered. */
export const clientFeatures: readonly ClientFeature<AttachedSession>[] = [fsFeature, terminalFeature, permissionFeature, authTerminalFeature, booleanConfigOptionsFeature, elicitationFeatureOver(vscodeElicitationEnvironment)];

/** What `initialize` advertises (https://agentclientprotocol.com/protocol/initialization#client-capabilities). */
export const clientCapabilities = clientCapabilitiesOf(clientFeatures);
