/**
 * What the per-session handlers (files, terminals, permissions, follow-along, change review) get from their
 * session. One object, so each handler stays independent of how sessions are built. Each handler is one part of
 * its session, made by a {@link SessionPart} listed in `sessionFeatures` (src/host/features.ts), the way a
 * connection gets its handlers from the client features (src/host/clientFeature.ts).
 */
import type * as vscode from 'vscode';
import type { AcpThread } from '../thread/model/thread';

/** The session a handler serves. */
export interface SessionContext {
  readonly sessionId: string;
  /** The session's working directory (absolute). */
  readonly cwd: string;
  /** Extra roots granted to the session (absolute), besides `cwd` and the workspace folders. */
  readonly additionalDirectories: readonly string[];
  /** Display name of the agent, e.g. "Claude Code". */
  readonly agentName: string;
  /** The conversation model (tool calls, notices, permission state). */
  readonly thread: AcpThread;
  /** The agent's log. */
  readonly log: vscode.LogOutputChannel;
  /** Where the agent runs when not on this machine ("build-1 over SSH"): its commands run here only once the user agreed. */
  readonly elsewhere?: string;
  /** True while a chat panel of this session is visible. */
  isChatVisible(): boolean;
}

/** What a session disposes. */
export interface Disposable {
  dispose(): void;
}

/** The parts of a session, each by the {@link SessionPart} that made it. */
export interface SessionParts {
  /** The part `maker` made for this session; throws when the session's list does not have it. */
  part<T extends Disposable>(maker: SessionPart<T, never>): T;
}

/** What a {@link SessionPart} gets from the session it makes its part for. */
export interface SessionSetup<O = unknown> extends SessionParts {
  readonly context: SessionContext;
  /** What the session was given (src/host/agentSession.ts, `AgentSessionOptions`): `O` names what the part reads. */
  readonly options: O;
  /** The client's key of the session (src/host/sessionKey.ts). */
  key(): string;
  /** Disposes `subscription` with the session, before its parts (a part that follows another part's events). */
  track(subscription: Disposable): void;
}

/**
 * One part of every session (its file system, terminals, permission requests …): how it is made, and what it
 * does when the session stops, loses its agent or changes its roots. The hooks run on every part that has
 * them, in the order of the list, so the session core names none of its parts to cancel or release them.
 */
export interface SessionPart<T extends Disposable, O = unknown> {
  /** Says which part is missing, in an error. */
  readonly name: string;
  /** Makes the part for one session; `session.part()` gives the parts it needs (made first when listed later). */
  create(session: SessionSetup<O>): T;
  /** Stop, an abandoned or failed turn, the agent's exit: the agent's pending requests are answered `cancelled`. */
  cancelRequests?(part: T): void;
  /** The agent process exited (after {@link cancelRequests}). */
  agentExited?(part: T): void;
  /** The session's roots changed (docs/sessions.md, "Session roots"). */
  rootsChanged?(part: T): void;
  /** The user's prompt starts a turn (before `session/prompt` is sent). */
  turnStarted?(part: T): void;
}

/** The hooks of {@link SessionPart}. */
export type SessionPartHook = 'cancelRequests' | 'agentExited' | 'rootsChanged' | 'turnStarted';

/** The parts of one session, made from a list in its order; a part another one needs is made when first asked for. */
export class SessionPartSet<O> implements SessionParts {
  private readonly _made = new Map<SessionPart<Disposable, never>, Disposable>();
  private readonly _making = new Set<SessionPart<Disposable, never>>();
  private readonly _setup: SessionSetup<O>;

  constructor(private readonly list: readonly SessionPart<Disposable, O>[], setup: Omit<SessionSetup<O>, 'part'>) {
    this._setup = { ...setup, part: (maker) => this.part(maker) };
    for (const maker of list) this.make(maker);
  }

  part<T extends Disposable>(maker: SessionPart<T, never>): T {
    // stored under the maker that made it: the part is the T its create returned
    return (this._made.get(maker) ?? this.make(maker)) as T;
  }

  /** Runs a hook on every part that has it, in the order of the list. */
  each(hook: SessionPartHook): void {
    for (const maker of this.list) {
      const made = this._made.get(maker);
      if (made) maker[hook]?.(made);
    }
  }

  /** Disposes the parts in the order of the list. */
  dispose(): void {
    for (const maker of this.list) this._made.get(maker)?.dispose();
    this._made.clear();
  }

  private make(maker: SessionPart<Disposable, never>): Disposable {
    const listed = this.list.find((m) => m === maker);
    if (!listed) throw new Error(`This session has no ${maker.name}: list its part in sessionFeatures (src/host/features.ts).`);
    const made = this._made.get(listed);
    if (made) return made;
    if (this._making.has(listed)) throw new Error(`The session's ${maker.name} needs itself to be made.`);
    this._making.add(listed);
    try {
      const part = listed.create(this._setup);
      this._made.set(listed, part);
      return part;
    } finally {
      this._making.delete(listed);
    }
  }
}
