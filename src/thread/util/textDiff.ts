/**
 * The `diff` package, required on its first use rather than with the core: it is its own bundle, dist/diff.js
 * (esbuild.mjs, `lazyPackages`; docs/performance.md, "Start fast, ship small"). Unbundled (the tests) it is the package.
 */
import type * as Diff from 'diff';

let diffModule: typeof Diff | undefined;

/** The `diff` package's functions. */
export function textDiff(): typeof Diff {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
  diffModule ??= require('diff') as typeof Diff;
  return diffModule;
}
