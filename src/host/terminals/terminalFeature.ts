/** `terminal/*`, served by each session's {@link TerminalManager}: all five methods or none. */
import type { ClientFeature } from '../clientFeature';
import type { SessionPart } from '../sessionContext';
import { TerminalManager } from './terminalHandler';
import { permissionsPart } from '../permissions/permissionFeature';

/** Each session's terminals; the agent's exit releases them. */
export const terminalsPart: SessionPart<TerminalManager> = {
  name: 'terminals',
  create: (session) => new TerminalManager(session.context, session.part(permissionsPart)),
  agentExited: (terminals) => terminals.releaseAll(),
};

/** The terminal capability (https://agentclientprotocol.com/protocol/terminals). */
export const terminalFeature: ClientFeature<TerminalManager> = {
  fillClientCapabilities: (c) => { c.terminal = TerminalManager.supported; },
  local: true,
  mapped: true,
  part: terminalsPart,
  register: (connection, route) => {
    connection.onRequest('terminal/create', (p, ct) => route(p.sessionId).create(p, ct));
    connection.onRequest('terminal/output', (p, ct) => route(p.sessionId).output(p, ct));
    connection.onRequest('terminal/wait_for_exit', (p, ct) => route(p.sessionId).waitForExit(p, ct));
    connection.onRequest('terminal/kill', (p, ct) => route(p.sessionId).kill(p, ct));
    connection.onRequest('terminal/release', (p, ct) => route(p.sessionId).release(p, ct));
  },
};
