/** What entry renderers get: the chat's actions (what a button asks of the host) and lookups. */
import type { TerminalView } from '../../src/shared/viewModel';
import type { ChatActions } from '../actions';

/** Finds the output of an agent terminal embedded in a tool call. */
export type TerminalLookup = (terminalId: string) => TerminalView | undefined;

/** Context passed to every entry renderer. */
export interface RenderContext {
  readonly actions: ChatActions;
  readonly terminals: TerminalLookup;
}
