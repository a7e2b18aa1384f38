/** `terminal/*`, served by each session's {@link TerminalManager}: all five methods or none. */
import type { ClientFeature } from '../clientFeature';
import { TerminalManager } from './terminalHandler';

/** The terminal capability (https://agentclientprotocol.com/protocol/terminals). */
export const terminalFeature: ClientFeature<{ readonly terminals: TerminalManager }> = {
  fillClientCapabilities: (c) => { c.terminal = TerminalManager.supported; },
  register: (connection, route) => {
    connection.onRequest('terminal/create', (p, ct) => route(p.sessionId).terminals.create(p, ct));
    connection.onRequest('terminal/output', (p, ct) => route(p.sessionId).terminals.output(p, ct));
    connection.onRequest('terminal/wait_for_exit', (p, ct) => route(p.sessionId).terminals.waitForExit(p, ct));
    connection.onRequest('terminal/kill', (p, ct) => route(p.sessionId).terminals.kill(p, ct));
    connection.onRequest('terminal/release', (p, ct) => route(p.sessionId).terminals.release(p, ct));
  },
};
