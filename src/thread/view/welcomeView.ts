/**
 * The view data of the welcome an empty chat shows (src/shared/welcomeModel.ts): what the agent said it can
 * do in `initialize` (https://agentclientprotocol.com/protocol/initialization), plus what the client lets
 * it do, as a line of plain-word badges; and its recent sessions from the session history. Pure.
 */
import type { AgentCapabilities, ClientCapabilities } from '../../acp/schema/types.gen';
import { rowTitle } from '../../shared/sessionTitles';
import { welcomeRecentMax } from '../../shared/welcomeModel';
import type { CapabilityBadgeView, RecentSessionView, WelcomeView } from '../../shared/welcomeModel';

/** A history row as the welcome needs it. */
export interface WelcomeHistoryRow {
  readonly agentId: string;
  readonly sessionId: string;
  readonly title: string;
  readonly updatedAt: number | undefined;
  readonly agentName?: string;
  readonly createdAt?: number | undefined;
}

/**
 * The badges of an agent, in a fixed order: prompts, sessions, MCP, then what the client offers. An agent that chose
 * ACP v2 (`protocolVersion` 2: docs/acp-v2.md) runs its own files and terminals: no client badges, a v2 badge.
 */
export function capabilityBadges(agent: AgentCapabilities | undefined, client: ClientCapabilities | undefined, protocolVersion = 1): CapabilityBadgeView[] {
  const badges: CapabilityBadgeView[] = [];
  const add = (id: string, label: string, icon: string, title: string): void => { badges.push({ id, label, icon, title }); };
  const prompt = agent?.promptCapabilities;
  if (prompt?.image) add('image', 'Images', 'file-media', 'Accepts images in prompts (paste, drop, or the Image button)');
  if (prompt?.audio) add('audio', 'Audio', 'mic', 'Accepts audio in prompts');
  if (prompt?.embeddedContext) add('embeddedContext', 'File contents', 'file-code', 'Receives the contents of attached files and selections (@ files)');
  const sessions = agent?.sessionCapabilities;
  if (agent?.loadSession || sessions?.resume) add('reopen', 'Reopens sessions', 'history', 'Its sessions can be reopened after a restart or a reload of the window');
  if (sessions?.list) add('list', 'Lists sessions', 'list-unordered', 'Lists its own sessions in the Sessions view');
  if (sessions?.fork) add('fork', 'Forks sessions', 'repo-forked', 'Fork Session starts a new chat with the conversation so far');
  // every agent takes stdio MCP servers (https://agentclientprotocol.com/protocol/session-setup#mcp-servers)
  const mcp = ['stdio', ...(agent?.mcpCapabilities?.http ? ['HTTP'] : []), ...(agent?.mcpCapabilities?.sse ? ['SSE'] : [])];
  add('mcp', 'MCP', 'plug', `Uses the MCP servers of switchboard.mcpServers (${mcp.join(', ')})`);
  if (protocolVersion >= 2) {
    add('v2', 'ACP v2', 'beaker', 'Speaks the ACP v2 draft (experimental): it edits files and runs terminals itself, and the chat shows them; the editor\'s tools reach it over MCP');
    return badges;
  }
  if (client?.fs?.readTextFile || client?.fs?.writeTextFile) {
    const how = client.fs.readTextFile && client.fs.writeTextFile ? 'read and edit' : client.fs.readTextFile ? 'read' : 'edit';
    add('fs', 'Editor files', 'file', `May ${how} files through VS Code, unsaved changes included`);
  }
  if (client?.terminal) add('terminal', 'Terminal', 'terminal', 'May run commands in VS Code terminals');
  return badges;
}

/** The most recent sessions of `agentId` besides `ownSessionId`, newest first, at most {@link welcomeRecentMax}. */
export function recentSessions(rows: readonly WelcomeHistoryRow[], agentId: string, ownSessionId: string): RecentSessionView[] {
  return rows
    .filter((r) => r.agentId === agentId && r.sessionId !== ownSessionId)
    .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0))
    .slice(0, welcomeRecentMax)
    .map((r) => ({ sessionId: r.sessionId, title: rowTitle(r), ...(r.updatedAt !== undefined ? { updatedAt: r.updatedAt } : {}) }));
}

/** Everything the welcome shows besides the slash commands (they come with the session's state). */
export function welcomeView(o: {
  readonly agentId: string;
  readonly agentName: string;
  readonly sessionId: string;
  readonly agent: AgentCapabilities | undefined;
  readonly client: ClientCapabilities | undefined;
  readonly history: readonly WelcomeHistoryRow[];
  /** The protocol version the agent chose in `initialize`. */
  readonly protocolVersion?: number;
}): WelcomeView {
  return { agentName: o.agentName, capabilities: capabilityBadges(o.agent, o.client, o.protocolVersion), recent: recentSessions(o.history, o.agentId, o.sessionId) };
}
