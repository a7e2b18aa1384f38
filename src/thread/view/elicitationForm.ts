/**
 * Form mode of `elicitation/create` (https://agentclientprotocol.com/protocol/v1/elicitation): the agent's
 * restricted JSON schema (flat object of string, number, integer, boolean and multi-select properties) becomes
 * the form the chat and the quick input show, and the user's answers are validated against a zod schema derived
 * from it before they are sent. zod, not Ajv: it runs anywhere (the webview's CSP forbids the code generation
 * Ajv needs, and Ajv is not a runtime dependency), and the restricted schema maps onto it one keyword at a time.
 * Pure: no vscode, no DOM (docs/acp-features.md "Elicitation").
 */
import * as z from 'zod/mini';
import type { ElicitationPropertySchema, ElicitationSchema } from '../../acp/schema/types.gen';
import type { ElicitationChoiceView, ElicitationFieldView, ElicitationFormView, ElicitationInput, ElicitationStringFormat } from '../../shared/elicitationModel';

/** A value of an accepted form, as `ElicitationContentValue` has it. */
export type ElicitationContentValue = string | number | boolean | string[];

/** The agent's `pattern` as a RegExp: Unicode mode (ECMA-262, as JSON Schema asks), else the legacy mode. */
export function patternRegExp(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next mode
    }
  }
  return undefined;
}

const num = (v: number | null | undefined): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: string | null | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The choices of `items` of a multi-select: `enum` values, or `anyOf` consts with titles. */
function multiChoices(items: unknown): ElicitationChoiceView[] | undefined {
  const i = items as { enum?: unknown; anyOf?: unknown } | undefined;
  if (Array.isArray(i?.enum)) return i.enum.filter((v): v is string => typeof v === 'string').map((v) => ({ value: v, title: v }));
  if (Array.isArray(i?.anyOf)) return (i.anyOf as { const?: unknown; title?: unknown }[]).filter((o) => typeof o.const === 'string').map((o) => ({ value: o.const as string, title: typeof o.title === 'string' ? o.title : (o.const as string) }));
  return undefined;
}

function fieldOf(name: string, p: ElicitationPropertySchema, required: boolean): ElicitationFieldView | string {
  const q = p as Record<string, unknown> & { title?: string | null; description?: string | null };
  const base = defined({ name, title: str(q.title ?? undefined) ?? name, description: str(q.description ?? undefined), required });
  switch (p.type) {
    case 'string': {
      const s = p as Extract<ElicitationPropertySchema, { type: 'string' }> & { minLength?: number | null; maxLength?: number | null; pattern?: string | null; format?: ElicitationStringFormat | null; default?: string | null; enum?: string[] | null; oneOf?: { const: string; title: string }[] | null };
      const options = s.oneOf?.map((o) => ({ value: o.const, title: o.title })) ?? s.enum?.map((v) => ({ value: v, title: v }));
      if (options) return defined({ ...base, kind: 'select' as const, options, default: s.default ?? undefined });
      if (typeof s.pattern === 'string' && !patternRegExp(s.pattern)) return `property '${name}': pattern is not a valid regular expression`;
      return defined({ ...base, kind: 'text' as const, format: s.format ?? undefined, minLength: num(s.minLength), maxLength: num(s.maxLength), pattern: s.pattern ?? undefined, default: s.default ?? undefined });
    }
    case 'number':
    case 'integer': {
      const n = p as { minimum?: number | null; maximum?: number | null; default?: number | null };
      return defined({ ...base, kind: 'number' as const, integer: p.type === 'integer', minimum: num(n.minimum), maximum: num(n.maximum), default: num(n.default) });
    }
    case 'boolean':
      return defined({ ...base, kind: 'boolean' as const, default: typeof q.default === 'boolean' ? q.default : undefined });
    case 'array': {
      const a = p as { items?: unknown; minItems?: number | null; maxItems?: number | null; default?: string[] | null };
      const options = multiChoices(a.items);
      if (!options) return defined({ ...base, kind: 'unsupported' as const, type: 'array' });
      return defined({ ...base, kind: 'multiSelect' as const, options, minItems: num(a.minItems), maxItems: num(a.maxItems), default: a.default ?? undefined });
    }
    default:
      return defined({ ...base, kind: 'unsupported' as const, type: String(p.type) });
  }
}

/** The form of a schema, or why it cannot be shown (the request is then refused with -32602). */
export function formFromSchema(schema: ElicitationSchema): { ok: true; form: ElicitationFormView } | { ok: false; error: string } {
  const required = new Set(schema.required ?? []);
  const fields: ElicitationFieldView[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const field = fieldOf(name, property, required.has(name));
    if (typeof field === 'string') return { ok: false, error: field };
    fields.push(field);
  }
  return { ok: true, form: defined({ title: str(schema.title ?? undefined), description: str(schema.description ?? undefined), fields }) };
}

