/**
 * Helpers the generated schemas (zod.gen.ts) call for the `x-deserialize-*` fix-ups of the ACP JSON
 * Schema: agents of every vintage send fields we do not know or cannot parse, and one bad optional field
 * or array item must never lose a whole message: older and newer agents must both be understood.
 */
import * as z from 'zod/mini';
// named imports, not `z.core.…`: the whole core namespace would come into the bundle
import { $constructor, $ZodObjectJIT, util } from 'zod/v4/core';
import type { $loose, $ZodLooseShape, $ZodObjectDef } from 'zod/v4/core';

/**
 * zod/mini's object on zod's compiled object parser. zod/mini's own objects run the generic parser, about
 * five times slower on the agent's hot path (a `session/update` per chunk) than the compiled one (core's
 * `$ZodObjectJIT`) that zod's classic API builds on; this builds zod/mini's object the classic way: the same
 * validation and the same zod/mini schema (`z.extend` and the other functions keep its kind), at classic's
 * speed (docs/performance.md).
 */
const initCompiled: (inst: z.ZodMiniObject, def: $ZodObjectDef) => void = $ZodObjectJIT.init;
const initMini: (inst: z.ZodMiniObject, def: $ZodObjectDef) => void = z.ZodMiniType.init;
const ZodMiniObjectJIT = $constructor('ZodMiniObject', (inst: z.ZodMiniObject, def: $ZodObjectDef) => {
  initCompiled(inst, def);
  initMini(inst, def);
  util.installLazyProp(inst, 'shape', (self: z.ZodMiniObject) => self._zod.def.shape, false);
}) as unknown as new <S extends $ZodLooseShape>(def: $ZodObjectDef<S>) => z.ZodMiniObject<S, $loose>;

/** A loose object (unknown fields pass: ACP extensibility) on the compiled object parser. */
export function looseObject<S extends $ZodLooseShape>(shape: S): z.ZodMiniObject<S, $loose> {
  return new ZodMiniObjectJIT({ type: 'object', shape, catchall: z.unknown() });
}

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
export function nullAsDefault<T extends z.ZodMiniType>(schema: T, fallback: unknown) {
  return z.pipe(z.transform((v: unknown) => (v === null ? fallback : v)), schema);
}

/** A required field whose invalid value falls back to a default, while a missing one is still an error. */
export function requiredDefaultOnError<T extends z.ZodMiniType>(schema: T, fallback: z.output<T>) {
  const caught = z.catch(schema, fallback);
  return z.pipe(z.unknown(), z.transform((value, ctx): z.output<T> => {
    if (value !== undefined) return caught.parse(value);
    ctx.issues.push({ code: 'custom', message: 'Required value is missing', input: value });
    return z.NEVER;
  }));
}

/** An array whose invalid items are dropped (and reported) instead of failing the whole array. */
export function skipInvalidItems<T extends z.ZodMiniType>(item: T) {
  return z.pipe(z.array(z.unknown()), z.transform((items): z.output<T>[] => {
    const out: z.output<T>[] = [];
    for (const value of items) {
      const r = item.safeParse(value);
      if (r.success) out.push(r.data);
      else diagnosticSink?.({ kind: 'skippedItem', message: `ignored an item: ${z.prettifyError(r.error).replace(/\n/g, ' ')}: ${preview(value)}` });
    }
    return out;
  }));
}

function preview(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
