/** `session/request_permission`, served by each session's {@link PermissionBroker}. Every client serves it: no capability bit. */
import type { ClientFeature } from '../clientFeature';
import type { SessionPart } from '../sessionContext';
import { PermissionBroker } from './permissionBroker';
import type { PermissionEnvironment } from './permissionBroker';

/** Each session's permission requests, asked in the environment the session was given (VS Code's: src/host/features.ts). */
export const permissionsPart: SessionPart<PermissionBroker, { readonly permissionEnvironment?: PermissionEnvironment }> = {
  name: 'permission broker',
  create: (session) => new PermissionBroker(session.context, session.options.permissionEnvironment),
  cancelRequests: (permissions) => permissions.cancelAll(),
  turnStarted: (permissions) => {
    permissions.grants.startTurn();
    permissions.audit.startTurn();
  },
};

/** Permission requests (https://agentclientprotocol.com/protocol/tool-calls#requesting-permission). */
export const permissionFeature: ClientFeature<PermissionBroker> = {
  fillClientCapabilities: () => undefined,
  part: permissionsPart,
  register: (connection, route) => {
    connection.onRequest('session/request_permission', (p, ct) => route(p.sessionId).request(p, ct));
  },
};
