/**
 * The chat's view of what an agent runs: its terminals (in the tool calls that embed them) and, for an ACP v2 agent,
 * its background work (the bar above the composer: docs/acp-v2.md). Part of the view model (viewModel.ts).
 */

/**
 * An agent terminal as the chat shows it in the tool calls that embed it: the tail of its output (raw
 * text, ANSI kept; the webview strips escapes for now), its exit status once known, and whether the agent
 * released it (the output stays).
 */
export interface TerminalView {
  readonly terminalId: string;
  /** The command line, for the card's header. */
  readonly command: string;
  /** The kept tail of the output. */
  readonly output: string;
  /** True when the chat dropped the start of the output (it keeps a bounded tail). */
  readonly truncated: boolean;
  /** Characters of output before `output` that the chat dropped (set when `truncated`; absent in older transcripts). */
  readonly droppedChars?: number;
  /** Set once the command ended. */
  readonly exitStatus?: { readonly exitCode: number | null; readonly signal: string | null };
  /** True once the agent released the terminal. */
  readonly released: boolean;
  /** An ACP v2 agent runs it itself: no VS Code terminal to show (docs/acp-v2.md "Terminals"). */
  readonly agentRun?: boolean;
  /** The agent lets the user stop it on its own (its card offers Stop). */
  readonly cancellable?: boolean;
}

/** One piece of an ACP v2 agent's background work, as the bar above the composer lists it (docs/acp-v2.md). */
export interface BackgroundWorkView {
  readonly kind: 'terminal' | 'toolCall' | 'other';
  /** The terminal's or the tool call's id. */
  readonly id: string;
  /** The command line, the tool call's title, or what the agent sent. */
  readonly title: string;
  readonly cancellable: boolean;
}
