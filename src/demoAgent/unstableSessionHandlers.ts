import * as acp from '@agentclientprotocol/sdk/unstable';
import type { ScriptedAgent } from './scriptedAgent';

/** Longest title `session/set_title` stores (a longer one is cut, as an agent may normalize it). */
export const maxStoredTitle = 120;

/**
 * Registers the unstable session methods of schema.unstable.json: `session/fork`, `session/set_title`,
 * `session/archive`, `session/unarchive` and `session/status`, each gated by its `sessionCapabilities` entry
 * (unadvertised: -32601 and a logged violation, so a client that calls it anyway is caught).
 */
export function registerUnstableSessionHandlers(app: acp.AgentApp, agent: ScriptedAgent): void {
  const capabilities = (): acp.SessionCapabilities => agent.initializeResponse.agentCapabilities?.sessionCapabilities ?? {};

  app.onRequest(acp.methods.agent.session.fork, async ({ params }) => {
    agent.requireAdvertised(capabilities().fork, 'session/fork', 'sessionCapabilities.fork');
    agent.rejectUnadvertisedField(params.additionalDirectories, capabilities().additionalDirectories, 'session/fork', 'additionalDirectories', 'sessionCapabilities.additionalDirectories');
    agent.requireAuth();
    const source = agent.store.require(params.sessionId);
    const fork = agent.store.fork(source, params.cwd, params.additionalDirectories);
    fork.mcpServers = params.mcpServers ?? [];
    agent.log(`  forked ${source.sessionId} as ${fork.sessionId} in ${params.cwd}`);
    try {
      await agent.before('session/fork', { session: fork });
    } catch (error) {
      agent.store.delete(fork.sessionId);
      throw error;
    }
    agent.store.persist(fork);
    agent.after('session/fork', { session: fork }, () => agent.afterSetup(fork));
    return { sessionId: fork.sessionId, ...agent.setupState(fork) };
  });

  app.onRequest(acp.methods.agent.session.setTitle, async ({ params }) => {
    agent.requireAdvertised(capabilities().title, 'session/set_title', 'sessionCapabilities.title');
    const session = agent.store.require(params.sessionId);
    const title = params.title.replace(/\s+/g, ' ').trim().slice(0, maxStoredTitle);
    if (!title) {
      throw acp.RequestError.invalidParams({ title: params.title }, 'the title is empty');
    }
    await agent.before('session/set_title', { session });
    session.title = title;
    agent.store.persist(session);
    agent.after('session/set_title', { session });
    return { title };
  });

  const setArchived = async (method: 'session/archive' | 'session/unarchive', sessionId: string, archived: boolean): Promise<Record<string, never>> => {
    agent.requireAdvertised(capabilities().archive, method, 'sessionCapabilities.archive');
    const session = agent.store.require(sessionId);
    await agent.before(method, { session });
    if (archived) {
      // archiving an active session frees it as session/close would
      session.activeTurn?.cancel(method);
      if (session.status === 'active') session.status = 'closed';
    }
    session.archived = archived;
    agent.store.persist(session);
    agent.log(`  ${archived ? 'archived' : 'unarchived'} ${sessionId}`);
    agent.after(method, { session });
    return {};
  };
  app.onRequest(acp.methods.agent.session.archive, ({ params }) => setArchived('session/archive', params.sessionId, true));
  app.onRequest(acp.methods.agent.session.unarchive, ({ params }) => setArchived('session/unarchive', params.sessionId, false));

  app.onRequest(acp.methods.agent.session.status, async ({ params }) => {
    agent.requireAdvertised(capabilities().status, 'session/status', 'sessionCapabilities.status');
    await agent.before('session/status', {});
    const status = agent.store.statusOf(params.sessionId);
    if (!status) {
      throw acp.RequestError.sessionNotFound(params.sessionId);
    }
    agent.after('session/status', {});
    return { status };
  });
}
