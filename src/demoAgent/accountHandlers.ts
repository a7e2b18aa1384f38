import * as acp from '@agentclientprotocol/sdk/unstable';
import { appendFileSync } from 'node:fs';
import type { ScriptedAgent } from './scriptedAgent';

/** Appends one `providers/*` request to the scenario's record file (`providers.recordFileEnv`), when there is one. */
function record(agent: ScriptedAgent, method: string, params: unknown): void {
  const name = agent.scenario.providers?.recordFileEnv;
  const file = name && agent.io.env[name];
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify({ method, params })}\n`);
  } catch (error) {
    agent.log(`  cannot record ${method} in ${file}: ${String(error)}`);
  }
}

/**
 * Registers `auth/status` and `providers/list|set|disable` (UNSTABLE). Each answers -32601 (and logs a violation)
 * unless the agent advertised its capability. `providers/set` refuses an unknown provider or a protocol it does not
 * support, `providers/disable` an unknown or `required` provider, with -32602; only header names are logged.
 */
export function registerAccountHandlers(app: acp.AgentApp, agent: ScriptedAgent): void {
  const provider = (providerId: string): acp.ProviderInfo => {
    const found = agent.providers.find((p) => p.providerId === providerId);
    if (!found) throw acp.RequestError.invalidParams({ providerId }, `unknown provider '${providerId}'`);
    return found;
  };

  app.onRequest(acp.methods.agent.auth.status, async () => {
    agent.requireAdvertised(agent.capabilities.auth?.status, 'auth/status', 'auth.status');
    await agent.before('auth/status', {});
    agent.after('auth/status', {});
    return structuredClone(agent.authStatus);
  });
  app.onRequest(acp.methods.agent.providers.list, async () => {
    agent.requireAdvertised(agent.capabilities.providers, 'providers/list', 'providers');
    await agent.before('providers/list', {});
    agent.after('providers/list', {});
    return { providers: structuredClone(agent.providers) };
  });
  app.onRequest(acp.methods.agent.providers.set, async ({ params }) => {
    agent.requireAdvertised(agent.capabilities.providers, 'providers/set', 'providers');
    record(agent, 'providers/set', params);
    agent.log(`  providers/set ${params.providerId} ${params.apiType} ${params.baseUrl} headers: ${Object.keys(params.headers ?? {}).join(', ') || 'none'}`);
    await agent.before('providers/set', {});
    const p = provider(params.providerId);
    if (!p.supported.includes(params.apiType)) throw acp.RequestError.invalidParams({ apiType: params.apiType }, `provider '${p.providerId}' does not support ${params.apiType}`);
    p.current = { apiType: params.apiType, baseUrl: params.baseUrl };
    agent.after('providers/set', {});
    return {};
  });
  app.onRequest(acp.methods.agent.providers.disable, async ({ params }) => {
    agent.requireAdvertised(agent.capabilities.providers, 'providers/disable', 'providers');
    record(agent, 'providers/disable', params);
    await agent.before('providers/disable', {});
    const p = provider(params.providerId);
    if (p.required) throw acp.RequestError.invalidParams({ providerId: p.providerId }, `provider '${p.providerId}' is required`);
    p.current = null;
    agent.after('providers/disable', {});
    return {};
  });
}
