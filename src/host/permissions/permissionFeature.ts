/** `session/request_permission`, served by each session's {@link PermissionBroker}. Every client serves it: no capability bit. */
import type { ClientFeature } from '../clientFeature';
import type { PermissionBroker } from './permissionBroker';

/** Permission requests (https://agentclientprotocol.com/protocol/tool-calls#requesting-permission). */
export const permissionFeature: ClientFeature<{ readonly permissions: PermissionBroker }> = {
  fillClientCapabilities: () => undefined,
  register: (connection, route) => {
    connection.onRequest('session/request_permission', (p, ct) => route(p.sessionId).permissions.request(p, ct));
  },
};
