/**
 * Helpers the generated schemas (zod.gen.ts) call for the `x-deserialize-*` fix-ups of the ACP JSON
 * Schema: agents of every vintage send fields we do not know or cannot parse, and one bad optional field
 * or array item must never lose a whole message: older and newer agents must both be understood.
 */
import { z } from 'zod';

/** Something the tolerant parser dropped or replaced, for the agent log. */
export interface SchemaDiagnostic {
  readonly kind: 'skippedItem';
  readonly message: string;
}

let diagnosticSink: ((d: SchemaDiagnostic) => void) | undefined;

/** Routes tolerated-input diagnostics (e.g. a skipped config option of an unknown type) to a logger. */
export function setSchemaDiagnosticSink(sink: ((d: SchemaDiagnostic) => void) | undefined): void {
  diagnosticSink = sink;
}

/** `null` means "use the default" for this field. */
export function nullAsDefault<T extends z.ZodType>(schema: T, fallback: unknown) {
  return z.preprocess((v) => (v === null ? fallback : v), schema);
}

/** A required field whose invalid value falls back to a default, while a missing one is still an error. */
export function requiredDefaultOnError<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  const caught = schema.catch(fallback);
  return z.unknown().transform((value, ctx): z.output<T> => {
    if (value !== undefined) return caught.parse(value);
    ctx.addIssue({ code: 'custom', message: 'Required value is missing' });
    return z.NEVER;
  });
}

/** An array whose invalid items are dropped (and reported) instead of failing the whole array. */
export function skipInvalidItems<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((items): z.output<T>[] => {
    const out: z.output<T>[] = [];
    for (const value of items) {
      const r = item.safeParse(value);
      if (r.success) out.push(r.data);
      else diagnosticSink?.({ kind: 'skippedItem', message: `ignored an item: ${z.prettifyError(r.error).replace(/\n/g, ' ')}: ${preview(value)}` });
    }
    return out;
  });
}

function preview(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
