/**
 * Session history: the agent's own `session/list` (cursor paging, filtered by cwd; only when the agent
 * advertises `sessionCapabilities.list`, https://agentclientprotocol.com/protocol/session-setup) merged with the
 * client's transcript store, the open sessions and what the user decided (titles, archive: sessionMeta.ts),
 * for Switch Session and the Sessions view.
 */
import type { AcpConnection } from '../../acp/connection';
import type { AgentCapabilities, SessionArchiveFilter, SessionInfo } from '../../acp/schema/types.gen';
import type { AgentSession } from '../agentSession';
import type { TranscriptStore } from './transcriptStore';
import { sessionKey } from '../sessionKey';
import type { AgentHost } from '../agentHost';
import type { SessionMeta } from './sessionMeta';

/** At most this many `session/list` pages are fetched in one go (a runaway agent cannot loop us). */
export const maxListPages = 100;

/**
 * Every session the agent lists for `cwd`: follows `nextCursor` until it is absent (a missing cursor
 * ends the results; cursors are opaque and never persisted). Returns [] without the capability. `archived`
 * (`exclude` or `include`) is sent, on every page, only to an agent that advertises `sessionCapabilities.archive`.
 */
export async function listAgentSessions(connection: AcpConnection, caps: AgentCapabilities | undefined, cwd: string, archived: SessionArchiveFilter = 'exclude'): Promise<SessionInfo[]> {
  if (!caps?.sessionCapabilities?.list) return [];
  const all: SessionInfo[] = [];
  const seen = new Set<string>();
  const filter = caps.sessionCapabilities.archive ? { archived } : {};
  let cursor: string | undefined;
  for (let page = 0; page < maxListPages; page++) {
    const res = await connection.request('session/list', cursor === undefined ? { cwd, ...filter } : { cwd, cursor, ...filter });
    all.push(...res.sessions);
    const next = res.nextCursor ?? undefined;
    if (next === undefined || seen.has(next)) break;
    seen.add(next);
    cursor = next;
  }
  return all;
}

/** One row of history: an open session, a stored transcript, an agent-listed session, or several of these. */
export interface HistoryItem {
  readonly agentId: string;
  readonly agentName: string;
  readonly sessionId: string;
  readonly cwd: string;
  /**
   * The session's other folders, as the open session or the agent's `session/list` last said (a complete list
   * that replaces, never merges with, an earlier one).
   */
  additionalDirectories?: readonly string[];
  title: string;
  /** Milliseconds since the epoch, when known. */
  updatedAt: number | undefined;
  /** When the client first recorded it (milliseconds since the epoch): names it while untitled (src/shared/viewModel.ts `rowTitle`). */
  createdAt?: number | undefined;
  /** An open session's untitled name, as its tab shows it (the agent's agentInfo title may differ from `agentName`). */
  untitledName?: string | undefined;
  /** The open session, if it is open. */
  open: AgentSession | undefined;
  /** Kept in the client's transcript store. */
  stored: boolean;
  /** Listed by the agent (`session/list`). */
  listed: boolean;
  /** Archived: by the user in Switchboard (which wins), else as the agent's list said. */
  archived: boolean;
}

/** What history is built from. */
/**
 * What running agents that can list report for `cwd` (agents are not started for this), per agent id. A
 * failing list is reported through `warn` and skipped.
 */
export async function listRunningAgents(hosts: readonly AgentHost[], cwd: string, warn: (host: AgentHost, message: string) => void, archived: SessionArchiveFilter = 'exclude'): Promise<HistorySources['listed']> {
  const listed = new Map<string, { agentName: string; sessions: SessionInfo[] }>();
  await Promise.all(hosts.map(async (h) => {
    try {
      const sessions = await listAgentSessions(h.connection, h.initializeResponse?.agentCapabilities, cwd, archived);
      if (sessions.length) listed.set(h.definition.id, { agentName: h.definition.name, sessions });
    } catch (error) {
      warn(h, `session/list failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }));
  return listed;
}

export interface HistorySources {
  readonly open: readonly AgentSession[];
  readonly store: Pick<TranscriptStore, 'list'>;
  /** Agent-listed sessions per agent (agents that are running and can list). */
  readonly listed: ReadonlyMap<string, { agentName: string; sessions: readonly SessionInfo[] }>;
  /** What the user decided about a session (its title wins over every other; its archive flag over the agent's). */
  readonly meta?: (agentId: string, sessionId: string) => SessionMeta;
}


/**
 * Merges open sessions, stored transcripts and agent lists (one row per agent + session id), most recent first,
 * open ones on top; then the user's titles and archive flags.
 */
export function mergeHistory(src: HistorySources): HistoryItem[] {
  const rows = new Map<string, HistoryItem>();
  const key = sessionKey;
  for (const s of src.store.list()) {
    rows.set(key(s.agentId, s.sessionId), {
      agentId: s.agentId, agentName: s.agentName, sessionId: s.sessionId, cwd: s.cwd, title: s.title, updatedAt: s.updatedAt, createdAt: s.createdAt,
      open: undefined, stored: true, listed: false, archived: false,
    });
  }
  for (const [agentId, { agentName, sessions }] of src.listed) {
    for (const s of sessions) {
      const k = key(agentId, s.sessionId);
      const row = rows.get(k);
      const updatedAt = s.updatedAt ? Date.parse(s.updatedAt) : undefined;
      if (row) {
        row.listed = true;
        row.archived = s.archived === true;
        row.additionalDirectories = s.additionalDirectories ?? [];
        if (s.title) row.title = s.title;
        if (updatedAt !== undefined && !Number.isNaN(updatedAt)) row.updatedAt = Math.max(row.updatedAt ?? 0, updatedAt);
      } else {
        rows.set(k, {
          agentId, agentName, sessionId: s.sessionId, cwd: s.cwd, additionalDirectories: s.additionalDirectories ?? [], title: s.title ?? '', updatedAt: updatedAt !== undefined && !Number.isNaN(updatedAt) ? updatedAt : undefined,
          open: undefined, stored: false, listed: true, archived: s.archived === true,
        });
      }
    }
  }
  for (const s of src.open) {
    const agentId = s.host.definition.id;
    const k = key(agentId, s.sessionId);
    const row = rows.get(k);
    if (row) {
      row.open = s;
      row.createdAt = s.thread.titles.createdAt ?? row.createdAt;
      row.untitledName = s.thread.titles.untitled;
      row.additionalDirectories = s.context.additionalDirectories;
      if (s.thread.title) row.title = s.thread.title;
    } else {
      rows.set(k, { agentId, agentName: s.host.definition.name, sessionId: s.sessionId, cwd: s.cwd, additionalDirectories: s.context.additionalDirectories, title: s.thread.title, updatedAt: Date.now(), createdAt: s.thread.titles.createdAt, untitledName: s.thread.titles.untitled, open: s, stored: false, listed: false, archived: false });
    }
  }
  for (const row of src.meta ? rows.values() : []) {
    const meta = src.meta?.(row.agentId, row.sessionId) ?? {};
    if (meta.title) row.title = meta.title;
    if (meta.archived !== undefined) row.archived = meta.archived;
  }
  return [...rows.values()].sort((a, b) => Number(!!b.open) - Number(!!a.open) || (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
}

// the wording is shared with the chat's welcome (src/shared/welcomeModel.ts)
export { relativeTime } from '../../shared/welcomeModel';
