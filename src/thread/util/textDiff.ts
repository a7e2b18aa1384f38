/**
 * The `diff` package, required on its first use rather than with the core: it is its own bundle, dist/diff.js
 * (esbuild.mjs, `lazyPackages`; docs/performance.md, "Start fast, ship small"). Unbundled (the tests) it is the package.
 */
import type * as Diff from 'diff';

/** The `diff` package's functions (Node's module cache keeps it after the first call). */
export function textDiff(): typeof Diff {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
  return require('diff') as typeof Diff;
}
