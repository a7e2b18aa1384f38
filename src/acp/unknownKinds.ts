/**
 * Tags of a newer protocol in an incoming `session/update`: a kind (`sessionUpdate`) or a plan format
 * (`plan_update`'s `plan.type`) this client does not know. Clients must log and ignore them, not fail
 * (https://agentclientprotocol.com/protocol/prompt-turn, https://agentclientprotocol.com/rfds/plan-operations).
 * An invalid shape (no update, no tag) is not "unknown": it goes on to validation, which reports it.
 */
import { zPlanUpdateContentVariants, zSessionUpdateVariants } from './schema/zod.gen';

const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** What is unknown in a `session/update`'s params, as a log line; undefined when it can be validated. */
export function unknownSessionUpdateTag(params: unknown): string | undefined {
  const update = (params as { update?: { sessionUpdate?: unknown; plan?: { type?: unknown } } } | null | undefined)?.update;
  const kind = update?.sessionUpdate;
  if (typeof kind === 'string' && !has(zSessionUpdateVariants, kind)) return `ignored session/update of unknown kind ${JSON.stringify(kind)}`;
  const type = kind === 'plan_update' ? update?.plan?.type : undefined;
  if (typeof type === 'string' && !has(zPlanUpdateContentVariants, type)) return `ignored a plan_update of unknown type ${JSON.stringify(type)}`;
  return undefined;
}
