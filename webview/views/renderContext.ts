/** What entry renderers get: the host transport (each feature posts its own commands) and lookups. */
import type { TerminalView } from '../../src/shared/viewModel';
import type { HostIpc } from '../hostIpc';

/** Finds the output of an agent terminal embedded in a tool call. */
export type TerminalLookup = (terminalId: string) => TerminalView | undefined;

/** Context passed to every entry renderer. */
export interface RenderContext {
  readonly ipc: HostIpc;
  readonly terminals: TerminalLookup;
}
