/**
 * The glob matcher of the permission rules (picomatch), its own bundle (esbuild.mjs, `lazyModules`): required
 * when the first glob rule is compiled, not with the core (docs/performance.md, "Start fast, ship small"). No vscode import.
 */
import picomatch from 'picomatch';

/** A test of candidates against one glob; `caseless` for case-insensitive file systems and host names. */
export function compileGlob(pattern: string, caseless: boolean): (candidate: string) => boolean {
  const matcher = picomatch(pattern, { dot: true, nocase: caseless });
  return (candidate) => matcher(candidate) === true; // picomatch's second argument returns an object: never pass one
}
