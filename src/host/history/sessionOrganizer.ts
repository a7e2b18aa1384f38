/**
 * Rename, Archive, Unarchive and Delete Session: what the user decides about a session is kept by the client
 * for every agent (sessionMeta.ts; a deletion removes the transcript), and the agent is told too when it is
 * running and advertises the method: `session/set_title` (`sessionCapabilities.title`), `session/archive` and
 * `session/unarchive` (`sessionCapabilities.archive`, unstable), `session/delete` (`sessionCapabilities.delete`).
 * An agent that is not running is not started for this; one that refuses keeps its copy, and the caller shows
 * why (docs/sessions.md "Organizing sessions").
 */
import { settingAnswerMs, withAnswerTimeout } from '../../acp/answerTimeout';
import type { AgentHost } from '../agentHost';
import type { AgentSession } from '../agentSession';
import { agentSupports } from '../lifecycle/sessionCapabilities';
import { sessionKey } from '../sessionKey';
import { maxSessionTitle, type SessionMetaStore } from './sessionMeta';
import type { TranscriptStore } from './transcriptStore';

/** What the organizer works with: the manager's sessions and agents, as functions (docs/architecture.md#layers). */
export interface SessionOrganizerDeps {
  readonly meta: SessionMetaStore;
  readonly store?: Pick<TranscriptStore, 'remove'>;
  /** The open session with this key. */
  readonly sessionOf: (key: string) => AgentSession | undefined;
  /** The host of an agent, if it was started. */
  readonly hostOf: (agentId: string) => AgentHost | undefined;
  /** Leaves an open session (`session/close` when the agent supports it). */
  readonly close: (key: string) => void;
  /** History changed: a title, an archive flag, a deletion. */
  readonly changed: () => void;
}

/** How a change went on the agent's side; the client's copy changed either way. */
export interface AgentOutcome {
  /** `told`: the agent stored it too; `local`: it cannot, or is not running; `failed`: it refused (see `error`). */
  readonly agent: 'told' | 'local' | 'failed';
  /** The agent's error, in words. */
  readonly error?: string;
}

/** Titles, archive flags and deletions of sessions. */
export class SessionOrganizer {
  constructor(private readonly deps: SessionOrganizerDeps) {}

  /**
   * Renames a session: the client keeps `title` (whitespace collapsed; it wins over the agent's titles from now
   * on) and shows it everywhere at once, then tells an agent that supports `session/set_title`, whose stored
   * (maybe normalized) title is shown instead, as the schema asks. Rejects only an empty title.
   */
  async rename(agentId: string, sessionId: string, title: string): Promise<AgentOutcome & { readonly title: string }> {
    const clean = Array.from(title.replace(/\s+/g, ' ').trim()).slice(0, maxSessionTitle).join('');
    if (!clean) throw new Error('A session title cannot be empty.');
    this.setTitle(agentId, sessionId, clean);
    const outcome = await this.tell(agentId, 'title', async (host) => {
      const res = await withAnswerTimeout('session/set_title', settingAnswerMs, (token) => host.connection.request('session/set_title', { sessionId, title: clean }, token));
      if (res.title.trim() && res.title !== clean) this.setTitle(agentId, sessionId, res.title);
      return res.title.trim() || clean;
    });
    return { ...outcome, title: outcome.value ?? clean };
  }

  /**
   * Archives a session: it leaves (the caller closes its chat first), the client hides it from history
   * (shown again with the Archived filter), and an agent that supports archiving archives it too.
   */
  async archive(agentId: string, sessionId: string): Promise<AgentOutcome> {
    const key = sessionKey(agentId, sessionId);
    if (this.deps.sessionOf(key)) this.deps.close(key);
    this.deps.meta.setArchived(agentId, sessionId, true);
    this.deps.changed();
    return this.tell(agentId, 'archive', (host) => withAnswerTimeout('session/archive', settingAnswerMs, (token) => host.connection.request('session/archive', { sessionId }, token)));
  }

  /** Unarchives a session (it shows in history again; it is not opened), and tells an agent that supports archiving. */
  async unarchive(agentId: string, sessionId: string): Promise<AgentOutcome> {
    this.deps.meta.setArchived(agentId, sessionId, false);
    this.deps.changed();
    return this.tell(agentId, 'archive', (host) => withAnswerTimeout('session/unarchive', settingAnswerMs, (token) => host.connection.request('session/unarchive', { sessionId }, token)));
  }

  /**
   * Deletes a session (after the user confirmed): closes it if open, sends `session/delete` when its agent
   * is running and advertises `sessionCapabilities.delete`, and removes the client's transcript and records.
   * Resolves to false when the agent kept its own copy (it cannot delete, or is not running).
   */
  async delete(agentId: string, sessionId: string): Promise<boolean> {
    const key = sessionKey(agentId, sessionId);
    if (this.deps.sessionOf(key)) this.deps.close(key);
    this.deps.store?.remove(agentId, sessionId);
    this.deps.meta.forget(agentId, sessionId);
    const host = this.readyHost(agentId, 'delete');
    try {
      if (host) await host.connection.request('session/delete', { sessionId });
    } finally {
      this.deps.changed();
    }
    return !!host;
  }

  private setTitle(agentId: string, sessionId: string, title: string): void {
    this.deps.meta.setTitle(agentId, sessionId, title);
    this.deps.sessionOf(sessionKey(agentId, sessionId))?.thread.setUserTitle(title);
    this.deps.changed();
  }

  /** The agent's host when it runs and advertises `capability`. */
  private readyHost(agentId: string, capability: 'title' | 'archive' | 'delete'): AgentHost | undefined {
    const host = this.deps.hostOf(agentId);
    return host?.state === 'ready' && agentSupports(host, capability) ? host : undefined;
  }

  /** Runs `request` on the agent's host if it runs and has the capability; a failure is logged and returned, never thrown. */
  private async tell<T>(agentId: string, capability: 'title' | 'archive', request: (host: AgentHost) => Promise<T>): Promise<AgentOutcome & { readonly value?: T }> {
    const host = this.readyHost(agentId, capability);
    if (!host) return { agent: 'local' };
    try {
      return { agent: 'told', value: await request(host) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      host.log.warn(`${capability === 'title' ? 'session/set_title' : 'session/archive or unarchive'} failed: ${message}`);
      return { agent: 'failed', error: message };
    }
  }
}
