/**
 * The ACP connection's module (src/acp/connection.ts with vscode-jsonrpc, the framing and the protocol's schemas) is a
 * part of its own, required when it is first needed: an agent connects, a stored session is shown, New Session's
 * picker opens, or an elicitation's form is checked (esbuild.mjs `lazyModules`; docs/performance.md, "Start fast,
 * ship small"). Everything outside src/acp reaches it through here.
 */
import type * as Connection from './connection';

export function connectionModule(): typeof Connection {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (see above)
  return require('./connection') as typeof Connection;
}
