/** `terminal` auth methods: the client runs the agent's own login in a VS Code terminal (src/host/auth/auth.ts). */
import type { ClientFeature } from '../clientFeature';

/** The terminal-login capability (https://agentclientprotocol.com/protocol/initialization). */
export const authTerminalFeature: ClientFeature = {
  fillClientCapabilities: (c) => { c.auth = { terminal: true }; },
};