const formats: Record<ElicitationStringFormat, { schema: z.ZodMiniType<string>; label: string }> = {
  email: { schema: z.email(), label: 'an email address' },
  uri: { schema: z.url(), label: 'a URI (for example https://example.com)' },
  date: { schema: z.iso.date(), label: 'a date (YYYY-MM-DD)' },
  'date-time': { schema: z.iso.datetime({ offset: true, local: true }), label: 'a date and time (YYYY-MM-DDTHH:MM:SSZ)' },
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The zod schema of one field's value (already normalized: numbers are numbers). */
function fieldSchema(f: ElicitationFieldView): z.ZodMiniType<ElicitationContentValue> {
  switch (f.kind) {
    case 'text': {
      let s = z.string();
      if (f.minLength !== undefined) s = s.check(z.minLength(f.minLength, `Enter at least ${plural(f.minLength, 'character')}.`));
      if (f.maxLength !== undefined) s = s.check(z.maxLength(f.maxLength, `Enter at most ${plural(f.maxLength, 'character')}.`));
      const re = f.pattern === undefined ? undefined : patternRegExp(f.pattern);
      if (re) s = s.check(z.regex(re, `Must match the pattern ${f.pattern}.`));
      const format = f.format ? formats[f.format] : undefined;
      return format ? s.check(z.refine((v) => format.schema.safeParse(v).success, { error: `Enter ${format.label}.` })) : s;
    }
    case 'select': return z.string().check(z.refine((v) => f.options.some((o) => o.value === v), { error: 'Pick one of the choices.' }));
    case 'number': {
      let n = f.integer ? z.int({ error: 'Enter a whole number.' }) : z.number({ error: 'Enter a number.' });
      if (f.minimum !== undefined) n = n.check(z.minimum(f.minimum, `Enter ${f.minimum} or more.`));
      if (f.maximum !== undefined) n = n.check(z.maximum(f.maximum, `Enter ${f.maximum} or less.`));
      return n;
    }
    case 'boolean': return z.boolean({ error: 'Choose yes or no.' });
    case 'multiSelect': {
      let a = z.array(z.string().check(z.refine((v) => f.options.some((o) => o.value === v), { error: 'Pick from the choices.' })));
      if (f.minItems !== undefined) a = a.check(z.minLength(f.minItems, `Pick at least ${f.minItems}.`));
      if (f.maxItems !== undefined) a = a.check(z.maxLength(f.maxItems, `Pick at most ${f.maxItems}.`));
      return a;
    }
    case 'unsupported': return z.never({ error: `Switchboard cannot fill a field of type "${f.type}".` });
  }
}

/** The typed value of a raw input, undefined when the field was left empty. Numbers may come as text. */
function normalize(f: ElicitationFieldView, raw: unknown): unknown {
  if (raw === undefined || raw === null) return undefined;
  switch (f.kind) {
    case 'text':
    case 'select': return raw === '' ? undefined : raw;
    case 'number': {
      if (typeof raw !== 'string') return raw;
      const t = raw.trim();
      return t === '' ? undefined : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : t;
    }
    case 'multiSelect': return Array.isArray(raw) && raw.length === 0 && !f.required ? undefined : raw;
    default: return raw;
  }
}

/** Why one field's raw input is refused, or undefined when it is fine (also used per step by the quick input). */
export function fieldError(f: ElicitationFieldView, raw: unknown): string | undefined {
  const value = normalize(f, raw);
  if (value === undefined) return f.required ? 'Required.' : undefined;
  const parsed = fieldSchema(f).safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message ?? 'Invalid value.';
}

/**
 * Validates the user's answers against the form: the content to accept with (empty optional fields left out,
 * numbers as numbers), or the errors per field. Keys the form does not have are refused.
 */
export function validateForm(form: ElicitationFormView, raw: Readonly<Record<string, ElicitationInput | undefined>>):
{ ok: true; content: Record<string, ElicitationContentValue> } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const content: Record<string, ElicitationContentValue> = {};
  for (const f of form.fields) {
    const error = fieldError(f, raw[f.name]);
    if (error) errors[f.name] = error;
    else {
      const value = normalize(f, raw[f.name]);
      if (value !== undefined) content[f.name] = value as ElicitationContentValue;
    }
  }
  for (const key of Object.keys(raw)) if (!form.fields.some((f) => f.name === key)) errors[key] = 'Not a field of this form.';
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

/** The values a form starts with: each field's default. */
export function defaultValues(form: ElicitationFormView): Record<string, ElicitationInput> {
  const values: Record<string, ElicitationInput> = {};
  for (const f of form.fields) if ('default' in f && f.default !== undefined) values[f.name] = f.default;
  return values;
}
