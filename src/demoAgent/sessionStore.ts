import * as acp from '@agentclientprotocol/sdk/unstable';
import type { ScenarioConfigOption } from './acpShapes';
import type { Scenario } from './scenario';
import type { PersistedSession, SessionFiles } from './sessionFiles';
import type { Step } from './scenarioSteps';
import type { TurnControl } from './turnControl';

/** A `session/update` payload as the engine sends it (possibly one no client knows). */
export type OutgoingUpdate = Record<string, unknown> & { sessionUpdate: string };

/** One session of the scripted agent, in memory for the process lifetime. */
export interface SessionState {
  readonly sessionId: string;
  cwd: string;
  /** The additionalDirectories of the last session/new, load or resume, absent when none was sent (template `{{additionalDirectories}}`). */
  additionalDirectories?: string[];
  title?: string | null;
  updatedAt: string | null;
  /** Legacy modes (a copy of the scenario's). */
  modes?: { currentModeId: string; availableModes: Array<{ id: string; name: string; description?: string | null }> };
  /** Config options (a copy of the scenario's). */
  configOptions?: ScenarioConfigOption[];
  /** `stored`: known from the scenario but not loaded yet; `closed`: after session/close. */
  status: 'active' | 'stored' | 'closed';
  /** Set by `session/archive` (cleared by `session/unarchive`). */
  archived?: boolean;
  /** Updates sent to the client for this session (replayed by session/load). */
  readonly history: OutgoingUpdate[];
  /** Scenario replay steps (stored sessions). */
  readonly replay: readonly Step[];
  /** Whether the session comes from the scenario or was created by `session/new`. */
  readonly origin: 'stored' | 'created';
  /** The running prompt turn, if any. */
  activeTurn?: TurnControl;
  /** Number of prompts received. */
  prompts: number;
  /** The MCP servers of the last session/new, load or resume (template `{{mcpServers}}`). */
  mcpServers?: acp.McpServer[];
}

/** One page of `session/list`. */
export interface SessionPage {
  sessions: acp.SessionInfo[];
  nextCursor?: string;
}

const cursorPrefix = 'scripted-page:';

