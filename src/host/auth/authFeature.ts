/**
 * The client's side of authentication that belongs to the connection: `terminal` auth methods (the client
 * runs the agent's own login in a VS Code terminal, src/host/auth/auth.ts), and the agent's `auth/status_update`
 * notification (UNSTABLE; docs/acp-features.md#accounts-and-model-providers).
 */
import type { AttachedAgent } from '../agentHost';
import type { ClientFeature } from '../clientFeature';

/** The terminal-login capability (https://agentclientprotocol.com/protocol/initialization). */
export const authTerminalFeature: ClientFeature = {
  fillClientCapabilities: (c) => { c.auth = { terminal: true }; },
  local: true,
};

/**
 * `auth/status_update`: the agent's sign-in state changed. Nothing to advertise (the agent's own `auth.status`
 * capability gates it); an update from an agent without that capability is logged and ignored, so such an
 * agent shows nothing new.
 */
export const authStatusFeature: ClientFeature<never, AttachedAgent> = {
  fillClientCapabilities: () => undefined,
  register: (connection, _route, log, agent) => {
    connection.onNotification('auth/status_update', (p) => {
      if (agent.agentCapabilities?.auth?.status) agent.setAuthStatus(p);
      else log('ignored auth/status_update: the agent did not advertise auth.status');
    });
  },
};
