/**
 * Fork Session (`session/fork`, unstable, only when the agent advertises `sessionCapabilities.fork`): a new
 * session that starts with the context of an open one. The agent does not replay the conversation to the
 * fork, so the client copies what the source's chat shows (entries with subagent cards, plans, terminal output), settled as a
 * restored transcript is (nothing pending), under a "Forked from …" marker. The fork gets its own modes and
 * config options from the response, and is named "<source title> (fork)" until the agent names it
 * (docs/sessions.md "Organizing sessions").
 */
import type * as vscode from 'vscode';
import type { ThreadEntry } from '../../thread/model/thread';
import type { AgentHost } from '../agentHost';
import type { AgentSession } from '../agentSession';
import { settleEntry } from '../../thread/model/entryKinds';
import { agentSupports } from './sessionCapabilities';
import { applySetup } from './editorTools/editorToolsPart';
import type { SessionSetup } from './sessionSetup';

/** What forking needs from the session manager (docs/architecture.md#layers). */
export interface SessionForkDeps {
  /** The fields of a session setup request on `host` in `cwd` (sessionSetup.ts). */
  readonly setupFor: (host: AgentHost, cwd: string) => Promise<SessionSetup>;
  /** Runs a request; after `auth_required`, logs in and runs it again (auth.ts). */
  readonly withAuth: <T>(host: AgentHost, call: (host: AgentHost) => Promise<T>) => Promise<T>;
  /** A new session object of `host` (not registered yet). */
  readonly create: (host: AgentHost, sessionId: string, cwd: string) => AgentSession;
  /** Registers a session, records its whole transcript in the client's store, and tells the listeners. */
  readonly adopt: (session: AgentSession) => Promise<void>;
}

/** Why a session cannot be forked, or undefined when it can. */
export function whyNotForkable(source: Pick<AgentSession, 'host'>, readOnly: boolean): string | undefined {
  const name = source.host.definition.name;
  if (readOnly) return 'this session is read-only (its agent cannot reopen it)';
  if (source.host.state !== 'ready') return `${name} is not running`;
  if (!agentSupports(source.host, 'fork')) return `${name} does not support forking sessions (it does not advertise session/fork)`;
  return undefined;
}

/** The text of the marker at the top of a fork. */
export function forkMarkerText(sourceTitle: string): string {
  return `Forked from "${sourceTitle}". The conversation below is a copy of it; from here on, this session goes its own way.`;
}

/**
 * Forks `source` (an open session whose agent supports it: check {@link whyNotForkable} first): sends
 * `session/fork` with the setup fields of `session/new` (`additionalDirectories` only with that capability),
 * and resolves with the new session, registered and recorded.
 */
export async function forkSession(deps: SessionForkDeps, source: AgentSession, token?: vscode.CancellationToken): Promise<AgentSession> {
  const { host, res, setup } = await deps.withAuth(source.host, async (h) => {
    const fields = await deps.setupFor(h, source.cwd);
    return { host: h, setup: fields, res: await h.connection.request('session/fork', { sessionId: source.sessionId, ...fields }, token) };
  });
  host.log.info(`session ${source.sessionId} forked as ${res.sessionId} in ${source.cwd}`);
  const fork = deps.create(host, res.sessionId, source.cwd);
  applySetup(fork, setup);
  const title = source.thread.titles.shown;
  const marker: ThreadEntry = { kind: 'notice', id: 'fork', level: 'info', text: forkMarkerText(title), marker: 'fork' };
  const copied = structuredClone(source.thread.entries).map(settleEntry);
  fork.thread.restore([marker, ...copied], `${title} (fork)`, structuredClone(source.thread.plan), source.thread.terminals.views(), structuredClone(source.thread.plans), source.thread.planCancelled);
  fork.thread.setSessionSetup(res); // its own config options and legacy modes
  await deps.adopt(fork);
  return fork;
}