/**
 * The sessions of one scripted agent: the scenario's stored sessions plus those created with
 * `session/new`. Supports list (with cwd filter and cursor paging), load, resume, close and delete.
 * With `files`, created sessions are kept across runs: those of earlier runs are known from the start
 * (or, written by another run meanwhile, when first asked for), and every change is saved.
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionState>();
  private counter = 0;

  constructor(private readonly scenario: Scenario, private readonly agentCwd: string, private readonly files?: SessionFiles) {
    for (const stored of scenario.session?.stored ?? []) {
      this.sessions.set(stored.sessionId, {
        sessionId: stored.sessionId,
        cwd: stored.cwd ?? '',
        additionalDirectories: stored.additionalDirectories,
        title: stored.title,
        updatedAt: stored.updatedAt ?? null,
        ...(stored.archived ? { archived: true } : {}),
        ...this.initialState(),
        status: 'stored',
        history: [],
        replay: stored.replay ?? [],
        origin: 'stored',
        prompts: 0,
      });
    }
    for (const kept of files?.loadAll() ?? []) {
      this.adopt(kept);
    }
  }

  /** Saves a created session (when the store keeps its sessions across runs). */
  persist(session: SessionState): void {
    if (!this.files || session.origin !== 'created') return;
    this.files.save({
      v: 1, sessionId: session.sessionId, cwd: session.cwd, additionalDirectories: session.additionalDirectories,
      title: session.title, updatedAt: session.updatedAt, prompts: session.prompts, modes: session.modes,
      configOptions: session.configOptions, history: session.history, ...(session.archived ? { archived: true } : {}),
    });
  }

  /** A session of an earlier run, known again: `stored` until it is loaded or resumed. */
  private adopt(kept: PersistedSession): SessionState {
    const session: SessionState = {
      ...this.initialState(), sessionId: kept.sessionId, cwd: kept.cwd, additionalDirectories: kept.additionalDirectories,
      title: kept.title, updatedAt: kept.updatedAt, prompts: kept.prompts, ...(kept.archived ? { archived: true } : {}),
      ...(kept.modes ? { modes: kept.modes } : {}), ...(kept.configOptions ? { configOptions: kept.configOptions } : {}),
      status: 'stored', history: kept.history, replay: [], origin: 'created',
    };
    this.sessions.set(session.sessionId, session);
    return session;
  }

  /** Creates a new active session with a fresh id. */
  create(cwd: string, additionalDirectories?: string[]): SessionState {
    let sessionId: string;
    do {
      this.counter += 1;
      const random = this.scenario.session?.randomIds ? `-${Math.random().toString(16).slice(2, 8)}` : '';
      sessionId = `${this.scenario.session?.idPrefix ?? 'sess-'}${this.counter}${random}`;
    } while (this.sessions.has(sessionId));
    const session: SessionState = {
      sessionId, cwd, additionalDirectories, updatedAt: new Date().toISOString(), ...this.initialState(),
      status: 'active', history: [], replay: [], origin: 'created', prompts: 0,
    };
    this.sessions.set(sessionId, session);
    return session;
  }

  /**
   * A new active session that starts where `source` is (`session/fork`): a copy of its history (replayed by a
   * `session/load` of the fork), modes and config options; not its title, so the client names it.
   */
  fork(source: SessionState, cwd: string, additionalDirectories?: string[]): SessionState {
    const fork = this.create(cwd, additionalDirectories);
    fork.history.push(...structuredClone(source.history));
    fork.prompts = source.prompts;
    if (source.modes) fork.modes = structuredClone(source.modes);
    if (source.configOptions) fork.configOptions = structuredClone(source.configOptions);
    return fork;
  }

  /** The session with this id, or undefined (also after delete). */
  get(sessionId: string): SessionState | undefined {
    return this.sessions.get(sessionId);
  }

  /**
   * What `session/status` says of a session, without changing anything: `open` while it is active here,
   * `saved` when it is known (or the scenario is persistent), undefined when it is not known.
   */
  statusOf(sessionId: string): 'open' | 'saved' | undefined {
    const session = this.sessions.get(sessionId);
    if (session) return session.status === 'active' ? 'open' : 'saved';
    return this.files?.load(sessionId) || this.scenario.session?.persistent ? 'saved' : undefined;
  }

  /** The session with this id, or a -32002 "Resource not found" error. */
  require(sessionId: string): SessionState {
    const kept = this.sessions.has(sessionId) ? undefined : this.files?.load(sessionId);
    const session = kept ? this.adopt(kept) : this.sessions.get(sessionId);
    if (!session && this.scenario.session?.persistent) {
      // an agent that keeps its sessions across restarts: a session of an earlier run is known here
      const adopted = this.create('');
      this.sessions.delete(adopted.sessionId);
      const state = { ...adopted, sessionId };
      this.sessions.set(sessionId, state);
      return state;
    }
    if (!session) {
      throw acp.RequestError.sessionNotFound(sessionId);
    }
    return session;
  }

  /** Every session. */
  all(): SessionState[] {
    return [...this.sessions.values()];
  }

  /** Deletes a session (silently succeeds for unknown ids). */
  delete(sessionId: string): boolean {
    this.files?.remove(sessionId);
    return this.sessions.delete(sessionId);
  }

  /**
   * One page of sessions: created sessions (newest first), then stored ones in scenario order. `archive`
   * (an agent that advertises archiving) filters by the `archived` filter (`exclude` when absent) and reports
   * `archived` on every session; without it archived sessions are listed like the others.
   * @throws RequestError -32602 for a cursor this store did not hand out, or an archive filter it does not know
   */
  list(cwd: string | null | undefined, cursor: string | null | undefined, archive?: { filter: string | null | undefined }): SessionPage {
    const pageSize = this.scenario.session?.listPageSize ?? 50;
    const created = [...this.sessions.values()].filter((s) => s.origin === 'created').reverse();
    const rest = [...this.sessions.values()].filter((s) => s.origin === 'stored');
    const filter = archive?.filter ?? 'exclude';
    if (!['exclude', 'include', 'only'].includes(filter)) {
      throw acp.RequestError.invalidParams({ archived: filter }, 'unknown archive filter');
    }
    const shown = (s: SessionState): boolean => !archive || filter === 'include' || (filter === 'only') === !!s.archived;
    const all = [...created, ...rest].filter((s) => (!cwd || !s.cwd || s.cwd === cwd) && shown(s));
    const offset = cursor ? decodeCursor(cursor) : 0;
    const page = all.slice(offset, offset + pageSize).map((s): acp.SessionInfo => ({
      sessionId: s.sessionId,
      cwd: s.cwd || cwd || this.agentCwd,
      ...(s.additionalDirectories ? { additionalDirectories: s.additionalDirectories } : {}),
      ...(s.title !== undefined ? { title: s.title } : {}),
      ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}),
      ...(archive ? { archived: !!s.archived } : {}),
    }));
    const next = offset + pageSize;
    return next < all.length ? { sessions: page, nextCursor: encodeCursor(next) } : { sessions: page };
  }

  /** The config options to show this client (boolean ones only if it supports them). */
  visibleConfigOptions(session: SessionState, clientSupportsBoolean: boolean): ScenarioConfigOption[] | undefined {
    if (!session.configOptions) {
      return undefined;
    }
    const always = this.scenario.session?.alwaysSendBooleanOptions ?? false;
    return session.configOptions.filter((o) => o.type !== 'boolean' || clientSupportsBoolean || always);
  }

  private initialState(): Pick<SessionState, 'modes' | 'configOptions'> {
    const { modes, configOptions } = this.scenario.session ?? {};
    return {
      modes: modes ? structuredClone(modes) : undefined,
      configOptions: configOptions ? structuredClone(configOptions) : undefined,
    };
  }
}

function encodeCursor(offset: number): string {
  return btoa(`${cursorPrefix}${offset}`);
}

function decodeCursor(cursor: string): number {
  let text = '';
  try {
    text = atob(cursor);
  } catch {
    // falls through to the error below
  }
  const offset = text.startsWith(cursorPrefix) ? Number(text.slice(cursorPrefix.length)) : NaN;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw acp.RequestError.invalidParams({ cursor }, 'unknown cursor');
  }
  return offset;
}
