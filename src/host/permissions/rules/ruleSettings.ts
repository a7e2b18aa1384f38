/**
 * The setting `switchboard.permissions.rules` (docs/approvals.md, "Rules"): a list of rules, each an action and one
 * subject, e.g. `{ "action": "allow", "command": "npm test *" }` or `{ "action": "deny", "write": "**\/.env" }`.
 * Read with zod: an entry that is not a rule is reported (and ignored), never guessed at.
 */
import * as z from 'zod/mini';
import type { Rule, RuleKind, RuleScope } from './ruleSet';

/** The subject keys of a rule entry, in the order they are written. */
export const ruleKinds: readonly RuleKind[] = ['command', 'read', 'write', 'mcpTool', 'host'];

const pattern = z.string().check(z.minLength(1), z.maxLength(2000));
const entrySchema = z.strictObject({
  action: z.enum(['allow', 'ask', 'deny']),
  command: z.optional(pattern),
  read: z.optional(pattern),
  write: z.optional(pattern),
  mcpTool: z.optional(pattern),
  host: z.optional(pattern),
});

/** One entry of the setting, as written. */
export type RuleEntry = z.infer<typeof entrySchema>;

/** The rules of one settings scope, and the entries that are not rules (with why). */
export interface ReadRules {
  readonly rules: readonly Rule[];
  readonly errors: readonly string[];
}

/** Reads the setting's value at one scope. */
export function readRules(value: unknown, scope: RuleScope): ReadRules {
  if (value === undefined || value === null) return { rules: [], errors: [] };
  if (!Array.isArray(value)) return { rules: [], errors: ['switchboard.permissions.rules is not a list'] };
  const rules: Rule[] = [];
  const errors: string[] = [];
  value.forEach((raw: unknown, i) => {
    const parsed = entrySchema.safeParse(raw);
    if (!parsed.success) {
      errors.push(`rule ${i + 1}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; ')}`);
      return;
    }
    const subjects = ruleKinds.filter((k) => parsed.data[k] !== undefined);
    if (subjects.length !== 1) {
      errors.push(`rule ${i + 1}: needs exactly one of ${ruleKinds.join(', ')}`);
      return;
    }
    const kind = subjects[0];
    rules.push({ action: parsed.data.action, kind, pattern: parsed.data[kind] ?? '', scope });
  });
  return { rules, errors };
}

/** A rule as a settings entry. */
export function toEntry(rule: Rule): RuleEntry {
  return { action: rule.action, [rule.kind]: rule.pattern };
}

/** True when a settings entry is this rule (to remove or replace it). */
export function isEntryOf(raw: unknown, rule: Rule): boolean {
  const parsed = entrySchema.safeParse(raw);
  return parsed.success && parsed.data.action === rule.action && parsed.data[rule.kind] === rule.pattern
    && ruleKinds.every((k) => k === rule.kind || parsed.data[k] === undefined);
}
