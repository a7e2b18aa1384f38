/**
 * Plans by id (`plan_update`, `plan_removed`, https://agentclientprotocol.com/rfds/plan-operations): an agent
 * that the client advertised `plan: {}` to may keep several plans, each in one of three formats (`items`,
 * `markdown`, `file`). Each `plan_update` replaces the content of the plan with its `planId` (a new id is added
 * after the others, an update keeps its place), `plan_removed` removes it. A format this client does not know is
 * ignored (and logged by the caller): the plan keeps what it showed. The legacy `plan` update is separate
 * (`AcpThread.plan`). Pure: no vscode, no node.
 */
import type { PlanEntry, PlanUpdateContent } from '../../acp/schema/types.gen';

/** One plan the agent keeps by id, as the thread (and the transcript store) holds it. */
export type PlanState =
  /** `cancelled`: the turn that ran it was stopped before its unfinished steps were done (until its next update). */
  | { readonly planId: string; readonly type: 'items'; readonly entries: PlanEntry[]; readonly cancelled?: boolean }
  | { readonly planId: string; readonly type: 'markdown'; readonly content: string }
  | { readonly planId: string; readonly type: 'file'; readonly uri: string };

/** The plan a `plan_update` carries, or undefined for a format this client does not know. */
export function planFromUpdate(content: PlanUpdateContent): PlanState | undefined {
  switch (content.type) {
    case 'items': return { planId: content.planId, type: 'items', entries: content.entries };
    case 'markdown': return { planId: content.planId, type: 'markdown', content: content.content };
    case 'file': return { planId: content.planId, type: 'file', uri: content.uri };
    default: return undefined;
  }
}

/** `plans` with `plan` in place of the plan of its id (at the end when it is new). */
export function withPlan(plans: readonly PlanState[], plan: PlanState): PlanState[] {
  const at = plans.findIndex((p) => p.planId === plan.planId);
  return at === -1 ? [...plans, plan] : plans.map((p, i) => (i === at ? plan : p));
}

/** `plans` without the plan `planId` (the same array when there is none). */
export function withoutPlan(plans: PlanState[], planId: string): PlanState[] {
  return plans.some((p) => p.planId === planId) ? plans.filter((p) => p.planId !== planId) : plans;
}

/** After Stop: item plans with unfinished steps show those steps as cancelled; undefined when nothing changes. */
export function cancelPlans(plans: readonly PlanState[]): PlanState[] | undefined {
  let changed = false;
  const next = plans.map((p) => {
    if (p.type !== 'items' || p.cancelled || p.entries.every((e) => e.status === 'completed')) return p;
    changed = true;
    return { ...p, cancelled: true };
  });
  return changed ? next : undefined;
}

/** The plans read back from the transcript store that have the shape of one (a malformed record is dropped). */
export function storedPlans(value: unknown): PlanState[] {
  if (!Array.isArray(value)) return [];
  return value.filter((p: unknown): p is PlanState => {
    const x = p as { planId?: unknown; type?: unknown; entries?: unknown; content?: unknown; uri?: unknown } | null;
    if (!x || typeof x.planId !== 'string') return false;
    if (x.type === 'items') return Array.isArray(x.entries) && x.entries.every((e) => typeof (e as { content?: unknown } | null)?.content === 'string');
    if (x.type === 'markdown') return typeof x.content === 'string';
    return x.type === 'file' && typeof x.uri === 'string';
  });
}
