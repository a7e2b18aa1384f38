/** `fs/read_text_file` and `fs/write_text_file`, served by each session's {@link FsHandler}. */
import type { ClientFeature } from '../clientFeature';
import { FsHandler } from './fsHandler';

/** The file-system capability (https://agentclientprotocol.com/protocol/file-system). */
export const fsFeature: ClientFeature<{ readonly fs: FsHandler }> = {
  fillClientCapabilities: (c) => { c.fs = { ...FsHandler.capabilities }; },
  register: (connection, route) => {
    connection.onRequest('fs/read_text_file', (p, ct) => route(p.sessionId).fs.readTextFile(p, ct));
    connection.onRequest('fs/write_text_file', (p, ct) => route(p.sessionId).fs.writeTextFile(p, ct));
  },
};
