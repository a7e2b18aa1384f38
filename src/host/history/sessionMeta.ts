/**
 * What the user decided about sessions, kept by the client for every agent: the title given with Rename
 * Session (it wins over the agent's titles), the archived flag (Archive / Unarchive Session) and the approval level
 * the user chose for it (docs/approvals.md "The approval level"; absent, the session follows the settings). An agent
 * that supports `session/set_title` or `session/archive` is told too, but the client's copy is what every
 * surface shows, so both work with any agent and survive a window reload (docs/sessions.md "Organizing
 * sessions"). Kept in the workspace's state next to the transcript store; read back through a schema. No
 * `vscode` import: unit-tested.
 */
import * as z from 'zod/mini';
import { isApprovalLevel, type ApprovalLevel } from '../../shared/approvalLevel';
import { sessionKey } from '../sessionKey';

/** Where the records are kept (the extension's `workspaceState`). */
export interface SessionMetaMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The key in {@link SessionMetaMemory}. */
export const sessionMetaKey = 'switchboard.sessionMeta';

/** Longest title kept, in characters. */
export const maxSessionTitle = 200;

/** At most this many sessions are remembered (the least recently changed are forgotten first). */
const maxSessions = 2000;

const recordSchema = z.object({
  title: z.optional(z.string().check(z.minLength(1), z.maxLength(maxSessionTitle))),
  /** true: archived by the user; false: unarchived by the user (wins over an agent that still says archived). */
  archived: z.optional(z.boolean()),
  /** The approval level the user chose (a level a later version added reads as none: the settings' level). */
  approvals: z.optional(z.string()),
  /** When it last changed (ms since the epoch). */
  t: z.number(),
});
const storedSchema = z.object({ v: z.literal(1), sessions: z.record(z.string(), z.unknown()) });

/** What the user decided about one session. */
export interface SessionMeta {
  readonly title?: string;
  readonly archived?: boolean;
  readonly approvals?: ApprovalLevel;
}

/** What {@link SessionMetaStore.restore} sets on a session. */
export interface RestoredSession {
  readonly thread: { setUserTitle(title: string | undefined): void };
  readonly permissions: { setLevel(level: ApprovalLevel | undefined): void; readonly chosenLevel: ApprovalLevel | undefined; onDidChangeLevel(listener: () => void): unknown };
}

/** The client's records of user titles, archive flags and approval levels. */
export class SessionMetaStore {
  private _sessions: Record<string, z.infer<typeof recordSchema>> | undefined;

  /** `mask` masks secrets in a title before it is written (src/shared/secretMasker.ts). */
  constructor(private readonly memory: SessionMetaMemory | undefined, private readonly mask: (text: string) => string = (text) => text) {}

  /** What the user decided about a session (`{}` when nothing). */
  get(agentId: string, sessionId: string): SessionMeta {
    const r = this.all()[sessionKey(agentId, sessionId)];
    return r ? { ...(r.title ? { title: r.title } : {}), ...(r.archived !== undefined ? { archived: r.archived } : {}), ...(isApprovalLevel(r.approvals) ? { approvals: r.approvals } : {}) } : {};
  }

  /** Sets the user's title (cut to {@link maxSessionTitle}), or clears it with undefined. */
  setTitle(agentId: string, sessionId: string, title: string | undefined): void {
    const kept = title ? Array.from(this.mask(title)).slice(0, maxSessionTitle).join('') : undefined;
    this.change(agentId, sessionId, (r) => ({ ...r, title: kept }));
  }

  /** Records that the user archived (true) or unarchived (false) a session. */
  setArchived(agentId: string, sessionId: string, archived: boolean): void {
    this.change(agentId, sessionId, (r) => ({ ...r, archived }));
  }

  /** Records the approval level the user chose for a session, or clears it with undefined (the settings' again). */
  setApprovals(agentId: string, sessionId: string, approvals: ApprovalLevel | undefined): void {
    if (this.get(agentId, sessionId).approvals === approvals) return;
    this.change(agentId, sessionId, (r) => ({ ...r, approvals }));
  }

  /** Gives a new session what the user decided about it (title, approval level); keeps the level the user chooses later. */
  restore(agentId: string, sessionId: string, session: RestoredSession): void {
    const meta = this.get(agentId, sessionId);
    session.thread.setUserTitle(meta.title);
    session.permissions.setLevel(meta.approvals);
    session.permissions.onDidChangeLevel(() => this.setApprovals(agentId, sessionId, session.permissions.chosenLevel));
  }

  /** Forgets a session (it was deleted). */
  forget(agentId: string, sessionId: string): void {
    const all = this.all();
    const key = sessionKey(agentId, sessionId);
    if (!(key in all)) return;
    delete all[key];
    this.write(all);
  }

  private change(agentId: string, sessionId: string, apply: (r: SessionMeta) => SessionMeta): void {
    const all = this.all();
    const key = sessionKey(agentId, sessionId);
    const next = apply(this.get(agentId, sessionId));
    all[key] = { ...(next.title ? { title: next.title } : {}), ...(next.archived !== undefined ? { archived: next.archived } : {}), ...(next.approvals ? { approvals: next.approvals } : {}), t: Date.now() };
    const keys = Object.keys(all);
    if (keys.length > maxSessions) {
      for (const old of keys.sort((a, b) => (all[a]?.t ?? 0) - (all[b]?.t ?? 0)).slice(0, keys.length - maxSessions)) delete all[old];
    }
    this.write(all);
  }

  private all(): Record<string, z.infer<typeof recordSchema>> {
    if (!this._sessions) {
      // a record that does not parse (another version wrote it, or it was edited) is dropped, the others kept
      const parsed = storedSchema.safeParse(this.memory?.get(sessionMetaKey));
      const entries = Object.entries(parsed.success ? parsed.data.sessions : {});
      this._sessions = Object.fromEntries(entries.flatMap(([key, raw]) => {
        const r = recordSchema.safeParse(raw);
        return r.success ? [[key, r.data]] : [];
      }));
    }
    return this._sessions;
  }

  private write(all: Record<string, z.infer<typeof recordSchema>>): void {
    this._sessions = all;
    void this.memory?.update(sessionMetaKey, { v: 1, sessions: all });
  }
}
