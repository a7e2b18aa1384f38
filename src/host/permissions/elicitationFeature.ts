/**
 * `elicitation/create` and `elicitation/complete` (https://agentclientprotocol.com/protocol/v1/elicitation), with the
 * client capability `elicitation: {form: {}, url: {}}`. A session-scoped request goes to its session's
 * {@link ElicitationBroker}; a request-scoped one (tied to one of our requests, outside any session) is asked in the
 * quick input flow only. `elicitation/complete` for an unknown or already completed id is logged and ignored.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { CreateElicitationRequest, CreateElicitationResponse } from '../../acp/schema/types.gen';
import { validateForm } from '../../thread/view/elicitationForm';
import type { ClientFeature } from '../clientFeature';
import type { SessionPart } from '../sessionContext';
import { ElicitationBroker, ElicitationCompletions, parseElicitation } from './elicitationBroker';
import type { ElicitationEnvironment } from './elicitationBroker';

/** Each session's elicitations (the agent's forms and URLs), asked in the environment the session was given (VS Code's: src/host/features.ts). */
export const elicitationsPart: SessionPart<ElicitationBroker, { readonly elicitationEnvironment: ElicitationEnvironment }> = {
  name: 'elicitation broker',
  create: (session) => new ElicitationBroker(session.context, session.options.elicitationEnvironment),
  cancelRequests: (elicitations) => elicitations.cancelAll(),
};

/** A request tied to a JSON-RPC request of ours, not to a session: asked in the quick input flow. */
export async function answerOutsideSession(env: ElicitationEnvironment, p: CreateElicitationRequest, token: CancellationToken): Promise<CreateElicitationResponse> {
  const parsed = parseElicitation(p);
  const prompt = { agentName: 'The agent', message: p.message, ...(parsed.mode === 'form' ? { form: parsed.form } : { url: parsed.url }) };
  const answer = await env.ask(prompt, token);
  if (!answer) return { action: 'cancel' };
  if (answer.action !== 'accept') return { action: answer.action };
  if (parsed.mode === 'url') {
    await env.openExternal(parsed.url.href);
    return { action: 'accept' };
  }
  const checked = validateForm(parsed.form, answer.content ?? {});
  return checked.ok ? { action: 'accept', content: checked.content } : { action: 'cancel' };
}

/** The feature, over an environment (VS Code's in the product: elicitationEnvironment.ts). */
export function elicitationFeatureOver(env: ElicitationEnvironment): ClientFeature<ElicitationBroker> {
  return {
    fillClientCapabilities: (c) => { c.elicitation = { form: {}, url: {} }; },
    part: elicitationsPart,
    register: (connection, route, log) => {
      const completions = new ElicitationCompletions();
      connection.onRequest('elicitation/create', (p, ct) => {
        const scope = p as { sessionId?: unknown; toolCallId?: string | null };
        if (typeof scope.sessionId === 'string') return route(scope.sessionId).create({ ...p, sessionId: scope.sessionId, toolCallId: scope.toolCallId }, ct, completions);
        return answerOutsideSession(env, p, ct);
      });
      connection.onNotification('elicitation/complete', (p) => {
        if (!completions.complete(p.elicitationId)) log(`ignored elicitation/complete for '${p.elicitationId}': unknown or already completed`);
      });
    },
  };
}
