import * as acp from '@agentclientprotocol/sdk/unstable';
import type { Turn } from './scenario';
import type { ScriptedAgent } from './scriptedAgent';
import { StepRunner } from './stepRunner';
import { promptTopic } from './templates';
import { TurnControl } from './turnControl';

/** The text of a prompt: its text blocks joined with "\n" (other blocks are ignored for matching). */
export function promptText(prompt: readonly acp.ContentBlock[]): string {
  return prompt.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/**
 * The prompt's blocks in one line, for tests to observe what arrived (template `{{blocks}}`): `text`,
 * `resource_link <uri>`, `resource <uri> (<n> chars)`, `image <mimeType>`, … joined with `; `.
 */
export function promptBlocksSummary(prompt: readonly acp.ContentBlock[]): string {
  return prompt.map((b) => {
    switch (b.type) {
      case 'resource_link': return `resource_link ${b.uri}`;
      case 'resource': return `resource ${b.resource.uri}${'text' in b.resource ? ` (${b.resource.text.length} chars)` : ''}`;
      case 'image': return `image ${b.mimeType}`;
      default: return b.type;
    }
  }).join('; ');
}

/** The first turn whose `match` matches `text`, else the first turn without `match`, else a stub. */
export function pickTurn(turns: readonly Turn[], text: string): Turn {
  const matched = turns.find((turn) => turn.match !== undefined && new RegExp(turn.match, turn.flags ?? 'i').test(text));
  return matched ?? turns.find((turn) => turn.match === undefined) ?? {
    steps: [{ step: 'text', text: `(scripted agent: no turn matches ${JSON.stringify(text)})` }],
  };
}

/**
 * Registers `session/prompt` and `session/cancel`. A prompt runs the matching turn; `session/cancel`
 * (or `$/cancel_request` for the prompt) cancels it at the next step.
 */
export function registerPromptHandlers(app: acp.AgentApp, agent: ScriptedAgent): void {
  app.onRequest(acp.methods.agent.session.prompt, async ({ params, signal, requestId }) => {
    const session = agent.store.require(params.sessionId);
    if (session.status !== 'active') {
      throw acp.RequestError.invalidRequest({ sessionId: session.sessionId }, `session is ${session.status}; load or resume it first`);
    }
    if (session.activeTurn) {
      throw acp.RequestError.invalidRequest({ sessionId: session.sessionId }, 'a prompt turn is already running in this session');
    }
    agent.requirePromptAuth();
    const text = promptText(params.prompt);
    const args = text.startsWith('/') ? text.replace(/^\/\S*\s*/, '') : text;
    session.prompts += 1;
    session.updatedAt = new Date().toISOString();
    for (const block of params.prompt) {
      session.history.push({ sessionUpdate: 'user_message_chunk', content: block });
    }
    const turn = pickTurn(agent.scenario.turns, text);
    agent.log(`  turn ${turn.match === undefined ? '(default)' : `/${turn.match}/`} for prompt #${session.prompts} of ${session.sessionId}`);
    const control = new TurnControl(turn.cancelPending ?? false);
    session.activeTurn = control;
    const onAbort = (): void => {
      const byPeer = signal.reason instanceof acp.RequestError && signal.reason.code === -32800;
      control.cancel(byPeer ? '$/cancel_request' : 'connection closed');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const target = { session, vars: { prompt: text, args, topic: promptTopic(args), blocks: promptBlocksSummary(params.prompt) } };
    const runner = new StepRunner(agent, target, control);
    let answer;
    try {
      await agent.before('session/prompt', target);
      runner.runTurn(turn).catch((error: unknown) => {
        runner.answerWith({ kind: 'error', error: { code: -32603, message: `scripted turn failed: ${String(error)}` } });
      });
      answer = await runner.answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (session.activeTurn === control) {
        session.activeTurn = undefined;
      }
      agent.store.persist(session);
    }
    agent.after('session/prompt', target);
    if (answer.kind === 'error') {
      agent.log(`  → #${JSON.stringify(requestId)} error ${answer.error.code}`);
      throw new acp.RequestError(answer.error.code, answer.error.message, answer.error.data);
    }
    agent.log(`  → #${JSON.stringify(requestId)} stopReason ${answer.stopReason}`);
    return { stopReason: answer.stopReason, ...(answer.usage ? { usage: answer.usage } : {}) };
  });

  app.onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const subagent = agent.subagentTurns.get(params.sessionId);
    if (subagent) {
      subagent.cancel('session/cancel of the subagent');
      return;
    }
    const session = agent.store.get(params.sessionId);
    if (!session?.activeTurn) {
      agent.log(`  nothing to cancel in ${params.sessionId}`);
      return;
    }
    session.activeTurn.cancel('session/cancel');
  });
}
