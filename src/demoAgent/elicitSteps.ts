import { z } from 'zod';
import type { StepOf } from './scenarioSteps';
import type { StepRunner } from './stepRunner';
import type { StepResult } from './turnControl';

// The SDK does not validate the client's results: parse them leniently here.
const elicitResponse = z.object({ action: z.string(), content: z.record(z.string(), z.unknown()).nullable().optional() });

/** `elicitation/create` (the `elicit` step): the action the client answered, with the content for `accept`. */
export async function elicit(runner: StepRunner, step: StepOf<'elicit'>, signal: AbortSignal): Promise<StepResult> {
  const scope = step.requestId !== undefined
    ? { requestId: step.requestId }
    : { sessionId: runner.sessionId, ...(step.toolCallId !== undefined ? { toolCallId: step.toolCallId } : {}) };
  const params = {
    ...scope, mode: step.mode, message: step.message,
    ...(step.requestedSchema !== undefined ? { requestedSchema: step.requestedSchema } : {}),
    ...(step.elicitationId !== undefined ? { elicitationId: step.elicitationId } : {}),
    ...(step.url !== undefined ? { url: step.url } : {}),
  };
  const response: unknown = await runner.engine.client.request<unknown, unknown>('elicitation/create', params, { cancellationSignal: signal });
  const parsed = elicitResponse.safeParse(response);
  if (!parsed.success) return { outcome: 'invalid', text: JSON.stringify(response) };
  const { action, content } = parsed.data;
  return { outcome: action, text: action === 'accept' && content ? JSON.stringify(content) : JSON.stringify(response) };
}
