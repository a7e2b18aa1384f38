import * as acp from '@agentclientprotocol/sdk/unstable';
import { z } from 'zod';
import { contentBlockSchema } from './acpShapes';
import { promptText } from './promptHandlers';
import type { ScriptedAgent } from './scriptedAgent';
import { StepRunner } from './stepRunner';

/** `_session/steering` as claude-agent-acp and codex-acp take it (src/acp/steering.ts). */
const steerParamsSchema = z.object({
  sessionId: z.string().min(1),
  prompt: z.array(contentBlockSchema).min(1),
  _meta: z.object({ steering: z.object({ idleBehavior: z.literal('promptRequired').optional() }).passthrough().optional() }).passthrough().nullable().optional(),
}).passthrough();
type SteerParams = z.infer<typeof steerParamsSchema>;

/**
 * Registers `_session/steering` (an agent extension, advertised by a scenario with `initialize.response._meta.steering`):
 * while a turn runs, the message joins it (an `awaitSteer` step of the turn takes it) and the answer is `injected`;
 * with no turn, `promptRequired` when the client asks for it, else (or with `steering.ignoreIdleBehavior`, as codex-acp
 * 1.6 does) `startedNewTurn` and a turn of the agent's own that says what it got. `steering.answers` force an answer.
 */
export function registerSteeringHandlers(app: acp.AgentApp, agent: ScriptedAgent): void {
  const parse = (params: unknown): SteerParams => {
    const parsed = steerParamsSchema.safeParse(params);
    if (!parsed.success) throw acp.RequestError.invalidParams(undefined, `steer params: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return parsed.data;
  };
  app.onRequest<SteerParams, Record<string, unknown>>('_session/steering', { parse }, async ({ params }) => {
    const session = agent.store.require(params.sessionId);
    const text = promptText(params.prompt as acp.ContentBlock[]);
    const options = agent.scenario.steering;
    agent.log(`  steer ${JSON.stringify(text)}${session.activeTurn ? ' into the running turn' : ' with no turn running'}`);
    const forced = options?.answers?.find((a) => a.match === undefined || new RegExp(a.match, 'i').test(text));
    if (forced) return { outcome: forced.outcome, ...(forced.reason ? { reason: forced.reason } : {}) };
    if (session.activeTurn) {
      for (const block of params.prompt) session.history.push({ sessionUpdate: 'user_message_chunk', content: block as acp.ContentBlock });
      session.activeTurn.steer(text);
      return { outcome: 'injected' };
    }
    if (params._meta?.steering?.idleBehavior === 'promptRequired' && !options?.ignoreIdleBehavior) return { outcome: 'promptRequired', reason: 'noRunningTurn' };
    // a turn of the agent's own, which no request of the client's ends
    setTimeout(() => void new StepRunner(agent, { session, record: true }).sendUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `[own turn] ${text}\n` } }), 50);
    return { outcome: 'startedNewTurn' };
  });
}
