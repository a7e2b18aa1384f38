/**
 * The tooltip of the chat header's agent name (pure, no DOM): the agent's own title and version (its `agentInfo` of
 * `initialize`, with its programmatic name when that differs), then the session's folders (docs/architecture.md
 * "Session roots"), then its MCP servers (the host's lines: docs/editor-tools.md).
 */
import { revealInvisible } from '../../src/shared/inertText';
import type { ThreadStateView } from '../../src/shared/viewModel';

/** The tooltip, plain text for a `title` attribute (the agent's text with invisible characters made visible). */
export function agentTooltip(state: Pick<ThreadStateView, 'agentInfo' | 'roots' | 'mcp'>): string | undefined {
  const info = state.agentInfo;
  const shown = info ? info.title || info.name : '';
  const agent = info ? revealInvisible(`${shown} ${info.version}${info.title && info.title !== info.name ? ` (${info.name})` : ''}`) : undefined;
  const folders = state.roots?.length ? `Folders of this session:\n${state.roots.join('\n')}` : undefined;
  return [agent, folders, state.mcp].filter(Boolean).join('\n') || undefined;
}
