/**
 * The base of Switchboard's typed errors, with their one guard: `RegistryError.is(ex)`, `AcpError.is(ex, 'closed')`.
 * A class made by {@link typedError} brands its errors with a `Symbol.for` key, the same in every bundle, and
 * its `is` checks the brand, not the prototype: the extension's lazily loaded parts (dist/core.js, registry.js,
 * archiveExtract.js) each bundle their own copy of the modules they import, so `instanceof` fails for an error
 * thrown by another part's copy of the class, and `is` does not (docs/performance.md, "Start fast, ship small").
 * Pure: used on both sides of every bundle boundary.
 */

/** A class constructor, abstract or not, whose instances are `E`. */
type ErrorClass<E> = abstract new (...args: never[]) => E;

/**
 * The base class of the typed error `name`: it sets `name`, brands each error, and gives the class a static
 * `is(ex)`, and `is(ex, reason)` for a class with a `reason` discriminator (negation keeps the other reasons).
 */
export function typedError(name: string) {
  const brand = Symbol.for(`switchboard.typedError.${name}`);
  return class TypedError extends Error {
    constructor(message?: string, options?: ErrorOptions) {
      super(message, options);
      this.name = name;
      Object.defineProperty(this, brand, { value: true });
    }

    /** True when `ex` is one of these errors, thrown by any bundle's copy of the class. */
    static is<E>(this: ErrorClass<E>, ex: unknown): ex is E;
    /** True when `ex` is one of these errors with the given reason. */
    static is<E extends { readonly reason: string }, R extends E['reason']>(this: ErrorClass<E>, ex: unknown, reason: R): ex is E & { readonly reason: R };
    static is(ex: unknown, reason?: string): boolean {
      return typeof ex === 'object' && ex !== null && brand in ex && (reason === undefined || ('reason' in ex && ex.reason === reason));
    }
  };
}
