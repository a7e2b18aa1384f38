/**
 * Which session methods an agent offers: `agentCapabilities.sessionCapabilities.<name>` is `{}` when it does,
 * omitted or null when it does not (https://agentclientprotocol.com/protocol/initialization). Every gated
 * method (`session/fork`, `set_title`, `archive`, `status`, `close`, `delete`, …) is sent only after this says
 * yes. No `vscode` import: unit-tested with the code that uses it.
 */
import type { InitializeResponse, SessionCapabilities } from '../../acp/schema/types.gen';

/** True when the agent advertised `sessionCapabilities.<capability>`. */
export function agentSupports(host: { readonly initializeResponse: InitializeResponse | undefined }, capability: keyof SessionCapabilities): boolean {
  return !!host.initializeResponse?.agentCapabilities?.sessionCapabilities?.[capability];
}
