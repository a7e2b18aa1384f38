/** `fs/read_text_file` and `fs/write_text_file`, served by each session's {@link FsHandler}. */
import type { ClientFeature } from '../clientFeature';
import type { SessionPart } from '../sessionContext';
import { changesPart } from './changeTracker';
import { FsHandler } from './fsHandler';
import { permissionsPart } from '../permissions/permissionFeature';

/** Each session's file system handler; it records the agent's writes in the session's changes. */
export const fsPart: SessionPart<FsHandler> = {
  name: 'file system handler',
  create: (session) => new FsHandler(session.context, session.part(changesPart), session.part(permissionsPart)),
  rootsChanged: (fs) => fs.rootsChanged(),
};

/** The file-system capability (https://agentclientprotocol.com/protocol/file-system). */
export const fsFeature: ClientFeature<FsHandler> = {
  fillClientCapabilities: (c) => { c.fs = { ...FsHandler.capabilities }; },
  local: true,
  mapped: true,
  part: fsPart,
  register: (connection, route) => {
    connection.onRequest('fs/read_text_file', (p, ct) => route(p.sessionId).readTextFile(p, ct));
    connection.onRequest('fs/write_text_file', (p, ct) => route(p.sessionId).writeTextFile(p, ct));
  },
};
