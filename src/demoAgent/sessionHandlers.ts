import * as acp from '@agentclientprotocol/sdk/unstable';
import type { ScriptedAgent } from './scriptedAgent';
import type { SessionState } from './sessionStore';
import { StepRunner } from './stepRunner';

/** Replays a session for `session/load`: the scenario's replay steps, then the recorded history. */
async function replay(agent: ScriptedAgent, session: SessionState): Promise<void> {
  const runner = new StepRunner(agent, { session, record: false });
  await runner.runSteps(session.replay);
  for (const update of [...session.history]) {
    await runner.sendUpdate(update, { record: false });
  }
}

function selectValues(options: acp.SessionConfigSelectOptions | Array<{ value: string } | { options: Array<{ value: string }> }>): string[] {
  return options.flatMap((o) => ('options' in o ? o.options.map((x) => x.value) : [o.value]));
}

/**
 * Registers session/new, load, list, resume, close, delete, set_mode and set_config_option (the unstable
 * ones are in unstableSessionHandlers.ts). Gated methods the agent did not advertise answer -32601 (and log a
 * violation).
 */
export function registerSessionHandlers(app: acp.AgentApp, agent: ScriptedAgent): void {
  const capabilities = (): acp.AgentCapabilities => agent.initializeResponse.agentCapabilities ?? {};
  const gateDirectories = (method: string, value: unknown): void =>
    agent.rejectUnadvertisedField(value, capabilities().sessionCapabilities?.additionalDirectories, method, 'additionalDirectories', 'sessionCapabilities.additionalDirectories');

  app.onRequest(acp.methods.agent.session.new, async ({ params }) => {
    gateDirectories('session/new', params.additionalDirectories);
    agent.requireAuth();
    const session = agent.store.create(params.cwd, params.additionalDirectories);
    session.mcpServers = params.mcpServers;
    agent.log(`  new session ${session.sessionId} in ${params.cwd} (${params.mcpServers.length} MCP servers)`);
    try {
      await agent.before('session/new', { session });
    } catch (error) {
      agent.store.delete(session.sessionId);
      throw error;
    }
    agent.store.persist(session);
    agent.after('session/new', { session }, () => agent.afterSetup(session));
    return { sessionId: session.sessionId, ...agent.setupState(session) };
  });

  app.onRequest(acp.methods.agent.session.load, async ({ params }) => {
    agent.requireAdvertised(capabilities().loadSession, 'session/load', 'loadSession');
    gateDirectories('session/load', params.additionalDirectories);
    agent.requireAuth();
    const session = agent.store.require(params.sessionId);
    session.activeTurn?.cancel('session/load');
    Object.assign(session, { cwd: params.cwd, additionalDirectories: params.additionalDirectories, mcpServers: params.mcpServers, status: 'active' });
    agent.store.persist(session);
    await agent.before('session/load', { session });
    const replayAfter = agent.scenario.session?.loadReplay === 'after';
    if (!replayAfter) {
      await replay(agent, session);
    }
    agent.after('session/load', { session }, async () => {
      if (replayAfter) {
        await replay(agent, session);
      }
      await agent.afterSetup(session);
    });
    return agent.setupState(session);
  });

  app.onRequest(acp.methods.agent.session.list, async ({ params }) => {
    agent.requireAdvertised(capabilities().sessionCapabilities?.list, 'session/list', 'sessionCapabilities.list');
    const archive = capabilities().sessionCapabilities?.archive;
    agent.rejectUnadvertisedField(params.archived ?? undefined, archive, 'session/list', 'archived', 'sessionCapabilities.archive');
    await agent.before('session/list', {});
    const page = agent.store.list(params.cwd, params.cursor, archive ? { filter: params.archived } : undefined);
    agent.after('session/list', {});
    return page;
  });

  app.onRequest(acp.methods.agent.session.resume, async ({ params }) => {
    agent.requireAdvertised(capabilities().sessionCapabilities?.resume, 'session/resume', 'sessionCapabilities.resume');
    gateDirectories('session/resume', params.additionalDirectories);
    agent.requireAuth();
    const session = agent.store.require(params.sessionId);
    Object.assign(session, { cwd: params.cwd, additionalDirectories: params.additionalDirectories, mcpServers: params.mcpServers ?? [], status: 'active' });
    agent.store.persist(session);
    await agent.before('session/resume', { session });
    agent.after('session/resume', { session }, () => agent.afterSetup(session));
    return agent.setupState(session);
  });

  app.onRequest(acp.methods.agent.session.close, async ({ params }) => {
    agent.requireAdvertised(capabilities().sessionCapabilities?.close, 'session/close', 'sessionCapabilities.close');
    const session = agent.store.require(params.sessionId);
    await agent.before('session/close', { session });
    session.activeTurn?.cancel('session/close');
    session.status = 'closed';
    agent.after('session/close', { session });
    return {};
  });

  app.onRequest(acp.methods.agent.session.delete, async ({ params }) => {
    agent.requireAdvertised(capabilities().sessionCapabilities?.delete, 'session/delete', 'sessionCapabilities.delete');
    await agent.before('session/delete', {});
    agent.store.get(params.sessionId)?.activeTurn?.cancel('session/delete');
    const existed = agent.store.delete(params.sessionId);
    agent.log(`  ${existed ? 'deleted' : 'nothing to delete for'} ${params.sessionId}`);
    agent.after('session/delete', {});
    return {};
  });

  app.onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
    const session = agent.store.require(params.sessionId);
    if (!session.modes?.availableModes.some((m) => m.id === params.modeId)) {
      throw acp.RequestError.invalidParams({ modeId: params.modeId }, 'unknown mode');
    }
    await agent.before('session/set_mode', { session });
    session.modes.currentModeId = params.modeId;
    agent.store.persist(session);
    agent.after('session/set_mode', { session });
    return {};
  });

  app.onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
    const session = agent.store.require(params.sessionId);
    const option = session.configOptions?.find((o) => o.id === params.configId);
    if (!option) {
      throw acp.RequestError.invalidParams({ configId: params.configId }, 'unknown config option');
    }
    const value: unknown = params.value;
    if (option.type === 'select') {
      if (typeof value !== 'string' || !selectValues(option.options).includes(value)) {
        throw acp.RequestError.invalidParams({ configId: params.configId, value }, 'not one of the option values');
      }
      option.currentValue = value;
    } else {
      if (typeof value !== 'boolean') {
        throw acp.RequestError.invalidParams({ configId: params.configId, value }, 'a boolean option needs a boolean value');
      }
      option.currentValue = value;
    }
    agent.store.persist(session);
    await agent.before('session/set_config_option', { session });
    agent.after('session/set_config_option', { session });
    return { configOptions: agent.setupState(session).configOptions ?? [] };
  });
}
