import type { StepOf } from './scenarioSteps';
import type { OutgoingUpdate } from './sessionStore';
import { StepRunner } from './stepRunner';
import { TurnControl } from './turnControl';

/** `plan_update` (the `planUpdate` step): the plan's format fields as given (an unknown `type` is sent as is). */
export function planUpdate(step: StepOf<'planUpdate'>): OutgoingUpdate {
  const { planId, type, entries, content, uri } = step;
  return {
    sessionUpdate: 'plan_update',
    plan: { type, planId, ...(entries ? { entries } : {}), ...(content !== undefined ? { content } : {}), ...(uri !== undefined ? { uri } : {}) },
  };
}

/**
 * A subagent (the `subagent` step, https://agentclientprotocol.com/protocol/v1/draft/subagents): announced on the
 * runner's session, its steps run for its own session id with their own cancellation (`session/cancel` of the child,
 * or of the parent's turn), then its last state. Its updates are not recorded in the session's history.
 */
export async function runSubagent(runner: StepRunner, step: StepOf<'subagent'>): Promise<void> {
  const childId = step.sessionId;
  const notRecorded = { record: false };
  await runner.sendUpdate({
    sessionUpdate: 'subagent_update', sessionId: childId,
    ...(step.title !== undefined ? { title: step.title } : {}), ...(step.description !== undefined ? { description: step.description } : {}),
    ...(step.cancel ? { capabilities: { cancel: {} } } : {}), state: { state: 'running' },
  }, notRecorded);
  const control = new TurnControl();
  const onParentCancel = (): void => control.cancel(`the parent's ${runner.control.reason ?? 'cancel'}`);
  runner.control.signal.addEventListener('abort', onParentCancel, { once: true });
  runner.engine.subagentTurns.set(childId, control);
  let cancelled: boolean;
  try {
    const child = new StepRunner(runner.engine, { ...runner.target, sessionId: childId, record: false }, control);
    cancelled = await child.runCancellable(step.steps ?? []);
  } finally {
    runner.control.signal.removeEventListener('abort', onParentCancel);
    runner.engine.subagentTurns.delete(childId);
  }
  const end = cancelled ? 'cancelled' : step.end ?? 'end_turn';
  if (end === 'running') return;
  const error = end === 'error' ? { error: step.error ?? { code: -32603, message: 'The subagent failed.' } } : {};
  runner.engine.log(`  subagent ${childId} ended: ${end}`);
  await runner.sendUpdate({ sessionUpdate: 'subagent_update', sessionId: childId, state: { state: 'idle', stopReason: end, ...error } }, notRecorded);
}
