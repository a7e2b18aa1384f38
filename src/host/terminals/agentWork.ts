/**
 * What an ACP v2 agent reports beyond v1's updates (src/acp/v2/v2Updates.ts), applied to its session's thread
 * (docs/acp-v2.md). The agent runs its terminals and the client only shows them: each `terminal_update` and
 * `terminal_output_chunk` lands in the thread's terminal store, the one v1's client-run terminals use, so a tool call
 * that embeds `{type: "terminal", terminalId}` shows it live in its card, read-only, and the transcript keeps it.
 * Which terminals and tool calls can be stopped on their own, and the background work of each `state_update`,
 * are the chat's Stop buttons and its background bar.
 */
import type { V2Event } from '../../acp/v2/v2Updates';
import type { AcpThread } from '../../thread/model/thread';
import type { TerminalOutputStore } from '../../thread/model/terminalOutputStore';

type AgentTerminalEvent = Extract<V2Event, { type: 'terminal' }>;

/** Applies one event of an ACP v2 agent to the thread of its session. */
export function applyAgentWork(thread: AcpThread, e: V2Event): void {
  switch (e.type) {
    case 'terminal': return applyAgentTerminal(thread.terminals, e);
    case 'toolCall':
      return thread.patchToolCall(e.toolCallId, (entry) => {
        const before = `${entry.status}/${String(entry.cancellable)}`;
        if (e.cancellable !== undefined) entry.cancellable = e.cancellable;
        if (e.cancelled) entry.status = 'cancelled';
        return `${entry.status}/${String(entry.cancellable)}` !== before;
      });
    case 'state':
      if (e.background) thread.work.setBackground(e.background);
      return;
    default:
  }
}

/** Applies one event of an agent terminal to the store of its session's thread. */
function applyAgentTerminal(store: TerminalOutputStore, e: AgentTerminalEvent): void {
  const known = store.view(e.terminalId);
  if (!known) store.create(e.terminalId, e.command ?? '', true);
  else if (e.output !== undefined || (e.command !== undefined && e.command !== known.command)) {
    // a new command line, or the whole output again (`output` replaces): the record starts over
    store.create(e.terminalId, e.command ?? known.command, true);
    if (e.output === undefined && known.output) store.append(e.terminalId, known.output);
    if (known.exitStatus && !e.exitStatus) store.exit(e.terminalId, known.exitStatus);
  }
  if (e.output) store.append(e.terminalId, e.output);
  if (e.append) store.append(e.terminalId, e.append);
  if (e.exitStatus) store.exit(e.terminalId, e.exitStatus);
  if (e.cancellable !== undefined) store.setCancellable(e.terminalId, e.cancellable);
  else if (known?.cancellable && (e.output !== undefined || e.command !== undefined)) store.setCancellable(e.terminalId, true);
}
