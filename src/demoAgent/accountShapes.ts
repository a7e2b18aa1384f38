import { z } from 'zod';
import { metaSchema } from './acpShapes';

/**
 * Scenario shapes of the agent's account and model providers (UNSTABLE ACP: `auth/status`, `auth/status_update`,
 * `providers/list|set|disable`). Strict, like acpShapes.ts, so a typo in a scenario fails validation.
 */

/** `AuthAccount`: display information of one account. */
export const authAccountSchema = z.strictObject({
  label: z.string(),
  active: z.boolean().nullable().optional(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  organization: z.string().nullable().optional(),
  _meta: metaSchema,
});

/** An `auth/status` answer (or update); `state` is any string, so a scenario can send one no client knows. */
export const authStatusSchema = z.strictObject({
  state: z.string(),
  accounts: z.array(authAccountSchema).optional(),
});
/** An auth status of a scenario. */
export type ScenarioAuthStatus = z.infer<typeof authStatusSchema>;

/**
 * The scenario's `authStatus`: what `auth/status` answers at first (advertising `auth.status` by default), and the
 * states `authenticate` and `logout` switch to (each also sent as `auth/status_update` before the answer).
 */
export const scenarioAuthStatusSchema = authStatusSchema.extend({
  afterLogin: authStatusSchema.optional(),
  afterLogout: authStatusSchema.optional(),
});

/** `ProviderInfo`. */
export const providerInfoSchema = z.strictObject({
  providerId: z.string().min(1),
  supported: z.array(z.string()),
  required: z.boolean(),
  current: z.strictObject({ apiType: z.string(), baseUrl: z.string(), _meta: metaSchema }).nullable().optional(),
  _meta: metaSchema,
});
/** A provider of a scenario. */
export type ScenarioProvider = z.infer<typeof providerInfoSchema>;

/**
 * The scenario's `providers` (advertising `providers` by default): the list `providers/list` starts with;
 * `providers/set` and `providers/disable` change it. `recordFileEnv` names an env var holding a file where every
 * `providers/*` request is appended as a JSON line `{ "method", "params" }` (headers included, for tests).
 */
export const scenarioProvidersSchema = z.strictObject({
  list: z.array(providerInfoSchema),
  recordFileEnv: z.string().regex(/^[^=\0]+$/).optional(),
});
